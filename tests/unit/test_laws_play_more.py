"""More Laws of play as the fold applies them: cards exposed after the auction (Laws 48–49),
simultaneous, impossible and subsequent plays (Laws 58–60), defective tricks (Law 67) and an
acquiescence in a claim withdrawn (Law 69B). The board of `tests.helpers.DEAL` (N declares 4S,
E leads, S is dummy), as in `test_laws_play`."""

from __future__ import annotations

import pytest

from shared import fold
from shared.table.engine import TableState
from tests.unit.test_laws_play import cards_of, kinds, played, view
from tests.unit.test_play import events

pytestmark = pytest.mark.unit


def exposed(seat: str, card: str, state: TableState) -> TableState:
    return fold(events({"type": "card_exposed", "seat": seat, "card": card}), state)


def test_law_48a_declarers_exposed_card_is_no_penalty_card() -> None:
    """Law 48A: declarer exposing a card from his hand or dummy's is not rectified, and the
    card is no penalty card; it is played when he chooses."""
    state = exposed("N", "HK", played("E DA"))
    assert view(state)["penalty_cards"] == [] and kinds(state) == []
    assert view(state)["rectifications"][-1]["law"] == "48A"
    state = exposed("S", "SA", state)
    assert view(state)["penalty_cards"] == [] and kinds(state) == []
    state = played("S D6, W D3, N D2", state)  # N plays on; HK stays in his hand
    assert view(state)["play"]["turn"] == "E" and kinds(state) == []


def test_law_48a_before_the_opening_lead_declarer_exposes_without_penalty() -> None:
    """Law 48A: between the auction's close and the opening lead too; Law 49: a defender's
    card exposed then is a penalty card once the play begins."""
    state = exposed("W", "C6", exposed("N", "HK", played("")))
    state = played("E DA", state)
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "C6", "led": False,
                                             "minor": True}]  # dropped, below honour: 50B


def test_law_49_a_defenders_card_exposed_in_the_play_is_a_penalty_card() -> None:
    """Law 49: a defender's card exposed other than in the normal course of play is a penalty
    card (Law 50), which he must play at the first legal opportunity (Law 50D1)."""
    state = exposed("W", "HA", played("E DA, S D6"))
    assert kinds(state) == ["exposed_card"] and view(state)["alerts"][0]["law"] == "49"
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    state = played("W D3, N D2, E H6, S HT", state)  # W must follow diamonds first
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert kinds(played("W H4", state))[-1] == "penalty_card_not_played"
    assert view(played("W HA", state))["penalty_cards"] == []


def alerts(state: TableState) -> list[tuple[str, str]]:
    return [(a["kind"], a["law"]) for a in view(state)["alerts"]]


def trick_cards(state: TableState) -> list[str]:
    """The last trick of the play's `tricks` (the trick in progress, if any)."""
    return cards_of(state)[-1]


def test_law_58a_simultaneous_plays_by_two_players_are_read_in_the_logs_order() -> None:
    """Law 58A: a play simultaneous with another's legal play is deemed subsequent to it; the
    log orders them, so dummy's card logged before W's leaves W's in turn, and W's logged
    first is a premature play (Law 57D here: at his RHO's turn, his partner having led) until
    the Director rules otherwise."""
    assert alerts(played("E DA, S D6, W D3")) == []
    assert alerts(played("E DA, W D3, S D6")) == [("play_out_of_turn", "57D")]


def test_law_58b_a_defenders_second_card_to_a_trick_is_a_penalty_card() -> None:
    """Law 58B2: W plays D7 to the trick he has played D3 to: two cards from one hand; D3
    stands as played, D7 is a penalty card (Law 50); N is still to play."""
    state = played("E DA, S D6, W D3, W D7")
    assert alerts(state) == [("simultaneous_play", "58B")]
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "D7", "led": False,
                                             "minor": True}]  # two cards to a trick: 50B
    assert trick_cards(state) == ["E DA", "S D6", "W D3"]
    assert view(state)["play"]["turn"] == "N"


