"""Premature plays as the 2017 Laws read them (the review of the Laws of play): declarer's
premature card stands (Law 57C3; dummy's to an accepted opening lead out of turn, Law 54B2), a
defender's legal card at his RHO's turn is played at his proper turn (Law 57D; 57C1 once
declarer has played from both hands), and a defender's second card after another player's,
his partner not having played, is premature (Law 57A), not simultaneous (58B). The rubber
ruleset reads these Laws the same (its Laws 54 and 57 carry the same numbers;
`shared.laws.citations`), so each scenario runs under both. The board of
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
from shared.table.board import Board
from shared.table.play_checks import card_refusal
from tests.helpers import DEAL
from tests.script import log as scripted
from tests.unit.test_play import events

pytestmark = pytest.mark.unit

RULESETS = ("duplicate", "rubber")
_AUCTION = "N 1S, E P, S 2S, W P, N 4S, E P, S P, W P"
# E wins trick 1 (DA), N trick 2 (CA): N on lead at trick 3
_TO_TRICK_3 = "E DA, S D6, W D3, N D2, E C2, S C5, W CK, N CA"
# E wins trick 1, W trick 2 (HA): W on lead at trick 3
_W_ON_LEAD = "E DA, S D6, W D3, N D2, E H6, S HT, W HA, N H2"
# E wins trick 1, N trick 2, dummy trick 3 (SA): S on lead at trick 4
_S_ON_LEAD = "E DA, S D6, W D3, N D2, E C2, S C5, W C6, N CA, N S4, E S7, S SA, W S6"


def board_of(cards: str, ruleset: str, extra: list[dict[str, Any]] | None = None) -> Board:
    """The board after the auction and `cards` ("E DA, N accept, …": a card from that hand,
    or an option on a lead out of turn)."""
    steps = [s.strip() for s in cards.split(",") if s.strip()]
    script = ", ".join([_AUCTION, *(s if s.split()[1] in ("accept", "decline")
                                    else "{} plays {}".format(*s.split()) for s in steps)])
    maps = scripted(script, ruleset=ruleset)
    maps[0]["deal"] = DEAL
    state = fold(events(*maps, *(extra or [])))
    assert state.board is not None
    return state.board


def view(cards: str, ruleset: str) -> dict[str, Any]:
    return dict(board_of(cards, ruleset).to_dict())


def tricks(state: dict[str, Any]) -> list[list[str]]:
    return [[f"{c['seat']} {c['card']}" for c in t["cards"]] for t in state["play"]["tricks"]]


def alerts(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(a["kind"], a["law"]) for a in state["alerts"]]


def laws(state: dict[str, Any]) -> list[str]:
    return [r["law"] for r in state["rectifications"]]


# --- Law 57C3: declarer's premature play stands ---------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_57c3_declarers_premature_card_from_his_hand_stands(ruleset: str) -> None:
    """Law 57C3: "A premature play (not a lead) by declarer from either hand is a played card
    and if legal may not be withdrawn." E leads DA, dummy plays D6 and N plays D2 before W:
    D2 stands and goes to the trick at N's turn; W plays, the trick is complete and E, who won
    it, leads next: no penalty card, no option (before: D2 withdrawn, the trick waiting for N,
    E's next lead a defective trick)."""
    state = view("E DA, S D6, N D2", ruleset)
    assert tricks(state) == [["E DA", "S D6"]] and state["play"]["turn"] == "W"
    assert state["play"]["waiting"] == [{"seat": "N", "card": "D2"}]
    assert laws(state) == ["57C3"] and alerts(state) == []
    state = view("E DA, S D6, N D2, W D3, E DK", ruleset)
    assert tricks(state) == [["E DA", "S D6", "W D3", "N D2"], ["E DK"]]
    assert state["play"]["waiting"] == [] and state["play"]["turn"] == "S"
    assert state["penalty_cards"] == [] and state["play"]["partner_option"] is None
    assert alerts(state) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_57c3_declarers_premature_card_from_dummy_stands_and_57c1_frees_the_defender(
        ruleset: str) -> None:
    """Law 57C3, from dummy: N leads C3 and calls C8 from dummy before E has played: C8 stands.
    Law 57C1: "A defender is not subject to rectification for playing before his partner if
    declarer has played from both hands": W's CJ before E is no penalty card and gives
    declarer no option; it goes to the trick at W's turn."""
    state = view(f"{_TO_TRICK_3}, N C3, S C8, W CJ", ruleset)
    assert laws(state) == ["57C3"] and alerts(state) == [("play_out_of_turn", "57C1")]
    assert state["penalty_cards"] == [] and state["play"]["partner_option"] is None
    assert state["play"]["turn"] == "E"
    state = view(f"{_TO_TRICK_3}, N C3, S C8, W CJ, E H6", ruleset)
    assert tricks(state)[-1] == ["N C3", "E H6", "S C8", "W CJ"]
    assert state["play"]["won"] == {"NS": 1, "EW": 2} and state["play"]["turn"] == "W"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_57c3_declarers_illegal_premature_card_is_a_revoke_he_may_correct(
        ruleset: str) -> None:
    """Law 57C3 says "a played card": N's H2 before dummy has played to E's DA, N holding
    diamonds, stands too (nothing withdraws it, and nothing tells the table what N holds);
    at N's turn it is a revoke (Law 61A), which N corrects with a diamond before it is
    established (Law 62A; 62B2: H2 goes back without rectification)."""
    state = view("E DA, N H2", ruleset)
    assert laws(state) == ["57C3"] and alerts(state) == []
    assert state["play"]["waiting"] == [{"seat": "N", "card": "H2"}]
    state = view("E DA, N H2, S D6, W D3", ruleset)
    assert tricks(state) == [["E DA", "S D6", "W D3", "N H2"]]
    assert alerts(state) == [("revoke", "61A")] and state["play"]["revokes"][0]["seat"] == "N"
    state = view("E DA, N H2, S D6, W D3, N D8", ruleset)
    assert tricks(state) == [["E DA", "S D6", "W D3", "N D8"]] and laws(state)[-1] == "62B2"


# --- Law 54B2: dummy's card to an accepted opening lead out of turn -----------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_54b2_dummys_card_to_an_accepted_lead_out_of_turn_is_not_withdrawn(
        ruleset: str) -> None:
    """Law 54B: "The second card to the trick is played from declarer's hand"; 54B2: "If
    declarer plays the second card to the trick from dummy, dummy's card may not be withdrawn
    except to correct a revoke." W leads HA out of turn, N accepts, dummy's HT is played
    first: it stands, fourth to the trick (before: withdrawn citing 57C1)."""
    state = view("W HA, N accept, S HT", ruleset)
    assert laws(state)[-1] == "54B2" and state["play"]["turn"] == "N"
    assert state["play"]["waiting"] == [{"seat": "S", "card": "HT"}]
    state = view("W HA, N accept, S HT, N H2, E H6", ruleset)
    assert tricks(state) == [["W HA", "N H2", "E H6", "S HT"]]
    assert state["play"]["turn"] == "W" and state["play"]["won"] == {"NS": 0, "EW": 1}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_54b2_dummys_revoke_is_corrected(ruleset: str) -> None:
    """Law 54B2's exception, "except to correct a revoke": dummy's C5 to W's HA, dummy
    holding HT, stands until it is found a revoke at dummy's turn; declarer corrects it with
    dummy's HT (Law 62B2: C5 goes back without rectification)."""
    state = view("W HA, N accept, S C5", ruleset)
    assert laws(state)[-1] == "54B2" and state["play"]["waiting"] == [{"seat": "S", "card": "C5"}]
    state = view("W HA, N accept, S C5, N H2, E H6", ruleset)
    assert tricks(state) == [["W HA", "N H2", "E H6", "S C5"]]
    assert alerts(state)[-1] == ("revoke", "61A")
    state = view("W HA, N accept, S C5, N H2, E H6, S HT", ruleset)
    assert tricks(state) == [["W HA", "N H2", "E H6", "S HT"]] and laws(state)[-1] == "62B2"


