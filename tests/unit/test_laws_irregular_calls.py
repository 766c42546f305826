"""Laws 25–32: changes of call, insufficient bids, calls out of rotation."""

import pytest

from tests.script import calls, kinds, laws, play

RULESETS = ["duplicate", "rubber"]


# --- Law 27: insufficient bid ---------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_27a_accepted_when_lho_calls(ruleset: str) -> None:
    """Law 27A (rubber 27): an insufficient bid is accepted if offender's LHO calls."""
    state = play("N 1S, E 1H, S P", ruleset=ruleset)
    assert calls(state) == "N 1S, E 1H, S P"
    assert state["calls"][1]["accepted"] == ("27A" if ruleset == "duplicate" else "27")
    assert state["turn"] == "W" and state["pending"] is None


def test_law_27a_accepted_by_option() -> None:
    """Law 27A: the option holder may accept without calling; the auction goes on from him."""
    state = play("N 1S, E 1H, S accept")
    assert calls(state) == "N 1S, E 1H" and state["turn"] == "S"


def test_law_27_only_lho_holds_the_option() -> None:
    """Law 27A: the option is offender's LHO's; partner's `option` changes nothing."""
    state = play("N 1S, E 1H, W accept")
    assert state["pending"]["kind"] == "insufficient_bid"
    assert state["ignored"][0]["reason"] == "only S may exercise the option"


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "27B1(a)"), ("rubber", "27(a)")])
def test_law_27b1a_lowest_sufficient_same_denomination_no_penalty(ruleset: str, law: str) -> None:
    """Law 27B1(a) (rubber 27(a)): corrected by the lowest sufficient bid in the same
    denomination, the auction proceeds as though no irregularity had occurred."""
    state = play("N 1S, E 1H, S decline, E 2H", ruleset=ruleset)
    assert calls(state) == "N 1S, E 2H"
    assert state["must_pass"] == {} and state["lead_restrictions"] == []
    assert laws(state)[-1] == law


@pytest.mark.parametrize("substitute", ["3H", "2C", "P"])
def test_law_27b2_other_bid_or_pass_partner_passes_throughout(substitute: str) -> None:
    """Law 27B2: any other sufficient bid or a pass: partner must pass whenever it is his
    turn, and the lead penalties of Law 26 may apply."""
    state = play(f"N 1S, E 1H, S decline, E {substitute}")
    assert state["must_pass"] == {"W": "every_turn"}
    assert state["lead_restrictions"][0]["player"] == "W"
    assert state["lead_restrictions"][0]["withdrawn"] == "1H"


def test_law_27b3_double_substituted_is_cancelled() -> None:
    """Law 27B3: an attempted double is cancelled and partner must pass throughout; the
    offender must still substitute a sufficient bid or a pass."""
    state = play("N 1S, E 1H, S decline, E X")
    assert calls(state) == "N 1S" and state["turn"] == "E"
    assert state["must_pass"] == {"W": "every_turn"}
    assert state["cancelled"][-1]["call"] == "X"


def test_rubber_law_27_double_substituted_offender_must_pass() -> None:
    """Rubber Law 27: the attempted double is cancelled and the offender must pass at that
    turn; his partner must pass whenever it is his turn."""
    state = play("N 1S, E 1H, S decline, E X", ruleset="rubber")
    assert state["must_pass"] == {"E": "next_turn", "W": "every_turn"}


@pytest.mark.parametrize("change", ["E 2H", "E changes 2H"])
def test_law_25b_27a_offender_substituting_first_keeps_lho_option(change: str) -> None:
    """Laws 25B1 and 27A: an offender who substitutes for his insufficient bid before LHO has
    acted does not decide LHO's option: the substitute waits for LHO, who may accept it."""
    state = play(f"N 1S, E 1H, {change}")
    assert state["pending"] == {"kind": "change_of_call", "law": "25", "offender": "E",
                                "call": "2H", "at_turn": "E", "option_holder": "S",
                                "replaces": "1H"}
    assert state["turn"] == "S" and calls(state) == "N 1S"
    accepted = play(f"N 1S, E 1H, {change}, S accept")
    assert calls(accepted) == "N 1S, E 2H" and accepted["calls"][1]["accepted"] == "25B1"
    assert accepted["turn"] == "S" and accepted["must_pass"] == {}
    by_call = play(f"N 1S, E 1H, {change}, S P")
    assert calls(by_call) == "N 1S, E 2H, S P" and by_call["turn"] == "W"


