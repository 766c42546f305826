"""The cards the hand due may play now (`shared.table.playable`, the state's `playable`): what the
fold takes as regular, the Law of each rule cited. The board of `tests.helpers.DEAL`: N
declares 4S, E leads, S is dummy.

N  S 4        H KJ32  D 842   C AQ743
E  S JT987    H Q876  D AK5   C 2
S  S AK532    H T     D JT6   C T985
W  S Q6       H A954  D Q973  C KJ6
"""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold
from shared.cards import Card
from shared.laws.play import begin_play
from shared.robot.play import legal_cards
from shared.seats import Seat
from shared.table.engine import TableState
from shared.table.option_checks import option_refusal
from shared.table.playable import held
from tests.helpers import DEAL
from tests.script import play
from tests.unit.test_laws_penalty_cards import (
    minor_d3,
    named as penalty_named,
    option,
    two_penalty_cards,
    w_to_lead_with_two,
)
from tests.unit.test_laws_play import played, view
from tests.unit.test_laws_premature import chose, clubs, hearts
from tests.unit.test_play import events

pytestmark = pytest.mark.unit

AUCTION = "N 1S, E P, S 2S, W P, N 4S, E P, S P, W P"
TRICK_1 = "E plays C2, S plays C5, W plays C6, N plays CA"  # N wins, on lead; E has no club


def due(script: str, extra: list[dict[str, Any]] | None = None) -> tuple[str, list[str]] | None:
    """The hand due and its playable cards after the auction and `script`."""
    state = play(f"{AUCTION}, {script}" if script else AUCTION, deal=DEAL, extra=extra)
    found = state.get("playable")
    return None if found is None else (found["seat"], found["cards"])


def of(state: TableState) -> tuple[str, list[str]] | None:
    found = view(state).get("playable")
    return None if found is None else (found["seat"], found["cards"])


E_HAND = ["SJ", "ST", "S9", "S8", "S7", "HQ", "H8", "H7", "H6", "DA", "DK", "D5", "C2"]


def test_law_41a_the_opening_leader_may_lead_any_card_and_no_other_hand_is_due() -> None:
    assert due("") == ("E", E_HAND)
    assert play("N 1S, E P", deal=DEAL).get("playable") is None  # the auction: no card due


def test_law_44c_a_hand_follows_suit_when_able_else_any_card() -> None:
    assert due("E plays H6") == ("S", ["HT"])
    assert due(f"{TRICK_1}, N plays D2") == ("E", ["DA", "DK", "D5"])
    assert due("E plays C2, S plays C5, W plays C6, N plays CA, N plays C3") == (
        "E", [c for c in E_HAND if c != "C2"])  # void in clubs: any card (Law 44D)


def test_law_45_dummys_card_is_due_from_dummys_hand() -> None:
    assert due("E plays C2") == ("S", ["CT", "C9", "C8", "C5"])


def test_law_68d_and_53_nothing_is_due_during_a_claim_or_a_lead_out_of_turn() -> None:
    assert due("W plays HA") is None  # Law 54: declarer's option on the lead out of turn
    assert due("E plays C2, S plays C5, W plays C6, N plays CA, N claims 10 rest") is None


def test_law_50d2_the_leader_waits_for_declarers_option_then_leads_as_chosen() -> None:
    """Law 50D2: E "may not lead until" declarer has stated his option on W's major penalty
    card (HA): nothing; required, a heart (50D2(a)); prohibited, no heart while E keeps the
    lead; free, any card (50D2(b))."""
    waiting = played("W HA, N decline")
    assert of(waiting) == ("E", [])
    assert of(option("N", "require", waiting, "H")) == ("E", ["HQ", "H8", "H7", "H6"])
    assert of(option("N", "prohibit", waiting, "H")) == (
        "E", [c for c in E_HAND if c[0] != "H"])
    assert of(option("N", "free", waiting)) == ("E", E_HAND)


def test_law_51b2_several_suits_prohibited_leave_the_others() -> None:
    state = option("N", "prohibit", two_penalty_cards())
    hand = _held(state, "E")
    assert of(state) == ("E", [c for c in hand if c[0] not in "HC"]) and "HQ" in hand


def test_law_50d1_a_major_penalty_card_is_played_at_the_first_legal_opportunity() -> None:
    """Law 50D1: W's HA (a lead out of turn declined) must go when W may legally play it:
    to E's heart lead, HA alone; to a club, which W follows, not HA (Law 44C first)."""
    state = option("N", "free", played("W HA, N decline"))
    assert of(played("E H6, S HT", state)) == ("W", ["HA"])
    assert of(played("E C2, S C5", state)) == ("W", ["CK", "CJ", "C6"])


def test_law_51a_the_penalty_card_declarer_designated_is_the_one_played() -> None:
    state = w_to_lead_with_two()
    assert of(state) == ("W", ["HA", "C6"])  # two majors he may lead: either (Law 50D1)
    assert of(penalty_named("N", "C6", state)) == ("W", ["C6"])


