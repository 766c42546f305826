"""A player's token (his one link for the evening) and the seat token bound to his round, read
as strictly as the others: its scope is one player of one tournament, it reads no table
itself, and a claim `sign_player` or `sign_bound` never writes is a 401, never a 500."""

from __future__ import annotations

from typing import Any, cast

import pytest

from services.common.settings import Settings
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tables.views import board_for, for_round_seat
from services.gateway.tokens import (
    Bound,
    Grant,
    PlayerScope,
    Role,
    TokenError,
    sign_bound,
    sign_player,
    verify,
)
from tests.helpers import DEAL
from tests.unit.test_tokens import KEY, signed

PLAYER = PlayerScope("spring", 3, 2, 1)
BOUND = Bound(PLAYER, 2, frozenset({3, 4}))


def test_a_players_token_names_his_tournament_entrant_place_and_generation() -> None:
    grant = verify(KEY, sign_player(KEY, PLAYER, 2**40), now=0)
    assert grant == Grant("tournament:spring", None, Role.PLAYER, player=PLAYER)


def test_a_players_token_reads_no_table() -> None:
    """He is given his round's seat by the gateway; his own token opens no table, not even
    one named like his tournament's."""
    grant = verify(KEY, sign_player(KEY, PLAYER, 2**40), now=0)
    for table in ("spring-1", "spring-2", "tournament:spring"):
        assert not Gateway.reads(grant, table)


def test_a_round_seat_is_its_seat_at_its_table_only_bound_to_the_round() -> None:
    grant = verify(KEY, sign_bound(KEY, "spring-1", "E", BOUND, 2**40), now=0)
    assert grant == Grant("spring-1", "E", Role.SEAT, bound=BOUND)
    assert Gateway.reads(grant, "spring-1")
    assert not Gateway.reads(grant, "spring-2")


def test_a_round_seat_sees_its_rounds_boards_only() -> None:
    """A board of another round at his table, or the board before when it is of another
    round, is one he may meet later (Law 16C1): withheld; his round's, as his seat sees it."""
    grant = Grant("spring-1", "E", Role.SEAT, bound=BOUND)
    board = cast(Any, {"board": 3, "dealer": "S", "vulnerability": "EW",
                       "ruleset": "wbf-2017", "deal": DEAL, "calls": [],
                       "previous": {"board": 2, "deal": DEAL}})
    mine = cast(dict[str, Any], for_round_seat(grant, board, 0, 0))
    assert "previous" not in mine and "withheld" not in mine
    assert mine["deal"] is not None and mine["deal"] != DEAL  # his own hand, not the four
    later = cast(dict[str, Any], for_round_seat(grant, {**board, "board": 5}, 0, 0))
    assert "withheld" in later and "deal" not in later and "calls" not in later
    same = cast(dict[str, Any], for_round_seat(
        grant, {**board, "board": 4, "previous": {"board": 3, "deal": DEAL}}, 0, 0))
    assert same["previous"]["board"] == 3  # his round's board before: his to see again
    seat = cast(dict[str, Any], board_for(Grant("spring-1", "E", Role.SEAT),
                                          {**board, "board": 5}, 0, 0))
    assert "withheld" not in seat  # a table's own seat link: every board, as before


PGOOD = {"t": "tournament:spring", "s": None, "r": "player", "e": 2**40, "p": [3, 2, 1]}
SGOOD = {"t": "t1", "s": "N", "r": "seat", "e": 2**40}
BGOOD = {"t": "spring-1", "s": "E", "r": "seat", "e": 2**40,
         "b": ["spring", 2, 3, 2, 1, [3, 4]]}


@pytest.mark.parametrize("claims", [
    {**PGOOD, "p": [3, 2]}, {**PGOOD, "p": [0, 2, 1]}, {**PGOOD, "p": [3, 2, True]},
    {**PGOOD, "p": "3/2/1"}, {**PGOOD, "s": "N"}, {**PGOOD, "t": "spring-1"},
    {k: v for k, v in PGOOD.items() if k != "p"}, {**PGOOD, "b": BGOOD["b"]},
    {**BGOOD, "r": "spectator", "s": None}, {**BGOOD, "p": [3, 2, 1]},
    {**BGOOD, "b": ["spring", 2, 3, 2, 1, []]}, {**BGOOD, "b": ["spring", 2, 3, 2, 1]},
    {**BGOOD, "b": ["bad name!", 2, 3, 2, 1, [3]]}, {**BGOOD, "b": ["spring", 2, 3, 2, 1, [0]]},
    {**BGOOD, "b": {"t": "spring"}}, {**SGOOD, "x": 1}])
def test_a_claim_never_signed_is_malformed(claims: dict[str, object]) -> None:
    with pytest.raises(TokenError, match="malformed"):
        verify(KEY, signed(claims), now=0)


def test_the_good_claims_verify() -> None:
    """The test above changes one thing from claims that verify."""
    assert verify(KEY, signed(PGOOD), now=0).player == PLAYER
    assert verify(KEY, signed(BGOOD), now=0).bound == BOUND


def test_a_malformed_player_token_is_a_401() -> None:
    gw = Gateway(Settings(TABLESERVER_SIGNING_KEY=KEY.decode(),
                          TABLESERVER_DIRECTOR_TOKEN="d" * 32))
    with pytest.raises(Refused) as refused:
        gw.grant_of(signed({**PGOOD, "p": [1]}))
    assert refused.value.kind == Kind.UNAUTHORIZED