def test_law_25b2a_substitute_not_accepted_lho_may_still_accept_the_insufficient_bid() -> None:
    """Law 25B2(a): the substitute not accepted is cancelled; the first call being illegal,
    the offender is subject to Law 27, whose option (27A) is LHO's still; the lead penalties
    of Law 26 may apply to the substitute."""
    state = play("N 1S, E 1H, E 2H, S decline")
    assert state["pending"]["kind"] == "insufficient_bid"
    assert state["pending"]["option_holder"] == "S" and state["turn"] == "S"
    assert state["cancelled"][-1] == {"seat": "E", "call": "2H", "law": "25B2(a)",
                                      "reason": "not accepted", "event": 4}
    assert state["lead_restrictions"][0]["player"] == "W"
    assert state["lead_restrictions"][0]["withdrawn"] == "2H"
    assert calls(play("N 1S, E 1H, E 2H, S decline, S accept")) == "N 1S, E 1H"
    after = play("N 1S, E 1H, E 2H, S decline, S decline, E 3H")
    assert calls(after) == "N 1S, E 3H" and after["must_pass"] == {"W": "every_turn"}


def test_law_25b_a_further_substitute_replaces_the_one_before() -> None:
    """Law 25B (rubber Law 27's footnote): a further substitute cancels the one before; LHO's
    option is over the last one."""
    state = play("N 1S, E 1H, E 2H, E 3H")
    assert state["pending"]["call"] == "3H" and state["pending"]["replaces"] == "1H"
    assert [c["call"] for c in state["cancelled"]] == ["2H"]


def test_law_25b2a_a_substitute_nobody_may_accept_is_cancelled_at_once() -> None:
    """Laws 25B and 38: a bid above seven substituted for an insufficient bid may never be
    accepted: it is cancelled at once and LHO keeps his option over the insufficient bid."""
    state = play("N 1S, E 1H, E 8H")
    assert state["pending"]["kind"] == "insufficient_bid" and state["turn"] == "S"
    assert state["cancelled"][-1]["call"] == "8H"
    assert state["cancelled"][-1]["law"] == "25B2(a)"


@pytest.mark.parametrize("change", ["E 2H", "E changes 2H"])
def test_rubber_law_25a_27_substitute_cancelled_lho_keeps_his_option(change: str) -> None:
    """Rubber Law 25(a) and Law 27's footnote: a substitute for an illegal call is cancelled;
    the offender is subject to Law 27, whose option is LHO's; lead penalties of Law 26."""
    state = play(f"N 1S, E 1H, {change}", ruleset="rubber")
    assert state["pending"]["kind"] == "insufficient_bid" and state["turn"] == "S"
    assert state["cancelled"][-1]["law"] == "25(a)"
    assert kinds(state) == ["insufficient_bid", "change_of_call"]
    assert calls(play(f"N 1S, E 1H, {change}, S P", ruleset="rubber")) == "N 1S, E 1H, S P"


