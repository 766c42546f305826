"""Laws 17D, 21, 23, 24, 26 and 34–39: exposed cards, lead penalties, inadmissible calls,
the end of the auction period, and the Director's rulings."""

import pytest

from shared.calls import PASS, Call
from tests.script import board_of, calls, kinds, laws, play

RULESETS = ["duplicate", "rubber"]


# --- Law 24 (rubber 23): cards exposed during the auction -----------------------------------


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "24A"), ("rubber", "23(a)")])
def test_law_24a_single_low_card_no_further_penalty(ruleset: str, law: str) -> None:
    """Law 24A (rubber 23(a)): a single low card, not led: it stays face up, no pass."""
    state = play("N 1H, W shows S5", ruleset=ruleset)
    assert state["alerts"][0]["kind"] == "exposed_card" and state["alerts"][0]["law"] == law
    assert state["exposed_cards"] == [{"seat": "W", "card": "S5", "led": False}]
    assert state["must_pass"] == {}


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "24B"), ("rubber", "23(b)")])
def test_law_24b_honour_partner_passes_next_turn(ruleset: str, law: str) -> None:
    """Law 24B (rubber 23(b)): a single honour: partner must pass at his next turn."""
    state = play("N 1H, W shows HK", ruleset=ruleset)
    assert state["alerts"][0]["law"] == law and state["must_pass"] == {"E": "next_turn"}
    assert play("N 1H, W shows HK, E P", ruleset=ruleset)["must_pass"] == {}


def test_law_24b_card_prematurely_led() -> None:
    """Law 24B: any card prematurely led: partner must pass at his next turn."""
    assert play("N 1H, W shows S2 led")["must_pass"] == {"E": "next_turn"}
    assert play("N 1H, W leads S2")["must_pass"] == {"E": "next_turn"}


def test_law_24c_two_cards_partner_passes_next_turn() -> None:
    """Law 24C: two or more cards exposed: partner must pass at his next turn."""
    state = play("N 1H, W shows S5, W shows S6")
    assert [a["law"] for a in state["alerts"]] == ["24A", "24C"]
    assert state["must_pass"] == {"E": "next_turn"}


def test_law_24_exposed_card_becomes_penalty_card_for_a_defender() -> None:
    """Law 24: if the offender becomes a defender, declarer may treat it as a penalty card."""
    state = play("N 1H, W shows S5, E P, S P, W P, N P, E P")
    assert state["status"] == "closed" and state["exposed_cards"] == []
    assert state["penalty_cards"] == [{"seat": "W", "card": "S5", "led": False}]


# --- Law 26: lead penalties -----------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "26A2"), ("rubber", "26(a)")])
def test_law_26a2_suit_not_specified_by_offender(ruleset: str, law: str) -> None:
    """Law 26A2 (rubber 26(a)): the withdrawn call named a suit the offender did not name in
    the legal auction: declarer may require or prohibit that suit's lead by his partner."""
    state = play("N 1H, W 1S, N decline, E P, S 2H, W P, N P, E P", ruleset=ruleset)
    assert state["contract"]["declarer"] == "N"
    [penalty] = state["lead_restrictions"]
    assert penalty["player"] == "E" and penalty["law"] == law and penalty["suit"] == "S"
    assert penalty["applies"] is True


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "26A1"), ("rubber", "26")])
def test_law_26a1_suit_specified_by_offender_no_penalty(ruleset: str, law: str) -> None:
    """Law 26A1 (rubber 26): the offender named the suit in the legal auction: no penalty."""
    state = play("N 1H, W 1S, N decline, E P, S P, W 1S, N 2H, E P, S P, W P", ruleset=ruleset)
    [penalty] = state["lead_restrictions"]
    assert penalty["law"] == law and penalty["applies"] is False


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "26B"), ("rubber", "26(b)")])
def test_law_26b_other_withdrawn_call_prohibit_any_suit(ruleset: str, law: str) -> None:
    """Law 26B (rubber 26(b)): a withdrawn pass, double, redouble or notrump: declarer may
    prohibit any one suit; only if the offender's partner becomes a defender."""
    state = play("N 1S, W X, N decline, E P, S 2S, W P, N P, E P", ruleset=ruleset)
    [penalty] = state["lead_restrictions"]
    assert penalty["law"] == law and penalty["applies"] is True
    state = play("N 1S, W X, N decline, E P, S P, W 2H, N P, E P, S P", ruleset=ruleset)
    assert state["lead_restrictions"][0]["applies"] is False  # E is dummy