# --- Law 57A, not 58B: a defender's second card before his partner has played --------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("cards", "offender", "card"), [
    (f"{_S_ON_LEAD}, S SK, W SQ, N H2, W D7", "W", "D7"),  # S:SK W:SQ N:H2 W:D7 (SK wins)
    (f"{_W_ON_LEAD}, W H4, N H3, W D7", "W", "D7"),  # W:H4 N:H3 W:D7
    (f"{_TO_TRICK_3}, N C3, E H6, S C8, E HQ", "E", "HQ"),  # E's first card is not winning
])
def test_law_57a_a_defenders_card_after_another_players_before_partner_is_premature(
        ruleset: str, cards: str, offender: str, card: str) -> None:
    """Law 57A: "When a defender leads to the next trick before his partner has played to the
    current trick, or plays out of turn before his partner has played, the card so led or
    played becomes a major penalty card, and declarer selects one of the following options."
    The defender's second card comes after another player's card: the log's order rules out a
    simultaneous play (Law 58B, a minor penalty card without option, as before)."""
    state = view(cards, ruleset)
    assert alerts(state)[-1] == ("play_out_of_turn", "57A")
    assert state["penalty_cards"] == [{"seat": offender, "card": card, "led": False}]  # major
    partner = {"W": "E", "E": "W"}[offender]
    assert state["play"]["partner_option"] == {"seat": partner, "choice": None, "suit": None}
    assert state["play"]["turn"] == partner