def test_law_58b_48a_declarers_second_card_from_dummy_goes_back() -> None:
    """Laws 58B, 48A: declarer plays DT from dummy after D6 to the same trick: D6 stands, DT
    goes back to dummy without penalty; W is to play, and DT can be played later."""
    state = played("E DA, S D6, S DT")
    assert alerts(state) == [("simultaneous_play", "58B")]
    assert view(state)["penalty_cards"] == [] and view(state)["play"]["turn"] == "W"
    state = played("W D3, N D2, E DK, S DT", state)
    assert trick_cards(state) == ["E DK", "S DT"]


# (N wins trick 2 with CA: N is on lead at trick 3)
_TO_TRICK_3 = "E DA, S D6, W D3, N D2, E C2, S C5, W CK, N CA"


def test_law_59_a_penalty_card_that_cannot_be_played_legally_waits() -> None:
    """Law 59: a player unable to play as a rectification requires — W's penalty card HA,
    while W must follow diamonds — plays any legal card; no irregularity. Law 50D1: at his
    next legal opportunity (a heart led), another heart is one (Law 52). (HA, played at his
    RHO's turn and unable to follow diamonds, is a major penalty card: Law 57D.)"""
    state = played("E DA, W HA, S D6, W D3, N D2")
    assert alerts(state) == [("play_out_of_turn", "57D")]
    state = played("E H6, S HT, W H4", state)
    assert alerts(state)[-1] == ("penalty_card_not_played", "52")


def test_law_60a_a_play_by_the_offenders_lho_forfeits_rectification() -> None:
    """Law 60A1–2: W leads out of turn; declarer (N, his LHO) plays to it before any
    rectification: the right to it is forfeited and the lead is treated as in turn (Law 53A's
    acceptance); W's card is no penalty card."""
    state = played("W HA, N H2")
    assert view(state)["penalty_cards"] == [] and trick_cards(state) == ["W HA", "N H2"]
    assert view(state)["rectifications"][-1]["law"] == "53A"
    assert view(state)["play"]["turn"] == "E"


def test_law_60b_a_defenders_card_before_declarers_required_lead_is_a_penalty_card() -> None:
    """Law 60B: declarer leads from dummy when his own hand is on lead (Law 55A); W, next in
    turn to it, declines, the lead is withdrawn; W plays H4 before N leads: a major penalty
    card, no option. (E's refusal alone would wait for W's option, which prevails: Law 55A;
    W's card would then accept the lead, 53A.)"""
    state = played(f"{_TO_TRICK_3}, S S2, W decline")
    assert view(state)["play"]["turn"] == "N"
    state = played("W H4", state)
    assert alerts(state)[-1] == ("play_out_of_turn", "60B")
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "H4", "led": False}]
    assert view(state)["play"]["lead_out_of_turn"] is None
    state = played("N C3, W C6", state)  # declarer has led: a later card is judged as usual
    assert alerts(state)[-1] == ("play_out_of_turn", "57A")


def test_law_67a_a_lead_to_the_next_trick_before_a_hand_has_played_is_a_defective_trick() -> None:
    """Law 67A: E (winning the trick with DA) leads DK while declarer (N) has not played to
    the trick: the Director is alerted, N is to supply a card he can legally play (67A1); the
    trick stays open and DK goes back until it is complete."""
    state = played("E DA, S D6, W D3, E DK")
    assert alerts(state) == [("defective_trick", "67A")]
    alert = view(state)["alerts"][0]
    assert alert["seat"] == "N" and "67A1" in alert["options"][0]
    assert trick_cards(state) == ["E DA", "S D6", "W D3"] and view(state)["play"]["turn"] == "N"
    state = played("N D2, E DK", state)
    assert trick_cards(state) == ["E DK"] and view(state)["penalty_cards"] == []