# --- Law 34: retention of the right to call -------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_auction_reverts_to_the_player_who_missed_his_turn(ruleset: str) -> None:
    """Law 34 (2007 Law 17E2, 2017 Law 17D3): three passes after a call, one of them out of
    rotation and accepted: the auction reverts to the player who missed his turn."""
    state = play("N 1S, E P, W P, N P", ruleset=ruleset)
    assert state["status"] == "auction" and state["turn"] == "S"
    assert calls(state) == "N 1S, E P"
    assert kinds(state) == ["pass_out_of_rotation", "retention_of_right_to_call"]
    state = play("N 1S, E P, W P, N P, S 2S, W P, N P, E P", ruleset=ruleset)
    assert state["contract"] == {"level": 2, "strain": "S", "risk": "", "declarer": "N"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_a_pass_after_the_pass_out_of_turn_is_no_offence(ruleset: str) -> None:
    """Law 34, and the WBF commentary on 2007 Law 17E: the third pass was out of rotation
    (N's, at W's turn) and E accepts it by passing: E "does not become an offender". The
    auction reverts to W, who missed his turn; E's pass is cancelled with the others and
    raises no alert."""
    state = play("N 1S, E P, S P, N P, E P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S P" and state["turn"] == "W"
    assert kinds(state) == ["pass_out_of_rotation", "retention_of_right_to_call"]
    assert [c["call"] for c in state["cancelled"] if c["seat"] == "E"] == ["P"]
    assert state["must_pass"] == {} and state["pending"] is None
    ended = play("N 1S, E P, S P, N P, E P, W 2H, N P, E P, S P", ruleset=ruleset)
    assert ended["contract"] == {"level": 2, "strain": "H", "risk": "", "declarer": "W"}
    assert kinds(ended) == kinds(state)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_acceptor_bids_and_the_auction_continues_normally(ruleset: str) -> None:
    """Law 29A with Law 34, the WBF commentary on 2007 Law 17E ("if West does not pass but
    bids 1D the auction continues normally"): accepted by a bid, the pass out of rotation
    stands, its skipped player loses his turn, and three passes no longer follow a call."""
    state = play("N 1S, E P, S P, N P, E 2H", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S P, N P, E 2H" and state["turn"] == "S"
    assert state["calls"][3]["skipped"] == ["W"]
    assert kinds(state) == ["pass_out_of_rotation"] and state["status"] == "auction"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_commentary_first_example(ruleset: str) -> None:
    """The WBF commentary on 2007 Law 17E, first example: N passes, S passes out of rotation at
    E's turn, W accepts and passes, N passes: the auction reverts to E; the passes of S, W
    and N are cancelled, and the auction proceeds normally from E."""
    state = play("N P, S P, W P", ruleset=ruleset)
    assert state["status"] == "auction" and state["turn"] == "N"
    state = play("N P, S P, W P, N P", ruleset=ruleset)
    assert calls(state) == "N P" and state["turn"] == "E"
    assert kinds(state)[-1] == "retention_of_right_to_call"
    ended = play("N P, S P, W P, N P, E P, S P, W P", ruleset=ruleset)
    assert ended["status"] == "passed_out" and len(ended["alerts"]) == 2


# --- Laws 35–38: inadmissible calls, rectified at once ---------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_36_inadmissible_double_rectified_at_once(ruleset: str) -> None:
    """Law 36 (rubber 36): an inadmissible double is cancelled, the offender must substitute a
    legal call and his partner must pass whenever it is his turn (lead penalties of Law 26).
    Nobody may accept it, so nothing is pending: the turn is the offender's at once, and an
    `option` changes nothing."""
    board = board_of("N 1S, E P, S X", ruleset=ruleset)
    state = board.to_dict()
    assert state["pending"] is None and state["turn"] == "S"
    assert state["must_pass"] == {"N": "every_turn"}
    assert state["cancelled"][0]["call"] == "X"
    assert state["lead_restrictions"][0]["player"] == "N"
    assert Call.parse("X") not in board.legal_calls() and PASS in board.legal_calls()
    for option in ("W accept", "W decline"):
        after = play(f"N 1S, E P, S X, {option}", ruleset=ruleset)
        assert after["ignored"][0]["reason"] == "an inadmissible call may never be accepted"
        assert {k: after[k] for k in ("turn", "must_pass", "calls", "pending")} == \
            {k: state[k] for k in ("turn", "must_pass", "calls", "pending")}
    assert calls(play("N 1S, E P, S X, S 2S", ruleset=ruleset)) == "N 1S, E P, S 2S"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_37_action_violating_obligation_to_pass_rectified_at_once(ruleset: str) -> None:
    """Law 37: a bid by a player required to pass is cancelled at once; both members of the
    offending side must pass whenever it is their turn; the turn is the offender's."""
    state = play("N 1S, E 1H, S decline, E 3H, S P, W 4H", ruleset=ruleset)
    assert kinds(state)[-1] == "call_while_required_to_pass"
    assert state["pending"] is None and state["turn"] == "W"
    assert state["must_pass"] == {"E": "every_turn", "W": "every_turn"}
    assert calls(state) == "N 1S, E 3H, S P"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_38_bid_above_seven_rectified_at_once(ruleset: str) -> None:
    """Law 38: a bid of more than seven is cancelled at once; both members of the offending
    side must pass whenever it is their turn. It is an irregularity, not bad input."""
    state = play("N 1S, E 8NT", ruleset=ruleset)
    assert kinds(state) == ["bid_above_seven"] and state["pending"] is None
    assert state["cancelled"][0]["call"] == "8NT"
    assert state["must_pass"] == {"E": "every_turn", "W": "every_turn"}
    assert state["turn"] == "E"
    after = play("N 1S, E 8NT, E P, S 2S, W P", ruleset=ruleset)
    assert calls(after) == "N 1S, E P, S 2S, W P"
    assert after["must_pass"] == {"E": "every_turn", "W": "every_turn"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_38_bid_above_seven_out_of_rotation(ruleset: str) -> None:
    """Law 38 out of rotation: it may never be accepted, so it is cancelled at once and the
    auction reverts to the player whose turn it was; both offenders pass throughout."""
    state = play("N 1S, W 8C", ruleset=ruleset)  # at E's turn, W's partner's
    assert state["pending"] is None and state["turn"] == "E"
    assert state["must_pass"] == {"E": "every_turn", "W": "every_turn"}


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "35A"), ("rubber", "35(a)")])
def test_law_35a_inadmissible_double_condoned(ruleset: str, law: str) -> None:
    """Law 35A: LHO calls over an inadmissible double before the offender calls again: there
    is no penalty (the rectification of Law 36 is taken back, lead penalties included), both
    calls are cancelled and the auction reverts to the player whose turn it is."""
    state = play("N 1S, E P, S X, W P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P" and state["turn"] == "S"
    assert state["must_pass"] == {} and state["lead_restrictions"] == []
    assert laws(state) == ["36", law]
    assert [(c["call"], c["law"]) for c in state["cancelled"]] == [("X", law), ("P", law)]


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "35B"), ("rubber", "35(b)")])
def test_law_35b_call_by_player_required_to_pass_condoned(ruleset: str, law: str) -> None:
    """Law 35B (rubber 35(b)): LHO calls over a call by a player required to pass: the calls
    stand, but an obligation to pass for the rest of the auction remains."""
    state = play("N 1S, E 1H, S decline, E 3H, S P, W 4H, N P", ruleset=ruleset)
    assert calls(state) == "N 1S, E 3H, S P, W 4H, N P"
    assert state["calls"][3]["accepted"] == law
    assert state["must_pass"] == {"W": "every_turn"}
    assert [r["withdrawn"] for r in state["lead_restrictions"]] == ["1H"]  # 27B2's only
    assert "4H" not in [c["call"] for c in state["cancelled"]]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_35c_bid_above_seven_condoned(ruleset: str) -> None:
    """Law 35C (rubber 35(c)): LHO calls over a bid of more than seven: both are cancelled and
    the offender must substitute a pass; no penalty otherwise. Law 35 comes before Law 28A
    (LHO's call at the turn of a player required to pass)."""
    state = play("N 8C, E P", ruleset=ruleset)
    assert state["calls"] == [] and state["turn"] == "N"
    assert state["must_pass"] == {"N": "next_turn"} and state["lead_restrictions"] == []
    state = play("N 1S, E 8NT, S P", ruleset=ruleset)
    assert calls(state) == "N 1S" and state["turn"] == "E"
    assert state["must_pass"] == {"E": "next_turn"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_35_no_longer_once_the_offender_has_called_again(ruleset: str) -> None:
    """Law 35 applies only if offender's LHO calls before the offender has called again."""
    state = play("N 1S, E P, S X, S 2S, W P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S 2S, W P"
    assert state["must_pass"] == {"N": "every_turn"} and laws(state) == ["36"]


# --- Law 39: call after the final pass ------------------------------------------------------


@pytest.mark.parametrize(("script", "law", "rubber_law", "penalty"), [
    ("N 1H, E P, S P, W P, E P", "39A", "39(a)", False),   # a pass by a defender
    ("N 1H, E P, S P, W P, S 2H", "39A", "39(a)", False),  # a call by dummy
    ("N 1H, E P, S P, W P, E 2C", "39B", "39(b)", True),   # a bid by a defender
])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_39_call_after_the_final_pass(script: str, law: str, rubber_law: str,
                                          penalty: bool, ruleset: str) -> None:
    """Law 39 (rubber 39): a call after the final pass is cancelled; A: without penalty for a
    pass by a defender or any call by the declaring side; B: a defender's bid, double or
    redouble may bring the lead penalties of Law 26."""
    state = play(script, ruleset=ruleset)
    assert state["status"] == "closed" and kinds(state) == ["call_after_final_pass"]
    assert state["cancelled"][-1]["law"] == (law if ruleset == "duplicate" else rubber_law)
    assert bool(state["lead_restrictions"]) is penalty


def test_law_39_after_a_passed_out_board_no_penalty() -> None:
    """Law 39A / 22A: after a passed-out board there is no play, so no penalty."""
    state = play("N P, E P, S P, W P, E 1S")
    assert state["cancelled"][-1]["law"] == "39A" and state["lead_restrictions"] == []


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "35D"), ("rubber", "35(d)")])
def test_law_35d_call_after_final_pass_condoned(ruleset: str, law: str) -> None:
    """Law 35D (rubber 35(d)): offender's LHO calls over it: both cancelled, no penalty."""
    state = play("N 1H, E P, S P, W P, E 2C, S 2D", ruleset=ruleset)
    assert state["lead_restrictions"] == [] and laws(state)[-1] == law