# --- Law 57D: a defender's card at his RHO's turn -------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("cards", "early", "then", "trick"), [
    # W leads H4; E plays H7 at N's turn (W has played)
    (f"{_W_ON_LEAD}, W H4, E H7", "E H7", "N H3", ["W H4", "N H3", "E H7"]),
    # E leads DA; W plays D3 at dummy's turn
    ("E DA, W D3", "W D3", "S D6", ["E DA", "S D6", "W D3"]),
])
def test_law_57d_a_legal_card_at_rhos_turn_is_played_at_his_proper_turn(
        ruleset: str, cards: str, early: str, then: str, trick: list[str]) -> None:
    """Law 57D: "When a defender attempts to play (not lead) to a trick at his RHO's turn …
    If his card can be legally played to the trick, it must be played at his proper turn":
    no penalty card, no option (his partner has played); the trick goes on from the RHO
    (before: a major penalty card citing 57A, the trick waiting for him again)."""
    state = view(cards, ruleset)
    seat, card = early.split()
    assert alerts(state) == [("play_out_of_turn", "57D")]
    assert state["penalty_cards"] == [] and state["play"]["partner_option"] is None
    assert state["play"]["waiting"] == [{"seat": seat, "card": card}]
    state = view(f"{cards}, {then}", ruleset)
    assert tricks(state)[-1] == trick and state["play"]["waiting"] == []
    assert state["play"]["turn"] not in (seat, None)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_57d_a_card_that_cannot_be_played_legally_is_a_major_penalty_card(
        ruleset: str) -> None:
    """Law 57D: "otherwise, it becomes a major penalty card": W's HA at dummy's turn, W
    holding diamonds; his partner E has played, so no Law 57A option."""
    state = view("E DA, W HA", ruleset)
    assert alerts(state) == [("play_out_of_turn", "57D")]
    assert state["penalty_cards"] == [{"seat": "W", "card": "HA", "led": False}]
    assert state["play"]["partner_option"] is None and state["play"]["waiting"] == []


# --- a card waiting for its turn is played ---------------------------------------------------


def test_a_card_waiting_for_its_turn_is_refused_when_sent_again() -> None:
    """Law 57C3: N's D2 is a played card: sent again, it is bad input (the gateway's 400
    naming `card`), and in the fold it changes nothing."""
    board = board_of("E DA, S D6, N D2", "duplicate")
    refusal = card_refusal(board.to_dict(), "N", "N", "D2")
    assert refusal is not None and refusal.field == "card"
    assert "played already" in refusal.reason
    again = board_of("E DA, S D6, N D2, N D2", "duplicate").to_dict()
    assert again["ignored"][-1]["reason"] == "D2 has been played already"
    assert again["play"]["waiting"] == [{"seat": "N", "card": "D2"}]
