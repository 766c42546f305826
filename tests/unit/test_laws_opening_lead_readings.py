"""The readings of the opening lead by the declaring side and of Law 55A's two answers, each
written from the text. The board of `tests.helpers.DEAL`: N declares 4S, E (declarer's LHO)
makes the opening lead, S is dummy, W is declarer's RHO.

N  S 4        H KJ32  D 842   C AQ743
E  S JT987    H Q876  D AK5   C 2
S  S AK532    H T     D JT6   C T985
W  S Q6       H A954  D Q973  C KJ6
"""

from __future__ import annotations

import pytest

from services.gateway.tables.views import dummy_of, shown_hands
from shared.seats import Seat
from shared.table.engine import TableState
from shared.table.play_checks import DUMMY_NOT_SPREAD, card_refusal
from tests.unit.test_laws_play import cards_of, kinds, played, view
from tests.unit.test_play import auction

pytestmark = pytest.mark.unit

RULESETS = ("duplicate", "rubber")


def on(ruleset: str) -> TableState:
    return auction(ruleset=ruleset)


# --- Law 54E: a card of the declaring side before the opening lead is no lead -------------


@pytest.mark.parametrize("card", ["S HT", "N H2"])
def test_law_54e_a_declaring_side_card_before_the_opening_lead_is_no_lead(card: str) -> None:
    """Law 54E: "If a player of the declaring side attempts to make an opening lead Law 24
    applies"; 2017 Law 17D1: "The auction period ends when, subsequent to the end of the
    auction …, either defender faces an opening lead". Dummy's (S) or declarer's (N) card
    before E leads is no lead: the auction period goes on, nothing waits for a Law 55A
    option, E is still on lead, and Law 24 keeps the card face up (not a penalty card: the
    offender is of the declaring side)."""
    state = played(card)
    board = view(state)
    seat, text = card.split()
    assert board["opening_lead"] is None and board["auction_period_ended"] is False
    assert board["play"]["lead_out_of_turn"] is None and board["play"]["tricks"] == []
    assert kinds(state) == ["exposed_card"] and board["alerts"][0]["law"] == "54E"
    assert board["on_lead"] == "E" and board["play"]["turn"] == "E"
    assert board["exposed_cards"] == [{"seat": seat, "card": text, "led": True}]
    assert board["penalty_cards"] == []
    declined = played("E decline", state)  # no Law 55A option to the defenders
    assert view(declined)["ignored"] and view(declined)["rectifications"] == []


def test_law_54e_the_proper_opening_lead_then_comes_normally_and_the_card_goes_back() -> None:
    """Laws 54E, 24, 41A: after declarer's H2, E faces the opening lead DA in turn: it is the
    opening lead (not a card played to N's "lead", which today also made E revoke), the
    auction period ends, S plays next from dummy. Law 24: the offender being declarer, his
    card is picked up and returned to his hand: no longer shown, and he plays it later."""
    state = played("N H2, E DA")
    board = view(state)
    assert board["opening_lead"] == {"seat": "E", "card": "DA"}
    assert board["auction_period_ended"] is True
    assert cards_of(state) == [["E DA"]] and board["play"]["turn"] == "S"
    assert "revoke" not in kinds(state) and board["exposed_cards"] == []
    state = played("S D6, W D3, N D2, E HQ, S HT, W H4, N H2", state)
    assert cards_of(state)[1] == ["E HQ", "S HT", "W H4", "N H2"]


def test_law_41d_dummy_is_not_spread_by_a_declaring_side_card_before_the_opening_lead() -> None:
    """Law 41D: dummy spreads his hand once the opening lead is faced, not before. Dummy's HT
    before E leads, then E's word to accept it (no option is his: Law 54E), spreads nothing:
    no seat is shown dummy's hand, and declarer's card from dummy is refused as before the
    lead. E's lead then spreads it."""
    state = played("S HT, E accept")
    board = dict(view(state))
    assert dummy_of(board) is None and shown_hands(board) == ()
    assert card_refusal(board, "N", "S", "S2") == DUMMY_NOT_SPREAD
    board = dict(view(played("E DA", state)))
    assert dummy_of(board) is Seat.S