# --- Law 17: the end of the auction period --------------------------------------------------


def test_2017_law_17d1_opening_lead_ends_the_auction_period() -> None:
    """2017 Law 17D1: the auction period ends when a defender faces the opening lead."""
    state = play("N 1H, E P, S P, W P, E leads SK")
    assert state["opening_lead"] == {"seat": "E", "card": "SK"}
    assert state["auction_period_ended"] is True
    assert play("N 1H, E P, S P, W P, E leads SK", ruleset="rubber")[
        "auction_period_ended"] is False


def test_law_54_opening_lead_by_the_wrong_defender() -> None:
    """Law 54: an opening lead out of turn calls the Director."""
    state = play("N 1H, E P, S P, W P, W leads SK")
    assert kinds(state) == ["opening_lead_out_of_turn"]


# --- Rulings: what needs the Director's judgement -------------------------------------------


def test_law_54_rubber_opening_lead_out_of_turn() -> None:
    """Rubber Law 54 likewise: the Director is called for a lead by the wrong defender."""
    assert kinds(play("N 1H, E P, S P, W P, W leads SK", ruleset="rubber")) == [
        "opening_lead_out_of_turn"]


def test_law_17d_wrong_board_call_cancelled() -> None:
    """Law 17D (2007 17D1): a call made on cards from a wrong board is cancelled; the
    offender calls again (here LHO had called over it, so that call goes too)."""
    ruling = {"type": "ruling", "action": "cancel_call", "seat": "N", "law": "17D"}
    state = play("N 1H, E P", extra=[ruling])
    assert state["calls"] == [] and state["turn"] == "N"
    assert [c["law"] for c in state["cancelled"]] == ["17D", "17D"]


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "21B"), ("rubber", "21")])
def test_law_21b_change_of_call_after_misinformation(ruleset: str, law: str) -> None:
    """Law 21B1 (rubber 21): a player may change a call made on misinformation from an
    opponent; his LHO may then change a subsequent call (21B2)."""
    ruling = {"type": "ruling", "action": "allow_change", "seat": "E"}
    state = play("N 1NT, E 2C, S P", ruleset=ruleset,
                 extra=[ruling, {"type": "call", "seat": "E", "call": "2D"}])
    assert calls(state) == "N 1NT, E 2D" and state["turn"] == "S"
    assert [c["law"] for c in state["cancelled"]] == [law, law]


