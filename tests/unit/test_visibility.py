"""Who sees what of a board, the core's pure function (`shared.table.visibility`), on the boards of
the scenario notation (tests/script.py) with `tests.helpers.DEAL`: N declares 4S, E leads, S
is dummy. The state's channels (the seat's view, the feed) read `board_for`; the history's
entries `entry_for`; the exports `hides_holdings`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from shared.seats import Seat
from shared.table.visibility import Reader, Role, board_for, entry_for, hides_holdings
from tests.helpers import DEAL
from tests.script import play

pytestmark = pytest.mark.unit

AUCTION = "N 1S, E P, S 2S, W P, N 4S, E P, S P, W P"
DIRECTOR, SPECTATOR = Reader(Role.DIRECTOR), Reader(Role.SPECTATOR)


def seat(letter: str) -> Reader:
    return Reader(Role.SEAT, Seat.parse(letter))


def state(script: str = "", extra: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The board's state after the auction and `script`, as the gateway reads it (JSON)."""
    found = play(f"{AUCTION}, {script}" if script else AUCTION, deal=DEAL, extra=extra)
    return dict(json.loads(json.dumps(found)))


def hands(view: dict[str, Any]) -> str:
    return str(view["deal"])


def test_law_41d_dummys_hand_is_seen_by_all_once_the_opening_lead_is_faced() -> None:
    before, after = state(), state("E plays C2")
    assert hands(board_for(seat("E"), before, 0, 0)) == "N:- JT987.Q876.AK5.2 - -"
    assert hands(board_for(seat("E"), after, 0, 0)) == \
        "N:- JT987.Q876.AK5.2 AK532.T.JT6.T985 -"
    assert board_for(DIRECTOR, before, 0, 0) is before


def test_laws_16_20f_a_self_alert_is_not_for_the_callers_partner() -> None:
    board = dict(json.loads(json.dumps(play("N 1C!, E P, S explains 0 short", deal=DEAL))))
    assert board_for(seat("S"), board, 0, 0)["calls"][0] == {"seat": "N", "call": "1C"}
    assert board_for(seat("E"), board, 0, 0)["calls"][0]["alert"] is True


def test_law_45_the_playable_cards_go_to_the_seat_who_plays_that_hand_only() -> None:
    """The hand due's playable cards: in E's view on his lead, not in W's, N's or dummy's
    (they tell what E holds); dummy's in declarer's view (Law 45: declarer plays them), not
    in dummy's own; the director's and the operator's always; a spectator's only once he sees
    the deal."""
    lead = state()
    assert board_for(seat("E"), lead, 0, 0)["playable"]["seat"] == "E"
    for other in "NSW":
        assert "playable" not in board_for(seat(other), lead, 0, 0)
    assert "playable" not in board_for(SPECTATOR, {**lead, "started_ts": 0}, 600, 1000)
    assert board_for(SPECTATOR, {**lead, "started_ts": 0}, 600, 10**9)["playable"] == \
        lead["playable"]
    dummys = state("E plays C2")
    assert board_for(seat("N"), dummys, 0, 0)["playable"] == {
        "seat": "S", "cards": ["CT", "C9", "C8", "C5"]}
    assert "playable" not in board_for(seat("S"), dummys, 0, 0)
    assert board_for(DIRECTOR, dummys, 0, 0)["playable"]["seat"] == "S"
    # the table's operator records every seat's card (the capture page reads the hand due's)
    assert board_for(Reader(Role.OPERATOR), dummys, 0, 0)["playable"] == {
        "seat": "S", "cards": ["CT", "C9", "C8", "C5"]}


def test_law_57a_the_bound_partner_sees_his_playable_cards_the_others_not() -> None:
    bound = state("E plays C2, S plays C5, W plays C6, N plays CA, N plays H2, W plays H4, "
                  "N 57A highest")
    assert board_for(seat("E"), bound, 0, 0)["playable"] == {"seat": "E", "cards": ["HQ"]}
    assert "playable" not in board_for(seat("W"), bound, 0, 0)


def test_law_61_a_revoke_is_the_directors_while_the_play_lasts_on_each_channel() -> None:
    """Law 61: E's revoke (he held a club) is not told to the seats while the play lasts:
    not in their state, nor in a history entry's state; the director has it."""
    board = state("E plays DA, S plays D6, W plays D3, N plays D2, E plays HQ, S plays HT, "
                  "W plays H4, N plays HK, N plays C3, E plays S7")  # E, holding C2, ruffs
    assert "revoke" in [a["kind"] for a in board["alerts"]]
    for reader in (seat("N"), seat("W")):
        assert "revoke" not in [a["kind"] for a in board_for(reader, board, 0, 0)["alerts"]]
        entry = entry_for(reader, {"event": {"type": "card_played", "seat": "E"},
                                   "state": board}, 0, 0)
        assert "revoke" not in [a["kind"] for a in entry["state"]["alerts"]]
    assert "revoke" in [a["kind"] for a in board_for(DIRECTOR, board, 0, 0)["alerts"]]
    assert hides_holdings(seat("N")) and not hides_holdings(DIRECTOR)


def test_law_68_the_claimers_hand_faced_is_seen_by_the_defenders_not_before() -> None:
    """Law 68 (a claim, with its statement; the claimer's hand faced for it, `hand_faced`):
    West, a defender, sees declarer North's hand once it is faced, not at the claim alone."""
    claimed = state("E plays C2, N claims 13 trumps then clubs")
    faced = state("E plays C2, N claims 13 trumps then clubs",
                  extra=[{"type": "hand_faced", "seat": "N"}])
    north = DEAL.split()[0].removeprefix("N:")
    assert north not in hands(board_for(seat("W"), claimed, 0, 0))
    assert hands(board_for(seat("W"), faced, 0, 0)).startswith(f"N:{north} ")
    assert faced["play"]["claim"]["statement"] == "trumps then clubs"


def test_law_66d_each_seat_sees_the_four_hands_once_the_play_has_ended_not_before() -> None:
    """Law 66D: after play ceases the cards may be inspected: each seat's view carries the
    whole deal once the board has its result at the table (a claim agreed, Law 69A); while the
    claim awaits the defenders' answer, a defender sees his own hand and dummy's alone."""
    open_claim = state("E plays C2, N claims 13 rest, E agrees")
    ended = state("E plays C2, N claims 13 rest, E agrees, W agrees")
    assert open_claim["result"] is None and ended["result"] is not None
    assert hands(board_for(seat("E"), open_claim, 0, 0)) == \
        "N:- JT987.Q876.AK5.2 AK532.T.JT6.T985 -"
    for letter in "NESW":
        assert hands(board_for(seat(letter), ended, 0, 0)) == DEAL, letter


def test_law_66d_the_board_before_carries_its_hands_to_the_seats_only() -> None:
    """Law 66D: the board before (`previous`), ended at this table, carries its four hands to
    the table's seats; a spectator who does not yet see the board in progress's deal (the
    vugraph delay) does not get the board before's either."""
    board = {**state(), "started_ts": 0,
             "previous": {"board": 0, "result": {"score_ns": 420}, "deal": DEAL}}
    for letter in "NESW":
        assert board_for(seat(letter), board, 0, 0)["previous"]["deal"] == DEAL
    delayed = board_for(SPECTATOR, board, 600, 1000)
    assert delayed["deal"] is None and "deal" not in delayed["previous"]
    assert board_for(SPECTATOR, board, 0, 1000)["previous"]["deal"] == DEAL
