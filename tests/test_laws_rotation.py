"""Laws 17–19 and 22: rotation, sufficiency, doubles and the end of the auction."""

from tests.script import calls, kinds, play


def test_law_17b_17c_dealer_calls_first_then_clockwise() -> None:
    """Law 17B: the dealer makes the first call; 17C: then each player in rotation."""
    state = play("E 1C, S P, W P, N P", board=2)
    assert state["dealer"] == "E"
    assert state["status"] == "closed"
    assert state["contract"] == {"level": 1, "strain": "C", "risk": "", "declarer": "E"}
    assert state["alerts"] == []


def test_law_17b_a_call_before_the_dealer_is_out_of_rotation() -> None:
    """Law 17B: on board 2 East deals; North calling first is out of rotation (Law 31)."""
    state = play("N 1C", board=2)
    assert kinds(state) == ["bid_out_of_rotation"]
    assert state["pending"]["at_turn"] == "E"


def test_law_18_sufficient_and_insufficient_bids() -> None:
    """Law 18B–D: a bid must supersede the last bid; Law 18E ranks NT > S > H > D > C."""
    assert play("N 1S, E 1NT, S 2C, W 2D")["alerts"] == []
    state = play("N 1NT, E 1S")
    assert kinds(state) == ["insufficient_bid"]
    assert state["alerts"][0]["law"] == "27"


def test_law_19a_double_only_an_opponents_last_bid() -> None:
    """Law 19A1: a double of an opponent's last bid is legal; of partner's bid it is not."""
    assert play("N 1H, E X")["alerts"] == []
    state = play("N 1H, E P, S X")
    assert kinds(state) == ["inadmissible_double"]
    assert play("N 1H, E X, S 1S, W X")["alerts"] == []


def test_law_19b_redouble_only_an_opponents_double() -> None:
    """Law 19B1: a redouble of an opponent's double is legal; of partner's double it is not."""
    assert play("N 1H, E X, S XX")["alerts"] == []
    assert kinds(play("N 1H, E X, S P, W XX")) == ["inadmissible_double"]
    assert kinds(play("N 1H, E P, S XX")) == ["inadmissible_double"]


def test_law_19c_a_bid_supersedes_a_double() -> None:
    """Law 19C: any double or redouble is superseded by a subsequent legal bid."""
    state = play("N 1H, E X, S 2H, W P, N P, E P")
    assert state["contract"] == {"level": 2, "strain": "H", "risk": "", "declarer": "N"}


def test_law_19d_doubled_and_redoubled_contracts() -> None:
    """Law 19D: a double or redouble not followed by a legal bid scores as such."""
    assert play("N 1H, E X, S P, W P, N P")["contract"]["risk"] == "X"
    assert play("N 1H, E X, S XX, W P, N P, E P")["contract"]["risk"] == "XX"


def test_law_22a_passed_out_duplicate_no_redeal() -> None:
    """Law 22A (duplicate): four passes, no contract, no redeal."""
    state = play("N P, E P, S P, W P")
    assert state["status"] == "passed_out"
    assert state["contract"] is None and state["turn"] is None
    assert "next_dealer" not in state


def test_rubber_law_22a_passed_out_deal_passes_in_rotation() -> None:
    """Rubber Law 22(a): a passed-out deal is abandoned and the deal passes in rotation."""
    state = play("N P, E P, S P, W P", ruleset="rubber")
    assert state["status"] == "passed_out"
    assert state["next_dealer"] == "E"


def test_law_22b_declarer_first_of_side_to_name_the_strain() -> None:
    """Law 22B: the final bid is the contract; declarer first named its strain for his side."""
    state = play("N P, E P, S 1H, W P, N 4H, E P, S P, W P")
    assert state["contract"] == {"level": 4, "strain": "H", "risk": "", "declarer": "S"}
    assert calls(state) == "N P, E P, S 1H, W P, N 4H, E P, S P, W P"


def test_the_auction_is_not_over_before_three_passes() -> None:
    """Rubber Law 17 / Law 22: three passes after a call close the auction, not fewer."""
    state = play("N 1H, E P, S P")
    assert state["status"] == "auction" and state["turn"] == "W"
    state = play("N P, E P, S P")
    assert state["status"] == "auction" and state["turn"] == "W"


def test_law_33_simultaneous_call_is_a_subsequent_call() -> None:
    """Law 33: a call made with that of the player whose turn it was is deemed subsequent:
    logged after East's call, West's call is a call out of rotation at South's turn."""
    state = play("N 1S, E 2C, W 2D")
    assert calls(state) == "N 1S, E 2C"
    assert state["pending"]["offender"] == "W" and state["pending"]["at_turn"] == "S"


def test_law_40_self_alert_and_explanation_are_recorded() -> None:
    """Law 40B: a special understanding is disclosed; the self-alert travels with the call."""
    state = play("N 1C!, E P", extra=[{"type": "call", "seat": "S", "call": "1D",
                                       "alert": True, "explanation": "transfer to hearts"}])
    assert state["alerted_calls"] == [
        {"seat": "N", "call": "1C", "alert": True},
        {"seat": "S", "call": "1D", "alert": True, "explanation": "transfer to hearts"},
    ]
