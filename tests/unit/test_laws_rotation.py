"""Laws 17–19, 22, 33 and 40: rotation, sufficiency, doubles, the end of the auction, and
disclosure. The two rulesets agree on these, except where a test says otherwise."""

import pytest

from tests.script import board_of, calls, kinds, play

RULESETS = ["duplicate", "rubber"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_17b_17c_dealer_calls_first_then_clockwise(ruleset: str) -> None:
    """Law 17B: the dealer makes the first call; 17C: then each player in rotation."""
    state = play("E 1C, S P, W P, N P", board=2, ruleset=ruleset)
    assert state["dealer"] == "E"
    assert state["status"] == "closed"
    assert state["contract"] == {"level": 1, "strain": "C", "risk": "", "declarer": "E"}
    assert state["alerts"] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_17b_a_call_before_the_dealer_is_out_of_rotation(ruleset: str) -> None:
    """Law 17B: on board 2 East deals; North calling first is out of rotation (Law 31)."""
    state = play("N 1C", board=2, ruleset=ruleset)
    assert kinds(state) == ["bid_out_of_rotation"]
    assert state["pending"]["at_turn"] == "E"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_18_sufficient_and_insufficient_bids(ruleset: str) -> None:
    """Law 18B–D: a bid must supersede the last bid; Law 18E ranks NT > S > H > D > C."""
    assert play("N 1S, E 1NT, S 2C, W 2D", ruleset=ruleset)["alerts"] == []
    state = play("N 1NT, E 1S", ruleset=ruleset)
    assert kinds(state) == ["insufficient_bid"]
    assert state["alerts"][0]["law"] == "27"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_19a_double_only_an_opponents_last_bid(ruleset: str) -> None:
    """Law 19A1: a double of an opponent's last bid is legal; of partner's bid it is not."""
    assert play("N 1H, E X", ruleset=ruleset)["alerts"] == []
    state = play("N 1H, E P, S X", ruleset=ruleset)
    assert kinds(state) == ["inadmissible_double"]
    assert play("N 1H, E X, S 1S, W X", ruleset=ruleset)["alerts"] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_19b_redouble_only_an_opponents_double(ruleset: str) -> None:
    """Law 19B1: a redouble of an opponent's double is legal; of partner's double it is not."""
    assert play("N 1H, E X, S XX", ruleset=ruleset)["alerts"] == []
    assert kinds(play("N 1H, E X, S P, W XX", ruleset=ruleset)) == ["inadmissible_double"]
    assert kinds(play("N 1H, E P, S XX", ruleset=ruleset)) == ["inadmissible_double"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_19c_a_bid_supersedes_a_double(ruleset: str) -> None:
    """Law 19C: any double or redouble is superseded by a subsequent legal bid."""
    state = play("N 1H, E X, S 2H, W P, N P, E P", ruleset=ruleset)
    assert state["contract"] == {"level": 2, "strain": "H", "risk": "", "declarer": "N"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_19d_doubled_and_redoubled_contracts(ruleset: str) -> None:
    """Law 19D: a double or redouble not followed by a legal bid scores as such."""
    assert play("N 1H, E X, S P, W P, N P", ruleset=ruleset)["contract"]["risk"] == "X"
    assert play("N 1H, E X, S XX, W P, N P, E P", ruleset=ruleset)["contract"]["risk"] == "XX"


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


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_22b_declarer_first_of_side_to_name_the_strain(ruleset: str) -> None:
    """Law 22B: the final bid is the contract; declarer first named its strain for his side."""
    state = play("N P, E P, S 1H, W P, N 4H, E P, S P, W P", ruleset=ruleset)
    assert state["contract"] == {"level": 4, "strain": "H", "risk": "", "declarer": "S"}
    assert calls(state) == "N P, E P, S 1H, W P, N 4H, E P, S P, W P"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_auction_is_not_over_before_three_passes(ruleset: str) -> None:
    """Rubber Law 17 / Law 22: three passes after a call close the auction, not fewer."""
    state = play("N 1H, E P, S P", ruleset=ruleset)
    assert state["status"] == "auction" and state["turn"] == "W"
    state = play("N P, E P, S P", ruleset=ruleset)
    assert state["status"] == "auction" and state["turn"] == "W"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_33_simultaneous_call_is_a_subsequent_call(ruleset: str) -> None:
    """Law 33: a call made with that of the player whose turn it was is deemed subsequent:
    logged after East's call, West's call is a call out of rotation at South's turn."""
    state = play("N 1S, E 2C, W 2D", ruleset=ruleset)
    assert calls(state) == "N 1S, E 2C"
    assert state["pending"]["offender"] == "W" and state["pending"]["at_turn"] == "S"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_law_40_self_alert_and_explanation_are_recorded(ruleset: str) -> None:
    """Law 40B: a special understanding is disclosed; the self-alert travels with the call."""
    state = play("N 1C!, E P", ruleset=ruleset, extra=[{"type": "call", "seat": "S", "call": "1D",
                                       "alert": True, "explanation": "transfer to hearts"}])
    assert state["alerted_calls"] == [
        {"seat": "N", "call": "1C", "alert": True},
        {"seat": "S", "call": "1D", "alert": True, "explanation": "transfer to hearts"},
    ]


def test_laws_18_19_legal_calls_for_the_player_on_turn() -> None:
    """Laws 18–19: the calls open to the player on turn; Law 37: only a pass for a player
    required to pass; none while an irregularity waits for the option holder."""
    east = [str(c) for c in board_of("N 1H").legal_calls()]
    assert east[:2] == ["P", "X"] and east[2] == "1S" and east[-1] == "7NT" and len(east) == 34
    south = [str(c) for c in board_of("N 1H, E X").legal_calls()]
    assert south[:2] == ["P", "XX"] and len(south) == 34
    assert [str(c) for c in board_of("N 1S, E 1H, S decline, E 3H, S P").legal_calls()] == ["P"]
    assert board_of("N 1S, E 1H").legal_calls() == []
    assert board_of("N 1H, E P, S P, W P").legal_calls() == []
