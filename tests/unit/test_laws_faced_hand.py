"""A hand faced in the play (`hand_faced`): declarer spreading his hand after a faced opening
lead out of turn (Law 54A), and a hand shown as a claim (Laws 48B2, 68A; Law 49: no penalty
card). The board of `tests.helpers.DEAL`: N declares 4S, E is to lead, S is dummy.

N  S 4        H KJ32  D 842   C AQ743
E  S JT987    H Q876  D AK5   C 2
S  S AK532    H T     D JT6   C T985
W  S Q6       H A954  D Q973  C KJ6
"""

from __future__ import annotations

import pytest

from shared import fold
from shared.table.engine import TableState
from tests.unit.test_laws_play import kinds, played, view
from tests.unit.test_play import events

pytestmark = pytest.mark.unit


def faced(seat: str, state: TableState) -> TableState:
    return fold(events({"type": "hand_faced", "seat": seat}), state)


def test_law_54a_declarer_spreads_his_hand_and_becomes_dummy() -> None:
    """Law 54A: W faces the opening lead out of turn; N (declarer) spreads his hand: he is
    dummy, S declarer; the lead is accepted (53A) and in turn from S's LHO, so N's card (the
    new dummy's, played by S) follows it. The contract is the same, its declarer S."""
    state = faced("N", played("W HA"))
    board = view(state)
    assert board["contract"] == {"level": 4, "strain": "S", "risk": "", "declarer": "S"}
    assert (board["play"]["declarer"], board["play"]["dummy"]) == ("S", "N")
    assert board["play"]["lead_out_of_turn"] is None and board["play"]["faced"] == ["N"]
    assert [r["law"] for r in board["rectifications"]] == ["54A", "53A"]
    assert board["play"]["turn"] == "N"  # dummy's card, declarer S plays it (Law 45)
    assert kinds(state) == ["opening_lead_out_of_turn"]


def test_law_54a_the_new_declarer_claims_and_scores_dummy_does_not() -> None:
    """Law 54A with Laws 43A and 69A: once N has spread his hand he is dummy and may not
    claim; S, now declarer, claims, both defenders agree, and the score is the contract's
    from North–South's side (4S making: +420, not vulnerable)."""
    state = faced("N", played("W HA"))
    state = played("N H2, E H6, S HT, N claims 9", state)
    assert view(state)["ignored"][-1]["reason"] == "dummy may not claim (Law 43A)"
    state = played("W D3, N D2, E DA, S D6, S claims 9, E agrees, W agrees", state)
    assert view(state)["result"] == {"declarer_tricks": 9, "score_ns": -50}
    assert view(state)["rectifications"][-1]["message"].startswith("the claim is agreed")


def test_law_54a_only_while_the_opening_lead_out_of_turn_awaits_the_option() -> None:
    """Law 48B1–2: declarer facing his hand after an opening lead out of turn is Law 54's;
    once he has accepted the lead (53A), his hand faced is a claim (Law 68A), N stays
    declarer and nobody's roles change."""
    state = faced("N", played("W HA, N accept"))
    board = view(state)
    assert (board["play"]["declarer"], board["contract"]["declarer"]) == ("N", "N")
    assert board["play"]["claim"]["tricks"] == 13 and board["rectifications"][-1]["law"] == "48B2"


def test_law_54a_not_after_a_later_lead_out_of_turn() -> None:
    """Law 54A is for the opening lead out of turn; at a later lead out of turn (Law 56)
    declarer's hand faced is a claim (Law 48B2)."""
    state = played("E DA, S D6, W D3, N D2, W HA")
    assert view(state)["play"]["lead_out_of_turn"]["law"] == "56"
    board = view(faced("N", state))
    assert board["play"]["declarer"] == "N" and board["play"]["claim"]["seat"] == "N"
    assert board["play"]["lead_out_of_turn"] is None


def test_law_68a_declarer_facing_his_hand_claims_the_rest_unless_his_claim_says() -> None:
    """Laws 48B2 and 68A: declarer's hand faced in the play is a claim, of all the remaining
    tricks until his own `claim` states the number; the defenders answer it (69A)."""
    state = faced("N", played("E DA, S D6, W D3, N D2"))
    claim = view(state)["play"]["claim"]
    assert (claim["seat"], claim["tricks"], claim["remaining"]) == ("N", 12, 12)
    assert view(state)["play"]["faced"] == ["N"]
    stated = played("N claims 10, E agrees, W agrees", state)
    assert view(stated)["result"] == {"declarer_tricks": 10, "score_ns": 420}
    whole = played("E agrees, W agrees", state)
    assert view(whole)["result"] == {"declarer_tricks": 12, "score_ns": 480}


def test_law_68a_49_a_defenders_hand_faced_is_a_claim_not_penalty_cards() -> None:
    """Law 68A: a defender who shows his cards claims; Law 49: cards shown in applying Law 68
    are not penalty cards. E faces his hand and concedes the rest with a claim of none; N
    acquiesces (69A). Law 68B2: his partner's objection to a concession voids it."""
    state = faced("E", played("E DA, S D6, W D3, N D2"))
    assert view(state)["penalty_cards"] == [] and view(state)["play"]["faced"] == ["E"]
    assert view(state)["rectifications"][-1]["law"] == "68A"
    conceded = played("E claims 0, N agrees", state)
    assert view(conceded)["result"]["declarer_tricks"] == 12
    objected = played("E claims 0, W objects", state)
    assert view(objected)["alerts"][-1]["law"] == "68B2" and view(objected)["result"] is None


def test_law_68d_a_hand_faced_for_a_claim_already_open_shows_it() -> None:
    """Law 68D: with a claim open play has ceased; a hand faced then is shown for it, and the
    claim stays as made (another seat's `claim` is still refused)."""
    state = faced("N", played("E DA, S D6, W D3, N D2, N claims 10"))
    assert view(state)["play"]["claim"]["tricks"] == 10 and view(state)["play"]["faced"] == ["N"]
    assert view(state)["rectifications"][-1]["law"] == "68D"
    state = played("E claims 3", state)
    assert view(state)["ignored"][-1]["reason"] == "a claim is already open"


@pytest.mark.parametrize(("script", "seat", "reason"), [
    ("", "N", "a hand is faced in the play only (in the auction: card_exposed, Law 24)"),
    ("E DA", "S", "S's hand is faced already"),  # dummy's, Law 41D
    ("E DA, E claims 0, N agrees", "W", "the play is over"),
])
def test_law_41d_68_a_hand_faced_that_changes_nothing(script: str, seat: str, reason: str
                                                       ) -> None:
    """Before the play (Law 24's cards are `card_exposed`), dummy's hand (faced, Law 41D), a
    hand faced after the play's end: noted as ignored."""
    state = faced(seat, played(script))
    assert view(state)["ignored"][-1]["reason"] == reason