def test_law_67a_57a_a_defenders_early_lead_before_partner_has_played_is_premature() -> None:
    """Law 57A (not 67): N leads C3, E ruffs with SJ (winning) and leads HQ while W, his
    partner, has not played: a defender's lead to the next trick before partner has played,
    a penalty card; W is still to play to the trick."""
    state = played(f"{_TO_TRICK_3}, N C3, E SJ, S C8, E HQ")
    assert alerts(state)[-1] == ("play_out_of_turn", "57A")
    assert view(state)["penalty_cards"] == [{"seat": "E", "card": "HQ", "led": False}]
    assert view(state)["play"]["turn"] == "W"


def test_law_67a_declarers_side_leading_before_a_defender_has_played() -> None:
    """Law 67A: N leads C3, E discards H6, dummy's C8 wins; declarer leads SA from dummy
    while W has not played: a defective trick, W to supply a card; SA goes back to dummy, no
    penalty card (Law 48A)."""
    state = played(f"{_TO_TRICK_3}, N C3, E H6, S C8, S SA")
    assert alerts(state)[-1] == ("defective_trick", "67A")
    assert view(state)["alerts"][-1]["seat"] == "W"
    assert view(state)["penalty_cards"] == [] and view(state)["play"]["turn"] == "W"
    assert trick_cards(played("W CJ", state)) == ["N C3", "E H6", "S C8", "W CJ"]


# --- claims: an agreement withdrawn (Laws 68D, 69B, 71) -------------------------------------

_CLAIM = "E DA, S D6, W D3, N D2, N claims 10"


def test_law_68d_an_acquiescence_withdrawn_before_the_claim_is_agreed_disputes_it() -> None:
    """Law 68D: E acquiesces, then says no before W has answered: the claim is doubted, play
    stays suspended and the Director rules (Law 70)."""
    state = played(f"{_CLAIM}, E agrees, E objects")
    assert alerts(state) == [("claim_disputed", "68D")]
    assert "withdraws his acquiescence" in view(state)["alerts"][0]["message"]
    assert view(state)["play"]["claim"]["disputed"] is True and view(state)["result"] is None


def test_law_68d_the_claimer_withdrawing_his_own_claim_summons_the_director() -> None:
    """Law 68D: a claim doubted by any player, the claimer included, suspends play and the
    Director is summoned; the claimer's own "yes" answers nothing (Law 69A)."""
    assert view(played(f"{_CLAIM}, N agrees"))["ignored"][-1]["reason"].startswith("N does not")
    state = played(f"{_CLAIM}, N objects")
    assert alerts(state) == [("claim_disputed", "68D")]
    assert view(state)["play"]["claim"]["disputed"] is True


def test_law_69b_an_acquiescence_withdrawn_after_agreement_alerts_the_director() -> None:
    """Law 69B: after the claim is agreed (both defenders), E withdraws his agreement: the
    Director is alerted to award a trick E-W had won or would likely have won; the agreed
    result stands until his `tricks` ruling."""
    state = played(f"{_CLAIM}, E agrees, W agrees, E objects")
    assert alerts(state) == [("agreement_withdrawn", "69B")]
    assert view(state)["result"]["declarer_tricks"] == 10
    ruled = fold(events({"type": "ruling", "action": "tricks", "tricks": 9}), state)
    assert view(ruled)["result"]["declarer_tricks"] == 9


def test_law_71_the_claimer_withdrawing_his_concession_after_agreement() -> None:
    """Law 71: declarer's claim of 10 concedes the other 2 (Law 68B1); withdrawn after
    agreement, the Director cancels the concession of a trick that could not be lost by any
    normal play. A player who never agreed has nothing to withdraw; dummy does not answer."""
    agreed = played(f"{_CLAIM}, E agrees, W agrees")
    assert alerts(played("N objects", agreed)) == [("agreement_withdrawn", "71")]
    assert alerts(played("S objects", agreed)) == []
    unagreed = played("E DA, S D6, W D3, N D2, E claims 1, N agrees, W objects")
    assert view(unagreed)["result"]["declarer_tricks"] == 11  # W's answer came after agreement
    assert alerts(unagreed) == [] and view(unagreed)["ignored"][-1]["reason"].startswith("W")
