"""Law 57A: a defender's premature play (before his partner has played to the trick) is a
major penalty card, and declarer's option on the partner's play (`play_option`) is checked
when the partner plays; Law 57B with Law 59: unable to comply, any card. The board of
`tests.helpers.DEAL`: N declares 4S, E leads, S is dummy.

N  S 4        H KJ32  D 842   C AQ743
E  S JT987    H Q876  D AK5   C 2
S  S AK532    H T     D JT6   C T985
W  S Q6       H A954  D Q973  C KJ6
"""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold
from shared.table.engine import TableState
from tests.unit.test_laws_play import kinds, played, view
from tests.unit.test_play import events

pytestmark = pytest.mark.unit

_N_WINS = "E C2, S C5, W C6, N CA"  # N on lead; E has no club left


def chose(choice: str, state: TableState, suit: str | None = None, seat: str = "N"
          ) -> TableState:
    m: dict[str, Any] = {"type": "play_option", "seat": seat, "choice": choice}
    if suit is not None:
        m["suit"] = suit
    return fold(events(m), state)


def hearts() -> TableState:
    """N leads H2; W plays H4 before his partner E has played: a penalty card, declarer's
    option on E's play awaits."""
    return played(f"{_N_WINS}, N H2, W H4")


def clubs() -> TableState:
    """N leads C3; W plays CJ before E, who holds no club."""
    return played(f"{_N_WINS}, N C3, W CJ")


def test_law_57a_the_premature_card_is_a_penalty_card_and_declarers_option_awaits() -> None:
    state = hearts()
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "H4", "led": False}]
    assert view(state)["play"]["partner_option"] == {"seat": "E", "choice": None, "suit": None}
    assert kinds(state) == ["play_out_of_turn"]
    state = chose("highest", state)
    assert view(state)["play"]["partner_option"]["choice"] == "highest"
    assert view(state)["rectifications"][-1]["law"] == "57A"


@pytest.mark.parametrize(("choice", "suit", "card", "alerted"), [
    ("highest", None, "HQ", False),  # 57A1: Q876, the queen
    ("highest", None, "H6", True),
    ("lowest", None, "H6", False),  # 57A2
    ("lowest", None, "H8", True),
    ("require", "D", "H6", False),  # 57A3: he must follow hearts: cannot comply (57B, 59)
])
def test_law_57a1_2_the_partner_following_suit(choice: str, suit: str | None, card: str,
                                               alerted: bool) -> None:
    """Law 57A1–2: the highest or lowest card of the suit led he holds; 57B: another suit
    required while he must follow suit cannot be complied with: any legal card."""
    state = played(f"E {card}", chose(choice, hearts(), suit))
    assert ("play_restriction_not_followed" in kinds(state)) is alerted
    assert view(state)["play"]["partner_option"] is None
    if alerted:
        assert view(state)["alerts"][-1]["law"] == "57A"


@pytest.mark.parametrize(("choice", "suit", "card", "alerted"), [
    ("require", "D", "DA", False),  # 57A3: void in clubs, a diamond
    ("require", "D", "HQ", True),
    ("prohibit", "S", "S7", True),  # 57A4: no spade
    ("prohibit", "S", "H6", False),
])
def test_law_57a3_4_the_partner_void_in_the_suit_led(choice: str, suit: str, card: str,
                                                     alerted: bool) -> None:
    """Law 57A3–4: void in the suit led, E must play a card of the suit declarer specifies,
    or none of the suit he forbids; against it, the Director's alert (the card stands)."""
    state = played(f"E {card}", chose(choice, clubs(), suit))
    assert ("play_restriction_not_followed" in kinds(state)) is alerted
    assert [c["card"] for c in view(state)["play"]["tricks"][-1]["cards"]][-1] == card


def test_law_57a_a_card_before_declarers_choice_lets_the_option_lapse() -> None:
    """The partner plays before declarer has selected: the option lapses (the Director's,
    as the premature play's alert says); no restriction is checked."""
    state = played("E H6", hearts())
    assert view(state)["play"]["partner_option"] is None
    assert kinds(state) == ["play_out_of_turn"]


@pytest.mark.parametrize(("script", "seat", "choice", "suit", "reason"), [
    (f"{_N_WINS}, N H2, W H4", "E", "highest", None,
     "only declarer (N) selects the option (Law 57A)"),
    (f"{_N_WINS}, N H2, W H4", "N", "require", "H",
     "H is the suit led: Law 57A3–4 name another suit"),
    (_N_WINS, "N", "lowest", None, "no option on a premature play awaits declarer (Law 57A)"),
    # W plays before dummy after his partner E has led: not 57A (his partner has played)
    ("E DA, W D3", "N", "lowest", None,
     "no option on a premature play awaits declarer (Law 57A)"),
])
def test_law_57a_an_option_the_law_does_not_give_is_ignored(script: str, seat: str,
                                                            choice: str, suit: str | None,
                                                            reason: str) -> None:
    """Law 57A: declarer alone, once, while the offender's partner has not played to the
    trick, and 57A3–4's suit is another than the suit led."""
    state = chose(choice, played(script), suit, seat)
    assert view(state)["ignored"][-1]["reason"] == reason
