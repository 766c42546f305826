"""Claims and concessions with revokes, read from the 2017 Laws (the review of the Laws of play):
the tricks of an agreed claim count as won in play (Laws 64A, 69A), a revoke is established
by agreeing to an opponent's claim (63A4; rubber 63A3), and a defender's concession his
partner objects to is neither a concession nor a claim: play continues (68B2). The board of
`tests.helpers.DEAL`, N declaring 4S (E leads, S is dummy), as in `test_laws_play`:

N  S 4        H KJ32  D 842   C AQ743
E  S JT987    H Q876  D AK5   C 2
S  S AK532    H T     D JT6   C T985
W  S Q6       H A954  D Q973  C KJ6
"""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold, from_map
from shared.table.engine import TableState
from tests.helpers import DEAL
from tests.script import log

pytestmark = pytest.mark.unit

AUCTION = "N 1S, E P, S 2S, W P, N 4S, E P, S P, W P"
RULESETS = pytest.mark.parametrize("ruleset", ["duplicate", "rubber"])
# W revokes on trick 2 (H4 on E's C2, holding CKJ6); declarer (N) wins it with CA and is on lead
TRICK_1 = "E plays DA, S plays D6, W plays D3, N plays D2"  # E wins it, and leads
W_REVOKES = f"{TRICK_1}, E plays C2, S plays C5, W plays H4, N plays CA"
# then W plays to trick 3, which establishes his revoke (Law 63A1); dummy wins it
TRICK_3 = "N plays S4, E plays S7, S plays SA, W plays S6"
N_REVOKES = "E plays DA, S plays D6, W plays D3, N plays H2"  # holding diamonds; E wins


def board(script: str, ruleset: str = "duplicate",
          extra: list[dict[str, Any]] | None = None) -> TableState:
    maps = log(f"{AUCTION}, {script}", ruleset=ruleset)
    maps[0]["deal"] = DEAL
    return fold(from_map(m) for m in maps + (extra or []))


def view(state: TableState) -> dict[str, Any]:
    assert state.board is not None
    return dict(state.board.to_dict())


def laws(state: TableState) -> list[str]:
    return [r["law"] for r in view(state)["rectifications"]]


def alerts(state: TableState) -> list[tuple[str, str]]:
    return [(a["kind"], a["law"]) for a in view(state)["alerts"]]


# --- Law 64A with Law 69A: the tricks of an agreed claim count as won in play ---------------


@RULESETS
def test_law_69a_64a2_a_trick_conceded_to_the_revoking_side_is_transferred(ruleset: str) -> None:
    """Law 69A: the board is scored "as though the tricks claimed or conceded had been won or
    lost in play". W revoked on trick 2 and played to trick 3 (established, Law 63A1); his
    side won no trick after it in play, but declarer's claim of 9 of the last 10 concedes one
    to E-W, so the offending side won a later trick: one trick is transferred (Law 64A2).
    Declarer: 2 won + 9 claimed + 1 = 12 (+480), not 11."""
    state = board(f"{W_REVOKES}, {TRICK_3}, S claims 9 rest", ruleset)
    assert view(state)["play"]["claim"] is None  # dummy may not claim (Law 43A)
    state = board(f"{W_REVOKES}, {TRICK_3}, N claims 9 rest, E agrees, W agrees", ruleset)
    assert view(state)["play"]["won"] == {"NS": 2, "EW": 1}
    assert view(state)["result"]["declarer_tricks"] == 12
    assert laws(state)[-1] == "64A2"
    if ruleset == "duplicate":
        assert view(state)["result"]["score_ns"] == 480


@RULESETS
def test_law_69a_64a2_a_defenders_concession_to_a_revoking_declarer(ruleset: str) -> None:
    """Law 69A with Law 64A2: declarer (N) revoked on trick 1 (H2 on the DA, holding
    diamonds); E claims 3 of the 12 left, conceding 9 to declarer, who agrees. The 9 conceded
    tricks count as won by the offending side after the revoke: one trick goes to E-W.
    Declarer: 9 - 1 = 8, two down, not one."""
    state = board(f"{N_REVOKES}, E claims 3, N agrees", ruleset)
    assert view(state)["result"]["declarer_tricks"] == 8
    assert laws(state)[-1] == "64A2"
    if ruleset == "duplicate":
        assert view(state)["result"]["score_ns"] == -100