def test_law_25b_offender_substituting_for_a_bid_out_of_rotation() -> None:
    """Laws 25B and 29: a substitute for a bid out of rotation waits for LHO too; declined,
    the bid out of rotation is before LHO again (29A), and declined again Law 31 rectifies."""
    state = play("N 1S, S 2H, S 2S")  # S bid at E's turn, his RHO's
    assert state["pending"]["kind"] == "change_of_call"
    assert state["pending"]["option_holder"] == "W"
    state = play("N 1S, S 2H, S 2S, W decline")
    assert state["pending"]["kind"] == "bid_out_of_rotation"
    state = play("N 1S, S 2H, S 2S, W decline, W decline")
    assert state["turn"] == "E" and laws(state)[-1] == "31A"
    accepted = play("N 1S, S 2H, S 2S, W P")
    assert calls(accepted) == "N 1S, S 2S, W P"
    assert accepted["calls"][1]["skipped"] == ["E"]


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "25A"), ("rubber", "24")])
def test_law_25a_inadvertent_insufficient_bid_replaced(ruleset: str, law: str) -> None:
    """Law 25A (rubber 24): an inadvertent call is replaced until partner calls, an irregular
    one too: the substitute is the call at that turn, judged as such."""
    state = play("N 1S, E 1H, E slips 2H", ruleset=ruleset)
    assert calls(state) == "N 1S, E 2H" and state["pending"] is None
    assert state["turn"] == "S" and kinds(state) == ["insufficient_bid", "change_of_call"]
    assert state["cancelled"][0]["law"] == law


# --- Laws 28–29: calls out of rotation ------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "28A"), ("rubber", "28(a)")])
def test_law_28a_call_at_rho_turn_when_rho_must_pass(ruleset: str, law: str) -> None:
    """Law 28A (rubber 28(a)): a call at RHO's turn is in rotation when RHO is required to
    pass; RHO's pass is deemed made."""
    state = play("N 1S, E 1H, S decline, E 3H, S P, N 3S", ruleset=ruleset)
    assert calls(state) == "N 1S, E 3H, S P, W P, N 3S"
    assert state["calls"][3]["deemed"] == law
    assert state["alerts"][-1]["kind"] == "insufficient_bid"  # no new irregularity


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_28b_player_whose_turn_it_was_cancels_without_penalty(ruleset: str) -> None:
    """Law 28B: the player whose turn it was calls before a penalty is assessed: the call
    out of rotation is cancelled, without penalty."""
    state = play("N 1S, S 2S, E P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P" and state["turn"] == "S"
    assert state["must_pass"] == {} and state["lead_restrictions"] == []
    assert laws(state) == ["28B" if ruleset == "duplicate" else "28(b)"]


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "29A"), ("rubber", "29(a)")])
def test_law_29a_lho_accepts_by_calling(ruleset: str, law: str) -> None:
    """Law 29A (rubber 29(a)): offender's LHO calls, forfeiting the right to penalise; East
    lost his turn."""
    state = play("N 1S, S 2S, W P", ruleset=ruleset)
    assert calls(state) == "N 1S, S 2S, W P"
    assert state["calls"][1]["skipped"] == ["E"] and state["turn"] == "N"
    assert state["calls"][1]["accepted"] == law


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_29b_not_accepted_reverts_to_player_whose_turn_it_was(ruleset: str) -> None:
    """Law 29B (rubber 29(b)): otherwise the call is cancelled and the auction reverts to the
    player whose turn it was."""
    state = play("N 1S, S 2S, W decline", ruleset=ruleset)
    assert calls(state) == "N 1S" and state["turn"] == "E"


