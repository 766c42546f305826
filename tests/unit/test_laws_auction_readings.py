"""Readings of the auction's Laws corrected after the review of the Laws of play.

Law 34 (1997; rubber 34 alike): "When a call has been followed by three passes, the auction
does not end when one of those passes was out of rotation, thereby depriving a player of his
right to call at that turn. The auction reverts to the player who missed his turn. All
subsequent passes are cancelled, and the auction proceeds as though there had been no
irregularity." (2007 Law 17E2 and 2017 Law 17D3: "the auction reverts to the player who missed
his turn, all subsequent passes are cancelled and the auction proceeds normally".) The two
rulesets read alike here, so every scenario runs under both.
"""

import pytest

from tests.script import calls, kinds, play

RULESETS = ["duplicate", "rubber"]


def cancelled(state: dict[str, object]) -> list[tuple[str, str, str]]:
    entries = state["cancelled"]
    assert isinstance(entries, list)
    return [(c["seat"], c["call"], c["law"]) for c in entries]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_the_pass_after_the_pass_out_of_rotation_is_cancelled_with_it(
        ruleset: str) -> None:
    """Law 34 (2007 17E2, 2017 17D3; rubber 34): N P, E P, S P, then E passes at W's turn: the
    dealer's pass "has been followed by three passes", one out of rotation depriving W of his
    turn. S's pass that follows is one of "all subsequent passes": cancelled with E's, with no
    rectification and no option (the WBF commentary on 17E: a pass after the pass out of
    rotation "does not make him an offender"), and W's 1H is the next call."""
    state = play("N P, E P, S P, E P, S P, W 1H", ruleset=ruleset)
    assert calls(state) == "N P, E P, S P, W 1H" and state["turn"] == "N"
    assert cancelled(state) == [("E", "P", "34"), ("S", "P", "34")]
    assert kinds(state) == ["retention_of_right_to_call"]
    assert state["pending"] is None and state["must_pass"] == {}
    assert state["rectifications"] == [] and state["lead_restrictions"] == []
    waiting = play("N P, E P, S P, E P, S P", ruleset=ruleset)
    assert calls(waiting) == "N P, E P, S P" and waiting["turn"] == "W"
    assert waiting["pending"] is None and waiting["status"] == "auction"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_subsequent_passes_after_a_bid_and_the_auction_proceeds_normally(
        ruleset: str) -> None:
    """Law 34: N 1S, E P, S P, then E passes at W's turn (three passes after 1S, one out of
    rotation). S's pass that follows is cancelled under Law 34, not read as a change of his
    call (Law 25) or a pass out of rotation (Law 30): "the auction proceeds as though there had
    been no irregularity", so W's 2H stands and the auction ends normally."""
    state = play("N 1S, E P, S P, E P, S P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S P" and state["turn"] == "W"
    assert cancelled(state) == [("E", "P", "34"), ("S", "P", "34")]
    assert state["pending"] is None and kinds(state) == ["retention_of_right_to_call"]
    ended = play("N 1S, E P, S P, E P, S P, W 2H, N P, E P, S P", ruleset=ruleset)
    assert ended["contract"] == {"level": 2, "strain": "H", "risk": "", "declarer": "W"}
    assert ended["must_pass"] == {} and ended["rectifications"] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_all_subsequent_passes_whoever_makes_them(ruleset: str) -> None:
    """Law 34: "All subsequent passes are cancelled": the passes of N, of E again and of S, all
    made after E's pass out of rotation and before W, who missed his turn, has called, are
    cancelled; the turn stays W's."""
    state = play("N 1S, E P, S P, E P, N P, E P, S P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P, S P" and state["turn"] == "W"
    assert cancelled(state) == [("E", "P", "34"), ("N", "P", "34"), ("E", "P", "34"),
                                ("S", "P", "34")]
    assert state["pending"] is None and kinds(state) == ["retention_of_right_to_call"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_a_pass_after_the_reversion_at_rhos_turn_is_subsequent_too(ruleset: str) -> None:
    """Law 34, the pass out of rotation at RHO's turn: W passes at S's turn, N accepts it by
    passing (Law 29A), three passes follow 1S and the auction reverts to S. E's pass made
    before S has called is a subsequent pass, cancelled; S then calls and the auction proceeds
    normally."""
    state = play("N 1S, E P, W P, N P, E P", ruleset=ruleset)
    assert calls(state) == "N 1S, E P" and state["turn"] == "S"
    assert cancelled(state)[-1] == ("E", "P", "34") and state["pending"] is None
    ended = play("N 1S, E P, W P, N P, E P, S 2S, W P, N P, E P", ruleset=ruleset)
    assert ended["contract"] == {"level": 2, "strain": "S", "risk": "", "declarer": "N"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_ends_when_the_player_who_missed_his_turn_calls(ruleset: str) -> None:
    """Law 34: once W, who missed his turn, has called, the auction "proceeds normally": S's
    pass at N's turn after W's 1H is a pass out of rotation of its own (Law 30; rubber 30),
    awaiting W's option, not a subsequent pass of Law 34."""
    state = play("N P, E P, S P, E P, W 1H, S P", ruleset=ruleset)
    assert calls(state) == "N P, E P, S P, W 1H"
    assert cancelled(state) == [("E", "P", "34")]
    assert state["pending"] is not None and state["pending"]["kind"] == "pass_out_of_rotation"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_34_cancels_passes_only(ruleset: str) -> None:
    """Law 34 cancels "subsequent passes", not other calls: S's 1S after E's pass out of
    rotation is not cancelled under Law 34 (its own Law decides it)."""
    state = play("N P, E P, S P, E P, S 1S", ruleset=ruleset)
    assert ("S", "1S", "34") not in cancelled(state)
    assert cancelled(state)[0] == ("E", "P", "34")