def test_law_82c_director_lifts_a_pass_obligation_applied_in_error_and_adjusts() -> None:
    """Law 82C: the Director corrects his own error (here a pass obligation that should not
    have been applied) and Law 12C awards an adjusted score. Not Law 23, which keeps the
    enforced pass (see test_law_23_the_enforced_pass_stays_the_director_may_adjust_afterwards)."""
    extra = [{"type": "ruling", "action": "lift_pass_obligation", "seat": "W", "law": "82C"},
             {"type": "ruling", "action": "adjusted_score", "score": "A-/A+", "law": "12C"}]
    state = play("N 1S, E 1H, S decline, E 3H", extra=extra)
    assert state["must_pass"] == {}
    assert state["rulings"][1]["score"] == "A-/A+"


def test_ruling_lead_restriction_recorded() -> None:
    """Law 26: declarer's choice of lead penalty is recorded as a ruling."""
    ruling = {"type": "ruling", "action": "lead_restriction", "seat": "E", "suit": "S",
              "restriction": "prohibit", "law": "26B"}
    state = play("N 1H, E P, S P, W P", extra=[ruling])
    assert state["lead_restrictions"][-1]["suit"] == "S"


# --- Safe retries ---------------------------------------------------------------------------


def test_repeated_client_seq_changes_nothing() -> None:
    """A retried event (same seat and client_seq on the board) is applied once."""
    once = play("", extra=[{"type": "call", "seat": "N", "call": "1H", "client_seq": 1}])
    twice = play("", extra=[{"type": "call", "seat": "N", "call": "1H", "client_seq": 1}] * 2)
    assert once == twice and calls(twice) == "N 1H"


