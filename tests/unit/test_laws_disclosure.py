"""Law 20F (rubber Law 20): questions about the opponents' calls and their explanations."""

import pytest

from shared import fold, from_map
from tests.script import kinds, log as script_log, play

RULESETS = [("duplicate", "20F1"), ("rubber", "20")]


@pytest.mark.parametrize(("ruleset", "law"), RULESETS)
def test_law_20f1_question_at_own_turn(ruleset: str, law: str) -> None:
    """Law 20F1 (rubber 20): at his own turn to call a player may ask about the opponents'
    auction; the question is recorded and raises no alert."""
    state = play("N 1C!, E asks 0", ruleset=ruleset)
    assert state["questions"] == [{"seat": "E", "index": 0, "in_turn": True, "event": 2}]
    assert state["alerts"] == [] and state["turn"] == "E"


@pytest.mark.parametrize(("ruleset", "law"), RULESETS)
def test_law_20f1_question_out_of_turn_alerts_director(ruleset: str, law: str) -> None:
    """Law 20F1 (rubber 20): only at his own turn; a question out of turn is recorded and the
    Director alerted (Law 16 may apply), the auction goes on unchanged."""
    state = play("N 1C!, W asks 0", ruleset=ruleset)
    assert kinds(state) == ["question_out_of_turn"]
    assert state["alerts"][0]["law"] == law and state["alerts"][0]["seat"] == "W"
    assert state["questions"][0]["in_turn"] is False and state["turn"] == "E"


def test_law_20f1_whole_auction_question() -> None:
    """Law 20F1: a full explanation of the opponents' auction: no call named."""
    state = play("N 1C, E P, S 1D, W asks")
    assert state["questions"] == [{"seat": "W", "index": None, "in_turn": True, "event": 4}]


def test_law_20f1_question_about_own_side_is_ignored() -> None:
    """Law 20F1: a player asks about the opponents' auction, not his partner's calls."""
    state = play("N 1C, E P, S asks 0")
    assert state["questions"] == [] and state["alerts"] == []
    assert "opponents" in state["ignored"][0]["reason"]


def test_law_20f2_question_after_final_pass() -> None:
    """Law 20F2: after the final pass a defender may ask; the turn to play is not tracked, so
    the question is recorded without an alert."""
    state = play("N 1NT, E P, S P, W P, W asks 0")
    assert state["status"] == "closed" and state["alerts"] == []
    assert state["questions"][0]["in_turn"] is True


@pytest.mark.parametrize("explainer", ["N", "S"])
def test_law_20f1_explanation_by_callers_side(explainer: str) -> None:
    """Law 20F1: the caller's partner explains (at the table), or the caller himself (the
    online self-alert); the explanation is recorded with who gave it."""
    state = play(f"N 1C!, E asks 0, {explainer} explains 0 16+ any shape")
    assert state["explanations"] == [{"index": 0, "caller": "N", "seat": explainer,
                                      "explanation": "16+ any shape", "event": 3}]


def test_law_20f1_explanation_by_an_opponent_is_ignored() -> None:
    """Law 20F1: only the caller's side explains his call."""
    state = play("N 1C!, E asks 0, W explains 0 natural")
    assert state["explanations"] == [] and "explains" in state["ignored"][0]["reason"]


def test_question_or_explanation_of_a_call_that_does_not_stand_is_ignored() -> None:
    """Law 20F: questions and explanations are about calls made (that stand)."""
    state = play("N 1C, E asks 5, N explains 7 strong")
    assert state["questions"] == [] and state["explanations"] == []
    assert len(state["ignored"]) == 2


def test_law_20f1_explanations_given_when_asked_are_exported() -> None:
    """Law 20F1: what the table was told of a call is part of the record: an explanation
    given when asked is written as the call's PBN note and LIN `an`."""
    from shared.notation.export import to_lin, to_pbn
    from tests.script import log

    events = log("N 1C!, E asks 0, S explains 0 16+ any shape, E P, S P, W P")
    pbn = to_pbn(events)
    assert "1C! =1=" in pbn and '[Note "1:16+ any shape"]' in pbn
    assert "mb|1C!|an|16+ any shape|" in to_lin(events)


def test_law_20f1_an_explanation_sent_as_ones_own_counts_only_for_ones_own_call() -> None:
    """Law 20F1, online self-alerting: an explanation sent as the sender's own call's (`own`,
    set by the gateway for a seat) is ignored when the call at that index is not his (the
    auction moved on since he looked): it never becomes a partner's explanation his partner
    would see."""
    events = [*script_log("N 1C, E P, S 1H, W P"),
              {"type": "explanation", "seat": "S", "index": 0, "explanation": "16+",
               "own": True},
              {"type": "explanation", "seat": "S", "index": 2, "explanation": "5 hearts",
               "own": True}]
    board = fold(from_map(m) for m in events).board
    assert board is not None
    assert [(e["seat"], e["index"]) for e in board.explanations] == [("S", 2)]
    assert "explains his own calls only" in board.ignored[0]["reason"]