# --- Law 63A4 (rubber 63A3): a revoke established by agreeing to an opponent's claim -------


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "63A4"), ("rubber", "63A3")])
def test_law_63a4_agreeing_to_a_claim_establishes_the_revoke(ruleset: str, law: str) -> None:
    """Law 63A4 (2017): "a revoke becomes established … when agreement is established (as per
    Law 69A) to an opponent's claim or concession" (rubber 63A3: a member of the offending side
    "makes or agrees to a claim or concession"). W's revoke on trick 2 is not established when
    declarer claims 10 of the 11 left (no E-W card since, and declarer's claim is not the
    offending side's, 63A3); the defenders' agreement establishes it, the state shows it, and
    the conceded trick is one E-W won after it: one trick transferred (64A2), 12 tricks. The
    offending side's own claim establishes its revoke at the claim (63A3), not at agreement."""
    claimed = board(f"{W_REVOKES}, N claims 10 rest, E agrees", ruleset)
    assert view(claimed)["play"]["revokes"][0]["established"] is False
    state = board(f"{W_REVOKES}, N claims 10 rest, E agrees, W agrees", ruleset)
    assert view(state)["play"]["revokes"] == [{"seat": "W", "trick": 2, "card": "H4",
                                               "established": True, "corrected": False}]
    established = [(r["seat"], r["message"]) for r in view(state)["rectifications"]
                   if r["law"] == law]
    assert established == [("W", "the revoke on trick 2 is established.")]
    assert view(state)["result"]["declarer_tricks"] == 1 + 10 + 1
    assert laws(state)[-1] == "64A2"
    # N revoked on trick 1 and claims 9 of the 12 left: 9 - 1 (64A2: E-W won the revoke trick)
    state = board(f"{N_REVOKES}, N claims 9", ruleset)
    assert view(state)["play"]["revokes"][0]["established"] is True
    state = board(f"{N_REVOKES}, N claims 9, E agrees, W agrees", ruleset)
    assert [r["law"] for r in view(state)["rectifications"] if r["law"][:2] == "63"] == ["63A3"]
    assert view(state)["result"]["declarer_tricks"] == 8


# --- Law 68B2: a defender's concession his partner objects to -------------------------------


@RULESETS
def test_law_68b2_play_continues_after_the_partners_objection(ruleset: str) -> None:
    """Law 68B2: "if a defender attempts to concede one or more tricks and his partner
    immediately objects; neither a concession nor a claim has occurred. Unauthorized
    information may exist, so the Director should be summoned immediately. Play continues."
    E (on lead after winning trick 1) concedes 11 of the 12 left; W objects: no claim stands,
    the Director is alerted (Law 16C named), and E's next card is played, not ignored."""
    state = board(f"{TRICK_1}, E claims 1 my DK, W objects", ruleset)
    play = view(state)["play"]
    assert play["claim"] is None and play["turn"] == "E" and view(state)["result"] is None
    assert alerts(state) == [("concession_objected", "68B2")]
    alert = view(state)["alerts"][0]
    assert "play continues" in alert["message"] and "16C" in alert["options"][0]
    state = board(f"{TRICK_1}, E claims 1 my DK, W objects, E plays DK, S plays DT",
                  ruleset)
    assert view(state)["play"]["tricks"][1]["cards"] == [{"seat": "E", "card": "DK"},
                                                        {"seat": "S", "card": "DT"}]
    assert view(state)["ignored"] == []
    # a later claim is a claim as any
    state = board(f"{TRICK_1}, E claims 1, W objects, E claims 2, N agrees", ruleset)
    assert view(state)["result"]["declarer_tricks"] == 10