def test_law_50c_no_low_card_of_the_minor_penalty_cards_suit_before_it() -> None:
    """Law 50C: with D3 a minor penalty card, W may play D3 or a diamond honour (DQ), not D9
    or D7; another suit is free."""
    state = played("E DA, S D6", minor_d3())
    assert of(state) == ("W", ["DQ", "D3"])


@pytest.mark.parametrize(("script", "choice", "suit", "cards"), [
    ("N plays H2, W plays H4", None, None, []),  # declarer's option awaited: E waits
    ("N plays H2, W plays H4", "highest", None, ["HQ"]),  # 57A1
    ("N plays H2, W plays H4", "lowest", None, ["H6"]),  # 57A2
    ("N plays H2, W plays H4", "require", "D", ["HQ", "H8", "H7", "H6"]),  # following: 57A3
    ("N plays C3, W plays CJ", "require", "D", ["DA", "DK", "D5"]),  # void in clubs: 57A3
    ("N plays C3, W plays CJ", "prohibit", "S",
     ["HQ", "H8", "H7", "H6", "DA", "DK", "D5"]),  # 57A4
    ("N plays C3, W plays CJ", "highest", None,
     [c for c in E_HAND if c != "C2"]),  # 57B with Law 59: unable to comply, any card
])
def test_law_57a_the_partner_plays_as_declarer_selected(script: str, choice: str | None,
                                                        suit: str | None,
                                                        cards: list[str]) -> None:
    """Law 57A: W played before his partner E: E plays as declarer selects (57A1–4), none
    before; unable to comply, any card (57B, Law 59)."""
    chosen = f", N 57A {choice}{' ' + suit if suit else ''}" if choice else ""
    assert due(f"{TRICK_1}, {script}{chosen}") == ("E", cards)


def test_law_26_the_directors_lead_restriction_binds_the_opening_lead() -> None:
    """Law 26 (a `ruling` `lead_restriction`): E must lead a spade; prohibited diamonds, any
    other suit; at a later lead it binds no more."""
    ruling = {"type": "ruling", "action": "lead_restriction", "seat": "E", "suit": "S",
              "restriction": "require", "law": "26"}
    assert due("", [ruling]) == ("E", ["SJ", "ST", "S9", "S8", "S7"])
    assert due("", [{**ruling, "suit": "D", "restriction": "prohibit"}]) == (
        "E", [c for c in E_HAND if c[0] != "D"])


def test_law_44c_the_robot_follows_suit_by_the_same_rule() -> None:
    hand = [Card.parse(c) for c in ("SA", "H2", "H3")]
    assert legal_cards(hand, [Card.parse("HK")]) == hand[1:]
    assert legal_cards(hand, [Card.parse("DK")]) == hand


# --- what the fold takes as regular: exactly the playable cards ------------------------------


def _irregular(state: TableState, seat: str, card: str) -> bool:
    """Whether the fold takes `card` from `seat` as irregular: an alert, or ignored."""
    before = state.board
    assert before is not None
    after = fold(events({"type": "card_played", "seat": seat, "card": card}), state).board
    assert after is not None
    return len(after.alerts) > len(before.alerts) or len(after.ignored) > len(before.ignored)


@pytest.mark.parametrize("state", [
    lambda: played(""), lambda: played("E H6"), lambda: played("E C2, S C5, W C6, N CA, N C3"),
    lambda: option("N", "require", played("W HA, N decline"), "H"),
    lambda: option("N", "prohibit", played("W HA, N decline"), "H"),
    lambda: played("E H6, S HT", option("N", "free", played("W HA, N decline"))),
    lambda: played("E DA, S D6", minor_d3()), lambda: chose("highest", hearts()),
    lambda: chose("lowest", hearts()), lambda: chose("require", clubs(), "D"),
    lambda: chose("prohibit", clubs(), "S"),
])
def test_laws_44_50_57a_the_playable_cards_are_those_the_fold_takes_as_regular(
        state: Any) -> None:
    """Every card the due hand still holds: the fold takes it without an alert exactly when
    it is playable (Laws 44C, 50C, 50D, 57A; a revoke, Law 61, alerts)."""
    start = state()
    seat, cards = of(start) or ("", [])
    assert cards and [c for c in _held(start, seat) if not _irregular(start, seat, c)] == cards


def _held(state: TableState, seat: str) -> list[str]:
    board = state.board
    assert board is not None
    found = held(board.play or begin_play(board.copy()), Seat.parse(seat))  # type: ignore[arg-type]
    assert found is not None
    return [c.text for c in found]


# --- declarer's options: declarer's alone (shared.table.option_checks) -------------------------


@pytest.mark.parametrize("kind", ["lead_option", "penalty_card_named", "play_option"])
def test_laws_50d2_51a_57a_only_declarer_sends_his_options(kind: str) -> None:
    board = play(AUCTION, deal=DEAL)
    refused = option_refusal(board, "E", kind)
    assert refused is not None and refused.forbidden and refused.field == "type"
    assert refused.reason.startswith("only declarer (N)")
    assert option_refusal(board, "N", kind) is None
    assert option_refusal(play("N 1S", deal=DEAL), "E", kind) is None  # the fold judges
    assert option_refusal(board, "E", "card_played") is None