# --- Law 30: pass out of rotation -----------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "30A"), ("rubber", "30(a)")])
def test_law_30a_before_any_bid_offender_passes_next_turn(ruleset: str, law: str) -> None:
    """Law 30A (rubber 30(a)): before any bid, the offender must pass at his next turn."""
    state = play("E P, S decline", ruleset=ruleset)
    assert state["turn"] == "N" and state["must_pass"] == {"E": "next_turn"}
    assert laws(state) == [law]
    state = play("E P, S decline, N P, E P", ruleset=ruleset)
    assert state["must_pass"] == {}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_30b1_at_rho_turn_after_a_bid(ruleset: str) -> None:
    """Law 30B1 (rubber 30(a)): after a bid, a pass at RHO's turn: the offender passes at his
    next turn."""
    state = play("N 1S, S P, W decline", ruleset=ruleset)
    assert state["turn"] == "E" and state["must_pass"] == {"S": "next_turn"}


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "30B2"), ("rubber", "30(b)")])
def test_law_30b2_at_partner_turn_after_a_bid(ruleset: str, law: str) -> None:
    """Law 30B2 (rubber 30(b)): at partner's turn after a bid: the offender must pass
    whenever it is his turn; partner may bid or pass but not double or redouble then."""
    state = play("N 1S, E 2H, N P, E decline", ruleset=ruleset)
    assert state["must_pass"] == {"N": "every_turn"}
    assert state["may_not_double"] == {"S": law}
    state = play("N 1S, E 2H, N P, E decline, S X", ruleset=ruleset)
    assert kinds(state)[-1] == "restricted_call"


def test_law_30b3_pass_at_lho_turn_is_a_change_of_call() -> None:
    """Law 30B3: after a bid, a pass at LHO's turn is a change of call: Law 25 applies."""
    state = play("N 1S, N P")
    assert state["pending"]["kind"] == "change_of_call"


def test_rubber_law_30_pass_at_lho_turn_is_a_change_of_call() -> None:
    """Rubber Law 30 footnote: after a bid, a call at LHO's turn is a change of call (Law 25:
    no acceptance; the offender lets his bid stand or makes another call)."""
    state = play("N 1S, N P", ruleset="rubber")
    assert state["pending"] is None and state["turn"] == "N"
    assert state["alerts"][0]["kind"] == "change_of_call"
    assert state["alerts"][0]["law"] == "25(b)"


# --- Law 31: bid out of rotation ------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "31A1"), ("rubber", "31(b)(i)")])
def test_law_31a1_rho_passes_offender_repeats_no_penalty(ruleset: str, law: str) -> None:
    """Law 31A1 (rubber 31(b)(i)): RHO passes; the offender repeats his bid, no penalty."""
    state = play("N 1S, S 2S, W decline, E P, S 2S", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S 2S"
    assert state["must_pass"] == {} and laws(state)[-1] == law


def test_law_31a1_offender_does_not_repeat_director_alerted() -> None:
    """Law 31A1: the offender must repeat the call; any other call calls the Director."""
    state = play("N 1S, S 2S, W decline, E P, S 3S")
    assert kinds(state)[-1] == "rectification_not_followed"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_31a2a_rho_acts_offender_repeats_denomination(ruleset: str) -> None:
    """Law 31A2(a) (rubber 31(b)(ii)): RHO bids; the offender repeats the denomination:
    partner must pass when next it is his turn."""
    state = play("N 1S, S 2S, W decline, E 3C, S 3S", ruleset=ruleset)
    assert state["must_pass"] == {"N": "next_turn"}
    assert state["lead_restrictions"] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_31a2b_rho_acts_offender_changes_denomination(ruleset: str) -> None:
    """Law 31A2(b) (rubber 31(b)(ii)): the offender does not repeat the denomination: partner
    must pass whenever it is his turn, and the lead penalties of Law 26 may apply."""
    state = play("N 1S, S 2S, W decline, E 3C, S 3D", ruleset=ruleset)
    assert state["must_pass"] == {"N": "every_turn"}
    assert state["lead_restrictions"][0]["player"] == "N"


def test_law_31b_bid_at_partner_turn() -> None:
    """Law 31B: a bid at partner's turn: partner must pass whenever it is his turn."""
    state = play("N 1S, W 2H, N decline")
    assert state["turn"] == "E" and state["must_pass"] == {"E": "every_turn"}


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "31B"), ("rubber", "31(a)")])
def test_law_31b_bid_at_lho_turn_before_offender_called(ruleset: str, law: str) -> None:
    """Law 31B (rubber 31(a)): at LHO's turn when the offender has not called (LHO dealt)."""
    state = play("W 1H, N decline", ruleset=ruleset)
    assert state["turn"] == "N" and state["must_pass"] == {"E": "every_turn"}
    assert laws(state) == [law]


