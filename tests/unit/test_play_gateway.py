"""The gateway and the play: who may play a card (Law 45), a card refused as bad input (not
in that hand, or played already), and what each seat sees of the hands (Law 41D)."""

from __future__ import annotations

from typing import Any

import pytest

from services.gateway.play_checks import card_refusal
from services.gateway.refusals import Kind
from services.gateway.tokens import Grant
from services.gateway.views import board_for
from shared import fold, from_map
from tests.helpers import DEAL

pytestmark = pytest.mark.unit

AUCTION = [("N", "1S"), ("E", "P"), ("S", "P"), ("W", "P")]  # N declares, S is dummy


def state(*cards: tuple[str, str]) -> dict[str, Any]:
    """The whole board (as the processor writes it) after the auction and `cards`."""
    log = [{"type": "board_started", "board": 1, "deal": DEAL},
           *({"type": "call", "seat": s, "call": c} for s, c in AUCTION),
           *({"type": "card_played", "seat": s, "card": c} for s, c in cards)]
    board = fold(from_map(m) for m in log).board
    assert board is not None
    return dict(board.to_dict())


@pytest.mark.parametrize(("sender", "seat", "card", "field", "kind"), [
    ("E", "E", "SA", "card", Kind.BAD_INPUT),  # not in E's hand
    ("E", "E", "DA", "card", Kind.BAD_INPUT),  # played already
    ("S", "S", "D6", "seat", Kind.FORBIDDEN),  # dummy plays nothing (Law 45)
    ("W", "S", "D6", "seat", Kind.FORBIDDEN),  # a defender plays his own hand only
    ("E", "W", "D3", "seat", Kind.FORBIDDEN),
    ("N", "E", "HQ", "seat", Kind.FORBIDDEN),  # declarer: his hand and dummy's, no other
    (None, "S", "HA", "card", Kind.BAD_INPUT),  # the operator: any seat, a card of its hand
])
def test_law_45_a_card_refused_names_the_field(sender: str | None, seat: str, card: str,
                                               field: str, kind: Kind) -> None:
    """Law 45: each player plays his own cards, declarer dummy's too; a card not dealt to the
    hand, or played already, is bad input (400 naming `card`)."""
    refused = card_refusal(state(("E", "DA")), sender, seat, card)
    assert refused is not None and (refused.field, refused.kind) == (field, kind)


@pytest.mark.parametrize(("sender", "seat", "card"), [
    ("N", "S", "D6"),  # declarer plays from dummy (Law 45B)
    ("W", "W", "H4"),  # out of turn, or a revoke: possible, so appended (the Laws rectify)
    (None, "S", "D6"),
    ("E", "E", "XX"),  # not a card: the event schema names it
])
def test_a_card_the_laws_judge_goes_on(sender: str | None, seat: str, card: str) -> None:
    assert card_refusal(state(("E", "DA")), sender, seat, card) is None


def test_law_41d_dummys_hand_is_shown_to_all_once_the_opening_lead_is_faced() -> None:
    """Law 41D: after the opening lead dummy's hand is faced; a defender never sees his
    partner's or declarer's hand, declarer never a defender's."""
    before, after = state(), state(("E", "DA"))
    def deal(board: dict[str, Any], seat: str) -> str:
        return str(board_for(Grant("t", seat, "seat"), board, 0, 0)["deal"])
    assert deal(before, "E") == "N:- JT987.Q876.AK5.2 - -"
    assert deal(after, "E") == "N:- JT987.Q876.AK5.2 AK532.T.JT6.T985 -"
    assert deal(after, "W") == "N:- - AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
    assert deal(after, "N") == "N:4.KJ32.842.AQ743 - AK532.T.JT6.T985 -"
    assert deal(after, "S") == "N:- - AK532.T.JT6.T985 -"