def test_law_68b2_the_revoke_the_concession_established_may_still_be_corrected() -> None:
    """Law 68B2: neither a concession nor a claim has occurred, so W's revoke on trick 1 that
    E's concession established (Law 63A3: a member of the offending side concedes) is not
    established: W may still correct it while no card of trick 2 is played (Law 62A), his H4
    a penalty card (62B1)."""
    w_revokes = "E plays DA, S plays D6, W plays H4, N plays D2"  # E wins, and leads
    conceded = board(f"{w_revokes}, E claims 1")
    assert view(conceded)["play"]["revokes"][0]["established"] is True
    state = board(f"{w_revokes}, E claims 1, W objects, W plays D3")
    assert view(state)["play"]["revokes"] == [{"seat": "W", "trick": 1, "card": "H4",
                                               "established": False, "corrected": True}]
    revoke_laws = [r["law"] for r in view(state)["rectifications"] if r["seat"] == "W"]
    assert revoke_laws == ["63A3", "63A3", "62B1"]  # established, then not (68B2), corrected
    assert "is not established" in view(state)["rectifications"][-3]["message"]
    assert view(state)["penalty_cards"] == [{"seat": "W", "card": "H4", "led": False}]


def test_law_68b2_a_lead_out_of_turn_awaits_its_option_again() -> None:
    """Law 68B2: the play is as the concession found it: W's lead out of turn (Law 56, at E's
    lead) still awaits declarer's option once W objects to E's concession."""
    state = board(f"{TRICK_1}, W plays H4, E claims 1, W objects")
    assert view(state)["play"]["lead_out_of_turn"] == {"seat": "W", "card": "H4", "law": "56",
                                                      "option_holders": ["N"]}
    state = board(f"{TRICK_1}, W plays H4, E claims 1, W objects, N accept")
    assert view(state)["play"]["tricks"][1]["cards"] == [{"seat": "W", "card": "H4"}]


def test_law_68b2_a_faced_hand_goes_back_no_penalty_cards() -> None:
    """Law 68B2: "any card that has been exposed by a defender in these circumstances is not a
    penalty card but Law 16C applies": E faced his hand and conceded all (a claim of none,
    68A–B); W objects: the hand goes back (no longer seen by all), no penalty card, play
    continues, and a revoke the faced hand established (63A3) is not established."""
    faced = [{"type": "hand_faced", "seat": "E"}]
    state = board(TRICK_1, extra=faced)
    assert view(state)["play"]["faced"] == ["E"]
    state = board(TRICK_1, extra=[
        *faced, *log("E claims 0, W objects, E plays DK")[1:]])
    assert view(state)["play"]["faced"] == [] and view(state)["penalty_cards"] == []
    assert view(state)["play"]["tricks"][1]["cards"] == [{"seat": "E", "card": "DK"}]
    assert "go back to his hand" in view(state)["alerts"][-1]["options"][0]
    # W had revoked on trick 1: E's hand faced established it (63A3), the objection undoes it
    w_revoked = "E plays DA, S plays D6, W plays H4, N plays D2"
    state = board(w_revoked, extra=[*faced, *log("E claims 0")[1:]])
    assert view(state)["play"]["revokes"][0]["established"] is True
    state = board(w_revoked, extra=[*faced, *log("E claims 0, W objects")[1:]])
    assert view(state)["play"]["revokes"][0]["established"] is False


def test_law_68d_the_partner_doubting_a_claim_of_all_the_tricks_is_no_68b2() -> None:
    """Law 68B2 is for a concession: E claims all 12 remaining tricks (concedes none); W's
    objection doubts the claim (Law 68D): play stays suspended for the Director (Law 70)."""
    state = board(f"{TRICK_1}, E claims 12, W objects, E plays DK")
    assert alerts(state) == [("claim_disputed", "68D")]
    assert view(state)["play"]["claim"]["disputed"] is True
    assert view(state)["ignored"][-1]["reason"] == "play ceases once a claim is made (Law 68D)"