def test_law_48a_rubber_a_declaring_side_card_before_the_opening_lead_is_no_lead() -> None:
    """Rubber: declarer's LHO makes the opening lead (Law 41), and declarer is not subject to
    penalty for exposing a card, no card of his or dummy's hand ever a penalty card (48(a)).
    Dummy's HT before E leads is no lead and waits for no option: it goes back to the hand
    at once (rubber has no clarification period: play began when the auction closed, 22(b));
    E's DA is then the opening lead."""
    state = played("S HT", on("rubber"))
    board = view(state)
    assert board["opening_lead"] is None and board["play"]["lead_out_of_turn"] is None
    assert board["alerts"] == [] and board["exposed_cards"] == []
    assert board["rectifications"][-1]["law"] == "48A"
    state = played("E DA", state)
    assert view(state)["opening_lead"] == {"seat": "E", "card": "DA"}
    assert cards_of(state) == [["E DA"]]


# --- Law 55A: the defenders answer one after the other ---------------------------------------

# N wins trick 2 and leads C5 from dummy (S): declarer's lead from the wrong hand (Law 55A).
# W is next in turn to it (S's LHO), E is the other defender.
_LEAD_FROM_DUMMY = "E DA, S D6, W D3, N D2, E HQ, S HT, W H4, N HK, S C5"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_55a_the_option_of_the_player_next_in_turn_prevails_over_an_earlier_answer(
        ruleset: str) -> None:
    """Law 55A: "either defender may accept the lead … or require its retraction. If the
    defenders choose differently the option expressed by the player next in turn [to the
    irregular lead] shall prevail." E accepts first, then W (next in turn) does not: the lead
    is withdrawn and N leads from his own hand. The other way round, W's acceptance stands."""
    state = played(_LEAD_FROM_DUMMY, on(ruleset))
    refused = played("E accept, W decline", state)
    assert view(refused)["play"]["lead_out_of_turn"] is None
    assert view(refused)["play"]["turn"] == "N" and cards_of(refused)[-1][-1] == "N HK"
    assert "prevails" in view(refused)["rectifications"][-2]["message"]
    accepted = played("E decline, W accept", state)
    assert cards_of(accepted)[-1] == ["S C5"] and view(accepted)["play"]["turn"] == "W"
    assert view(accepted)["rectifications"][-1]["law"] == "53A"


def test_law_55a_the_other_defenders_answer_waits_for_the_player_next_in_turn() -> None:
    """Law 55A: E's answer alone does not settle the lead, since W, next in turn, may still
    choose otherwise: the lead waits, E's answer shown held. W's play to the lead accepts it
    (Law 53A: "a play is made from the hand next in rotation") over E's refusal."""
    state = played(f"{_LEAD_FROM_DUMMY}, E decline")
    lead = view(state)["play"]["lead_out_of_turn"]
    assert lead["held"] == {"seat": "E", "accept": False} and lead["option_holders"] == ["E", "W"]
    assert cards_of(state)[-1] == ["E HQ", "S HT", "W H4", "N HK"]
    state = played("W C6", state)
    assert cards_of(state)[-1] == ["S C5", "W C6"] and view(state)["play"]["turn"] == "N"


def test_law_55a_the_held_answer_applies_when_another_card_comes_first() -> None:
    """Law 55A: with W (next in turn) silent, E's option applies. E accepts (held), then
    declarer plays from his own hand: the lead stands as E chose (N's card is then judged
    against it, a card before W's turn: Law 57's). E refuses (held), then declarer leads from
    his own hand: the lead is withdrawn and N's lead stands in its place."""
    state = played(f"{_LEAD_FROM_DUMMY}, E accept")
    assert view(state)["play"]["lead_out_of_turn"]["held"] == {"seat": "E", "accept": True}
    accepted = played("N C3", state)
    assert view(accepted)["play"]["lead_out_of_turn"] is None
    assert cards_of(accepted)[-1][0] == "S C5"
    refused = played(f"{_LEAD_FROM_DUMMY}, E decline, N C3")
    assert view(refused)["play"]["lead_out_of_turn"] is None
    assert cards_of(refused)[-1] == ["N C3"] and view(refused)["play"]["turn"] == "E"