# --- found by the review of the readings above --------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_32b1_36_partner_passes_from_rho_pass(ruleset: str) -> None:
    """Law 32B1 with Law 36: once RHO passes, Law 36 applies to the inadmissible double out of
    rotation: the offender's partner must pass whenever it is his turn from then on, whatever
    the offender calls (a redouble the same)."""
    state = play("N 1S, S X, E P", ruleset=ruleset)
    assert state["must_pass"] == {"N": "every_turn"} and laws(state)[-1] == "36"
    assert play("N 1S, S X, E P, S 1H, W P", ruleset=ruleset)["must_pass"] == \
        {"N": "every_turn"}
    assert play("N 1S, E X, W XX, S P", ruleset=ruleset)["must_pass"] == {"E": "every_turn"}
    repeated = play("N 1S, S X, E P, S X", ruleset=ruleset)
    assert len(repeated["lead_restrictions"]) == 1  # one withdrawn X, one lead penalty


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "35A"), ("rubber", "35(a)")])
def test_law_35b_never_lets_an_inadmissible_double_stand(ruleset: str, law: str) -> None:
    """Laws 35A and 35B: a double Law 19 does not permit, made by a player required to pass,
    cannot stand when LHO calls over it: both calls are cancelled (35A), not kept (35B)."""
    state = play("N 1S, E 1H, S decline, E 3H, S P, W X, N P", ruleset=ruleset)
    assert calls(state) == "N 1S, E 3H, S P" and state["turn"] == "W"
    assert laws(state)[-1] == law


