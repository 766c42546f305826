"""The calls open to the player in turn, as a board's state gives them to a bidding box: only
sufficient bids (Law 18C), a double of an opponent's bid and a redouble of an opponent's double
(Law 19), and only a pass under an obligation to pass (e.g. Law 27B2)."""

from __future__ import annotations

from tests.script import play


def test_a_sufficient_bid_and_a_double_of_the_opponents_bid_are_open() -> None:
    """Law 18C: only bids that supersede 1S; Law 19A1: East may double North's bid."""
    state = play("N 1S")
    assert state["turn"] == "E"
    assert "1S" not in state["open_calls"] and "1H" not in state["open_calls"]
    assert {"P", "X", "1NT", "2C", "7NT"} <= set(state["open_calls"])
    assert "XX" not in state["open_calls"]


def test_partners_bid_cannot_be_doubled_and_a_double_can_be_redoubled() -> None:
    """Law 19A1: South may not double his partner's bid; Law 19B1: after East's double,
    South may redouble."""
    state = play("N 1S, E P")
    assert "X" not in state["open_calls"]
    state = play("N 1S, E X")
    assert "XX" in state["open_calls"] and "X" not in state["open_calls"]


def test_an_obligation_to_pass_leaves_only_pass() -> None:
    """Law 27B2: East replaces his insufficient bid by a pass; West must pass throughout."""
    state = play("N 1S, E 1H, S decline, E P, S P")
    assert state["turn"] == "W" and state["open_calls"] == ["P"]


def test_no_call_is_open_while_an_option_is_pending_or_after_the_auction() -> None:
    """Law 27A: South's option over East's insufficient bid comes first; after three passes
    (Law 22) nobody calls."""
    assert play("N 1S, E 1H")["open_calls"] == []
    assert play("N 1S, E P, S P, W P")["open_calls"] == []