# --- Law 32: double or redouble out of rotation ---------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_32a_double_at_partner_turn(ruleset: str) -> None:
    """Law 32A (rubber 32(a)): partner must pass whenever it is his turn; lead penalties of
    Law 26B; rubber also: the offender may not double the same bid."""
    state = play("N 1S, W X, N decline", ruleset=ruleset)
    assert state["turn"] == "E" and state["must_pass"] == {"E": "every_turn"}
    assert state["lead_restrictions"][0]["player"] == "E"
    assert state["may_not_double"] == ({} if ruleset == "duplicate" else {"W": "32(a)"})


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "32B1"), ("rubber", "32(b)(i)")])
def test_law_32b1_rho_passes_offender_repeats_double(ruleset: str, law: str) -> None:
    """Law 32B1 (rubber 32(b)(i)): RHO passes; the offender repeats his double, no penalty."""
    state = play("N 1S, E P, W X, N decline, S P, W X", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S P, W X"
    assert state["must_pass"] == {} and laws(state)[-1] == law


@pytest.mark.parametrize(("ruleset", "obligation"),
                         [("duplicate", "every_turn"), ("rubber", "next_turn")])
def test_law_32b2_rho_bids_partner_must_pass(ruleset: str, obligation: str) -> None:
    """Law 32B2 differs: duplicate, partner passes whenever it is his turn; rubber
    32(b)(ii), partner passes when next it is his turn."""
    state = play("N 1S, E P, W X, N decline, S 2S, W P", ruleset=ruleset)
    assert state["must_pass"] == {"E": obligation}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_32_inadmissible_double_out_of_rotation_cancelled_at_once(ruleset: str) -> None:
    """Law 32 (rubber 32, 36): an inadmissible double out of rotation may never be accepted,
    so nothing waits on an option: it is cancelled at once and the turn reverts to the player
    whose turn it was; an `option` changes nothing."""
    state = play("N 1S, S X", ruleset=ruleset)  # S doubles his partner's bid at E's turn
    assert state["pending"] is None and state["turn"] == "E"
    assert state["cancelled"][0]["call"] == "X"
    assert kinds(state) == ["double_out_of_rotation"]
    after = play("N 1S, S X, W accept", ruleset=ruleset)
    assert after["ignored"][0]["reason"] == "an inadmissible call may never be accepted"
    assert after["turn"] == "E" and after["calls"] == state["calls"]


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "35A"), ("rubber", "35(a)")])
def test_law_35a_lho_calls_over_an_inadmissible_double_out_of_rotation(ruleset: str,
                                                                      law: str) -> None:
    """Law 32 with Law 35A: the opponent next in rotation calls nevertheless, over it: both
    calls are cancelled and the auction reverts to the player whose turn it is, no penalty."""
    state = play("N 1S, S X, W P", ruleset=ruleset)
    assert calls(state) == "N 1S" and state["turn"] == "E"
    assert state["lead_restrictions"] == [] and laws(state)[-1] == law


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_32b1_36_inadmissible_double_legal_substitute_is_the_rectification(
        ruleset: str) -> None:
    """Law 32B1: RHO passes and the offender must repeat his double, "unless the double or
    redouble is inadmissible, in which case Law 36 applies": his legal substitute is the
    rectification (not `rectification_not_followed`), and his partner must pass whenever it is
    his turn (rubber Law 36 the same)."""
    state = play("N 1S, S X, E P, S 2S", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S 2S"
    assert "rectification_not_followed" not in kinds(state)
    assert state["must_pass"] == {"N": "every_turn"} and laws(state)[-1] == "36"
    assert state["lead_restrictions"][0]["player"] == "N"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_32b1_36_repeating_the_inadmissible_double(ruleset: str) -> None:
    """Law 32B1 with Law 36: repeated in turn, the inadmissible double is an inadmissible call
    in rotation, cancelled at once: the offender must substitute a legal call."""
    state = play("N 1S, S X, E P, S X", ruleset=ruleset)
    assert calls(state) == "N 1S, E P" and state["turn"] == "S" and state["pending"] is None
    assert kinds(state)[-1] == "inadmissible_double"
    assert state["must_pass"] == {"N": "every_turn"}


# --- Law 25: changes of call ----------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "law"), [("duplicate", "25A"), ("rubber", "24")])
def test_law_25a_inadvertent_call_replaced(ruleset: str, law: str) -> None:
    """Law 25A (rubber 24): an inadvertent call replaced without pause for thought: the
    substitute stands without penalty."""
    state = play("N 1H, N slips 1S", ruleset=ruleset)
    assert calls(state) == "N 1S" and state["turn"] == "E"
    assert state["alerts"][0]["kind"] == "change_of_call"
    assert state["alerts"][0]["law"] == law


def test_law_25a_illegal_substitute_is_subject_to_its_law() -> None:
    """Law 25A: if the substitute is illegal it is subject to the applicable Law."""
    state = play("N 1S, E 2C, E slips 1D")
    assert kinds(state)[-1] == "insufficient_bid"


def test_law_25a_too_late_after_partner_calls() -> None:
    """Law 25A: until his partner makes a call, not after."""
    state = play("N 1H, E P, S 2H, N slips 1S")
    assert calls(state) == "N 1H, E P, S 2H"
    assert "too late" in state["alerts"][-1]["message"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_25b_too_late_after_lho_calls(ruleset: str) -> None:
    """Law 25B (rubber 25): a call may be substituted until LHO calls."""
    state = play("N 1H, E P, N changes 1S", ruleset=ruleset)
    assert calls(state) == "N 1H, E P"
    assert "too late" in state["alerts"][-1]["message"]


def test_law_25b1_lho_accepts_the_substitute() -> None:
    """Law 25B1: the substituted call may be accepted at the option of offender's LHO."""
    state = play("N 1H, N changes 1S, E accept")
    assert calls(state) == "N 1S" and state["turn"] == "E" and state["must_pass"] == {}


def test_law_25b2b1_first_call_stands_partner_passes_next_turn() -> None:
    """Law 25B2(b)(1): not accepted, the offender lets his first call stand: partner must
    pass at his next turn; (c) lead penalties of Law 26."""
    state = play("N 1H, N changes 1S, E decline, N 1H")
    assert calls(state) == "N 1H" and state["must_pass"] == {"S": "next_turn"}
    assert state["lead_restrictions"][0]["withdrawn"] == "1S"


def test_law_25b2b2_other_call_average_minus() -> None:
    """Law 25B2(b)(2): another legal call: the auction proceeds normally; his side may
    receive no score greater than average minus."""
    state = play("N 1H, N changes 1S, E decline, N 2C")
    assert calls(state) == "N 2C" and state["must_pass"] == {}
    assert kinds(state)[-1] == "adjusted_score_possible"


def test_rubber_law_25b_first_call_stands_partner_passes_next_turn() -> None:
    """Rubber Law 25(b)(i): the offender lets his first call stand: partner must pass when
    next it is his turn; lead penalties of Law 26."""
    state = play("N 1H, N changes 1S, N 1H", ruleset="rubber")
    assert calls(state) == "N 1H" and state["must_pass"] == {"S": "next_turn"}
    assert state["lead_restrictions"][0]["withdrawn"] == "1S"


def test_rubber_law_25_no_acceptance_other_call_partner_passes_throughout() -> None:
    """Rubber Law 25(b): no option to accept; another legal call: partner must pass
    whenever it is his turn."""
    state = play("N 1H, N changes 1S", ruleset="rubber")
    assert state["pending"] is None and state["turn"] == "N"
    state = play("N 1H, N changes 1S, N 2C", ruleset="rubber")
    assert calls(state) == "N 2C" and state["must_pass"] == {"S": "every_turn"}