def test_law_25b2b_a_change_to_a_call_nobody_may_accept_is_cancelled_at_once() -> None:
    """Laws 25B and 36: a change of call to a redouble Law 19 does not permit may never be
    accepted: it is cancelled at once and the offender chooses his final call (25B2(b))."""
    state = play("N 1S, E P, E changes XX")
    assert state["pending"] is None and state["turn"] == "E"
    assert kinds(state) == ["change_of_call"] and state["alerts"][0]["law"] == "25B2"
    assert play("N 1S, E P, E changes XX, E P")["must_pass"] == {"W": "next_turn"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_25a_inadvertent_inadmissible_call_replaced_without_penalty(ruleset: str) -> None:
    """Law 25A (rubber 24): an inadvertent inadmissible double replaced by the call meant, a
    legal one: it stands without penalty; Law 36's rectification is taken back."""
    state = play("N 1S, E P, S X, S slips P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S P"
    assert state["must_pass"] == {} and state["lead_restrictions"] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_28b_cancels_a_substitute_with_the_call_out_of_rotation(ruleset: str) -> None:
    """Law 28B: the player whose turn it was calls: the auction proceeds as though the
    offender had not called at that turn, his substitute for the call included."""
    state = play("N 1S, S 2H, S 2S, E P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P" and state["turn"] == "S"
    assert {c["call"] for c in state["cancelled"]} == {"2H", "2S"}
    if ruleset == "duplicate":
        assert state["lead_restrictions"] == []


def test_law_35_not_offered_where_lho_calls_in_turn() -> None:
    """Law 32 at LHO's turn: his call is simply in turn after the rectification, so the alert
    does not offer Law 35A."""
    state = play("W XX")  # at N's turn, W's LHO
    assert not any("35A" in option for option in state["alerts"][0]["options"])
    assert state["turn"] == "N"


# --- found by the second independent review (docs/laws.md) --------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_pass_out_of_rotation_by_partner_of_the_player_who_missed_his_turn(
        ruleset: str) -> None:
    """Law 34 (2007 Law 17E2, 2017 Law 17D3; rubber 34): E's pass at W's turn, his partner's,
    is the third pass after a call: the auction does not end, it reverts to W, who missed his
    turn, and proceeds as though there had been no irregularity: no option waits, no Law 30
    penalty (E need not pass, W may double), in the passed-out version too (no 30A)."""
    state = play("N 1S, E P, S P, E P", ruleset=ruleset)
    assert state["pending"] is None and state["turn"] == "W" and state["status"] == "auction"
    assert calls(state) == "N 1S, E P, S P"
    assert kinds(state) == ["retention_of_right_to_call"]
    assert [(c["seat"], c["call"], c["law"]) for c in state["cancelled"]] == [("E", "P", "34")]
    doubled = play("N 1S, E P, S P, E P, W X", ruleset=ruleset)
    assert calls(doubled) == "N 1S, E P, S P, W X" and doubled["turn"] == "N"
    assert kinds(doubled) == ["retention_of_right_to_call"]
    assert doubled["must_pass"] == {} and doubled["may_not_double"] == {}
    passed_out = play("N P, E P, S P, E P, W 1H", ruleset=ruleset)
    assert calls(passed_out) == "N P, E P, S P, W 1H" and passed_out["turn"] == "N"
    assert kinds(passed_out) == ["retention_of_right_to_call"]
    assert passed_out["must_pass"] == {} and passed_out["rectifications"] == []


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "32B1"), ("rubber", "32(b)(i)")])
def test_law_32b1_double_repeated_after_rho_passes_carries_no_lead_penalty(ruleset: str,
                                                                         law: str) -> None:
    """Law 32B1 (rubber 32(b)(i), and rubber 26(b): "other than an out-of-rotation call
    repeated in turn in accordance with … Law 32(b)(i)"): RHO passes and the offender repeats
    his double or redouble out of rotation: there is no penalty, no lead penalty either."""
    state = play("N 1S, E P, W X, N decline, S P, W X, N P, E P, S P", ruleset=ruleset)
    assert state["contract"] == {"level": 1, "strain": "S", "risk": "X", "declarer": "N"}
    assert state["lead_restrictions"] == [] and laws(state)[-1] == law
    redoubled = play("N 1S, E X, S P, N XX, E decline, W P, N XX, E P, S P, W P",
                     ruleset=ruleset)
    assert redoubled["contract"] == {"level": 1, "strain": "S", "risk": "XX", "declarer": "N"}
    assert redoubled["lead_restrictions"] == [] and laws(redoubled)[-1] == law


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rubber_law_26a_is_its_own_test_the_substitute_did_not_repeat_the_suit(
        ruleset: str) -> None:
    """Rubber Law 26(a): "if the changed call was in a suit, and the substituted call did not
    repeat that suit", declarer may require or prohibit that suit's lead: E changed 2H to 2D
    (rubber 25(b)(ii)) and 2D stood, so hearts, although E bid 1H earlier. Duplicate Law 26A1
    asks whether the offender specified the suit in the legal auction: he did, no penalty."""
    choice = "E changes 2D, S decline, E 2D" if ruleset == "duplicate" else "E changes 2D, E 2D"
    state = play(f"N 1C, E 1H, S P, W P, N 1S, E 2H, {choice}, S 2S, W P, N P, E P",
                 ruleset=ruleset)
    assert state["contract"] == {"level": 2, "strain": "S", "risk": "", "declarer": "N"}
    [penalty] = state["lead_restrictions"]
    assert penalty["player"] == "W" and penalty["withdrawn"] == "2H"
    if ruleset == "duplicate":
        assert penalty["law"] == "26A1" and penalty["applies"] is False
    else:
        assert penalty["law"] == "26(a)" and penalty["suit"] == "H"
        assert penalty["declarer_may"] == "require or prohibit the suit"
        assert penalty["applies"] is True
    repeated = play("N 1C, E 1H, S P, W P, N 1S, E 2H, E changes 2D, E 3H, S P, W P, N P",
                    ruleset="rubber")  # 3H repeats the suit: no lead penalty (rubber 26)
    assert [(p["law"], p["applies"]) for p in repeated["lead_restrictions"]] == [("26", False)]


def test_law_17d1_cancels_a_call_awaiting_an_option() -> None:
    """2007 Law 17D1: "a call is cancelled if it is made by a player on cards that he has
    picked up from a wrong board", a call still awaiting LHO's option too (an insufficient
    bid, a call out of rotation): it is cancelled without penalty, nothing waits any more and
    the auction continues normally from the turn at which it was made (17D2); the offender's
    next call is his call in turn, not a change of call (Law 25B)."""
    ruling = {"type": "ruling", "action": "cancel_call", "seat": "E", "law": "17D"}
    state = play("N 1S, E 1H", extra=[ruling])
    assert state["pending"] is None and state["turn"] == "E" and calls(state) == "N 1S"
    assert [(c["seat"], c["call"], c["law"]) for c in state["cancelled"]] == [("E", "1H", "17D")]
    assert state["ignored"] == []
    after = play("N 1S, E 1H", extra=[ruling, {"type": "call", "seat": "E", "call": "2H"}])
    assert calls(after) == "N 1S, E 2H" and after["turn"] == "S" and after["pending"] is None
    assert kinds(after) == ["insufficient_bid"]
    ruling = {"type": "ruling", "action": "cancel_call", "seat": "N", "law": "17D"}
    state = play("N 1S, E P, S 2S, N 3S", extra=[ruling])  # N bid at W's turn
    assert state["pending"] is None and state["turn"] == "W"
    assert calls(state) == "N 1S, E P, S 2S" and state["must_pass"] == {}
    assert [(c["seat"], c["call"]) for c in state["cancelled"]] == [("N", "3S")]
    earlier = {"type": "ruling", "action": "cancel_call", "index": 1, "law": "17D"}
    state = play("N 1S, E P, S 2S, N 3S", extra=[earlier])  # E's pass and all after it
    assert calls(state) == "N 1S" and state["turn"] == "E" and state["pending"] is None
    assert {(c["seat"], c["call"]) for c in state["cancelled"]} == \
        {("E", "P"), ("S", "2S"), ("N", "3S")}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_change_of_call_after_the_opening_lead_is_faced(ruleset: str) -> None:
    """2017 Law 17D1: the auction period ends when the opening lead is faced; a call may be
    changed only until then (Law 21B1 "until the end of the auction period", Law 25; rubber
    Laws 24–25 at the same turn, the auction closed and play begun, Law 22(b)). A
    `call_changed` after the lead, inadvertent or not, is refused: the lead and the contract
    stand and `ignored` says why. A Director's ruling still acts (Law 21B)."""
    script = "N 1H, E P, S P, W P, E leads SK"
    before = play(script, ruleset=ruleset)
    for change in ("W changes X", "W slips X"):
        state = play(f"{script}, {change}", ruleset=ruleset)
        assert {k: state[k] for k in ("calls", "status", "contract", "opening_lead", "alerts",
                                      "cancelled")} == \
            {k: before[k] for k in ("calls", "status", "contract", "opening_lead", "alerts",
                                    "cancelled")}
        [ignored] = state["ignored"]
        assert ignored["event"] == 6 and "opening lead" in ignored["reason"]
    ruling = {"type": "ruling", "action": "allow_change", "seat": "W"}
    ruled = play(script, ruleset=ruleset, extra=[ruling])
    assert ruled["status"] == "auction" and ruled["turn"] == "W"
    assert ruled["opening_lead"] is None


def test_law_23_the_enforced_pass_stays_the_director_may_adjust_afterwards() -> None:
    """Law 23 (rubber 23(c)): when an enforced pass could damage the non-offending side, the
    Director "shall require the auction and play to continue and consider awarding an
    adjusted score": the pass stays enforced; an adjusted score ruling changes no obligation."""
    extra = [{"type": "ruling", "action": "adjusted_score", "score": "A-/A+", "law": "23"}]
    state = play("N 1S, E 1H, S decline, E 3H", extra=extra)
    assert state["must_pass"] == {"W": "every_turn"}
    assert state["rulings"][0]["score"] == "A-/A+"
