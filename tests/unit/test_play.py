"""The play of the hand folded: tricks, their winners (Law 44), whose turn (dummy's is
declarer's to play, Law 45), the tricks won, the end of play and the board's result."""

from __future__ import annotations

from typing import Any

import pytest

from shared import fold, from_map
from shared.cards import Card
from shared.seats import Seat
from shared.table.engine import TableState
from shared.table.play import trick_winner
from tests.helpers import DEAL
from tests.script import lowest_legal

pytestmark = pytest.mark.unit

AUCTION = [("N", "1S"), ("E", "P"), ("S", "2S"), ("W", "P"), ("N", "4S"), ("E", "P"),
           ("S", "P"), ("W", "P")]  # N declares 4S, E leads, S is dummy


def events(*maps: dict[str, Any]) -> list[Any]:
    return [from_map(m) for m in maps]


def auction(board: int = 1, ruleset: str = "duplicate", bids: list[tuple[str, str]] = AUCTION,
            **start: Any) -> TableState:
    """The board after its auction, with no irregularity (N deals unless told)."""
    state = fold(events({"type": "board_started", "board": board, "deal": DEAL,
                         "ruleset": ruleset, **start},
                        *({"type": "call", "seat": s, "call": c} for s, c in bids)))
    assert state.board is not None and state.board.alerts == ()
    return state


def play_out(state: TableState, cards: int) -> TableState:
    for _ in range(cards):
        state = fold(events(lowest_legal(state, DEAL)), state)
    return state


def test_law_44_the_highest_card_of_the_suit_led_wins_unless_trumped() -> None:
    """Law 44E–F: a trick with a trump is won by the highest trump; without, by the highest
    card of the suit led (a higher card of another suit does not win)."""
    def trick(*cards: str) -> list[tuple[Seat, Card]]:
        return [(seat, Card.parse(c)) for seat, c in zip(Seat, cards, strict=True)]
    assert trick_winner(trick("H5", "HK", "SA", "H2"), None) is Seat.E  # no trump: SA discards
    assert trick_winner(trick("H5", "HK", "S2", "H2"), "S") is Seat.S  # ruffed
    assert trick_winner(trick("H5", "S3", "S2", "HA"), "S") is Seat.E  # over-ruffed
    assert trick_winner(trick("S5", "SK", "HA", "S2"), "S") is Seat.E  # trumps led
    assert trick_winner(trick("DT", "D9", "DJ", "CA"), "H") is Seat.S


def test_the_opening_lead_is_the_first_card_and_dummy_is_declarers_to_play() -> None:
    """Law 41A: declarer's LHO leads; the lead is the opening lead (2017 Law 17D1 ends the
    auction period). Law 45: dummy's card is due next, played by declarer from dummy's
    hand: the turn names the hand (S, dummy)."""
    state = fold(events({"type": "card_played", "seat": "E", "card": "DA"}), auction())
    view = state.board.to_dict() if state.board else {}
    assert view["opening_lead"] == {"seat": "E", "card": "DA"}
    assert view["auction_period_ended"] and view["on_lead"] is None
    play = view["play"]
    assert (play["declarer"], play["dummy"], play["trump"], play["turn"]) == ("N", "S", "S", "S")
    assert play["tricks"] == [{"leader": "E", "cards": [{"seat": "E", "card": "DA"}],
                               "winner": None}]
    assert view["result"] is None


def test_an_old_logs_opening_lead_folds_as_the_first_card() -> None:
    """Older logs hold `opening_lead` (Law 41A): it folds as the first `card_played` does."""
    old = fold(events({"type": "opening_lead", "seat": "E", "card": "DA"}), auction())
    new = fold(events({"type": "card_played", "seat": "E", "card": "DA"}), auction())
    assert old.board is not None and new.board is not None
    assert old.board.to_dict() == new.board.to_dict()


def test_a_whole_board_plays_thirteen_tricks_to_its_result() -> None:
    """Law 44G: the winner of a trick leads to the next; after the thirteenth trick the play
    ends and the board has its result: declarer's tricks and the score (Law 77)."""
    state = play_out(auction(), 51)
    board = state.board
    assert board is not None and board.play is not None and board.to_dict()["result"] is None
    state = play_out(state, 1)
    view = state.board.to_dict() if state.board else {}
    play = view["play"]
    assert len(play["tricks"]) == 13 and all(t["winner"] for t in play["tricks"])
    assert play["won"]["NS"] + play["won"]["EW"] == 13 and play["ended"] == "tricks"
    assert play["turn"] is None
    for before, after in zip(play["tricks"], play["tricks"][1:], strict=False):
        assert after["leader"] == before["winner"]
    tricks = play["won"]["NS"]
    assert view["result"]["declarer_tricks"] == tricks
    expected = 420 if tricks == 10 else 450 if tricks == 11 else 480 if tricks == 12 else \
        510 if tricks == 13 else -50 * (10 - tricks)  # board 1: nobody vulnerable
    assert view["result"]["score_ns"] == expected
    assert view["ignored"] == [] and view["alerts"] == []


def test_a_rounds_next_board_starts_when_the_play_ends() -> None:
    """A round's next board starts at the end of the play (the thirteenth trick), not at the
    opening lead."""
    start = fold(events({"type": "round_started", "round": 1, "boards": [
        {"board": 1, "deal": DEAL}, {"board": 2, "deal": DEAL}]},
        *({"type": "call", "seat": s, "call": c} for s, c in AUCTION)))
    state = play_out(start, 51)
    assert [b.board for b in state.boards] == [1]
    state = play_out(state, 1)
    assert [b.board for b in state.boards] == [1, 2]
    assert state.boards[0].to_dict()["result"] is not None


@pytest.mark.parametrize(("card", "seat", "reason"), [
    ("SA", "E", "SA is not in E's hand"),
    ("DA", "E", "DA has been played already"),
])
def test_a_card_not_held_or_already_played_changes_nothing(card: str, seat: str,
                                                           reason: str) -> None:
    """A card the hand was not dealt, or one played already, is bad input the gateway refuses;
    one that reaches the fold anyway is noted and ignored."""
    state = fold(events({"type": "card_played", "seat": "E", "card": "DA"},
                        {"type": "card_played", "seat": "S", "card": "D6"}), auction())
    after = fold(events({"type": "card_played", "seat": seat, "card": card}), state)
    assert after.board is not None and state.board is not None
    view = after.board.to_dict()
    assert view["ignored"][-1]["reason"] == reason
    assert view["play"] == state.board.to_dict()["play"]


def test_a_passed_out_board_has_its_result_at_once() -> None:
    """Law 22A: four passes; the result: no tricks, 0."""
    state = auction(bids=[("N", "P"), ("E", "P"), ("S", "P"), ("W", "P")])
    assert state.board is not None
    assert state.board.to_dict()["result"] == {"declarer_tricks": None, "score_ns": 0}
    assert state.board.to_dict()["play"] is None


def test_law_79a_a_result_recorded_ends_the_play() -> None:
    """Law 79A: the tricks agreed at the table, recorded without the cards: the play ends."""
    state = fold(events({"type": "result_recorded", "tricks": 11}), auction(board=2, dealer="N"))
    view = state.board.to_dict() if state.board else {}
    assert view["result"] == {"declarer_tricks": 11, "score_ns": 650}  # board 2: NS vul
    assert view["play"]["ended"] == "recorded"
    later = fold(events({"type": "card_played", "seat": "E", "card": "DA"}), state)
    assert later.board is not None and later.board.to_dict()["ignored"][-1]["reason"] == \
        "the play is over"


def test_law_79a_a_seats_result_is_a_proposal_the_other_side_agrees_to() -> None:
    """Law 79A: the number of tricks is agreed by all four players. A defender's result
    (E: declarer 0 tricks, before the lead) does not end the play: it is E's claim of the 13
    tricks left (Law 68), agreed only once declarer acquiesces (Law 69A); declarer's own
    (N: 11 tricks, one trick won by E) needs both defenders, and a dispute goes to the
    Director (Law 70). The tricks agreed are the proposal's."""
    proposed = fold(events({"type": "result_recorded", "tricks": 0, "seat": "E"}), auction())
    board = proposed.board
    assert board is not None and board.to_dict()["result"] is None and board.play is not None
    assert board.play.ended is None and board.play.claim is not None
    claim = board.to_dict()["play"]["claim"]  # type: ignore[index]
    assert (claim["seat"], claim["tricks"], claim["remaining"]) == ("E", 13, 13)
    assert "declarer 0 tricks in all (Law 79A)" in claim["statement"]
    agreed = fold(events({"type": "claim_response", "seat": "N", "accept": True}), proposed)
    assert agreed.board is not None and agreed.board.to_dict()["result"] == {
        "declarer_tricks": 0, "score_ns": -500}  # 4S down 10, not vulnerable (Law 77)
    assert agreed.board.play is not None and agreed.board.play.ended == "claim"

    trick = play_out(auction(), 4)  # E's ♦A wins the first trick
    assert trick.board is not None and trick.board.play is not None
    assert (trick.board.play.won_ns, trick.board.play.won_ew) == (0, 1)
    declarers = fold(events({"type": "result_recorded", "tricks": 11, "seat": "N"},
                            {"type": "claim_response", "seat": "E", "accept": True}), trick)
    assert declarers.board is not None and declarers.board.to_dict()["result"] is None
    done = fold(events({"type": "claim_response", "seat": "W", "accept": True}), declarers)
    assert done.board is not None and done.board.to_dict()["result"] == {
        "declarer_tricks": 11, "score_ns": 450}
    disputed = fold(events({"type": "claim_response", "seat": "W", "accept": False}),
                    declarers)
    assert disputed.board is not None and disputed.board.to_dict()["result"] is None
    assert [a.kind for a in disputed.board.alerts] == ["claim_disputed"]


@pytest.mark.parametrize(("seat", "tricks", "why"), [
    ("W", 13, "13 tricks for declarer: his side has won 1 and 11 remain (Law 79A)"),
    ("N", 0, "0 tricks for declarer: his side has won 1 and 11 remain (Law 79A)"),
    ("E", 0, "0 tricks for declarer: his side has won 1 and 11 remain (Law 79A)"),
    ("S", 10, "dummy may not claim (Law 43A)")])
def test_law_79a_a_seats_result_never_takes_a_trick_won_nor_comes_from_dummy(
        seat: str, tricks: int, why: str) -> None:
    """Law 79A with Laws 68, 43A: once each side has won a trick, declarer's tricks in all
    are at least 1 and at most 12, whoever proposes them; dummy proposes none (he may not
    claim). Such a proposal is ignored, saying why; the play goes on."""
    trick = play_out(auction(), 8)
    after = fold(events({"type": "result_recorded", "tricks": tricks, "seat": seat}), trick)
    board = after.board
    assert board is not None and board.to_dict()["result"] is None and board.play is not None
    assert board.play.claim is None and board.to_dict()["ignored"][-1]["reason"] == why


def test_law_79a_a_result_recorded_with_no_seat_stands_as_given() -> None:
    """Law 79A: the operator's or the Director's record of the tricks (no `seat`; a record
    imported too) stands, even fewer than declarer has won (a revoke's transfer, Law 64, or
    the record's own number)."""
    trick = play_out(auction(), 8)  # a trick each
    after = fold(events({"type": "result_recorded", "tricks": 0}), trick)
    assert after.board is not None and after.board.to_dict()["result"] == {
        "declarer_tricks": 0, "score_ns": -500}


def test_laws_70_71_the_directors_tricks_end_the_play() -> None:
    """Laws 70–71: the Director rules the tricks declarer wins; the play ends with them."""
    state = fold(events({"type": "card_played", "seat": "E", "card": "DA"},
                        {"type": "ruling", "action": "tricks", "tricks": 9}),
                 auction(board=3, dealer="N"))
    view = state.board.to_dict() if state.board else {}
    assert view["result"] == {"declarer_tricks": 9, "score_ns": -50}  # board 3: EW vul
    assert view["rulings"][-1]["tricks"] == 9 and view["play"]["ended"] == "ruling"


def test_rubber_the_deals_score_and_the_rubber_carry_from_deal_to_deal() -> None:
    """Rubber Laws 72–77: a game made (100 below the line) then a second wins the rubber,
    with 700 when the opponents have no game; honours count for the side holding them
    (here none)."""
    first = fold(events({"type": "result_recorded", "tricks": 10}), auction(ruleset="rubber"))
    assert first.board is not None
    assert first.board.to_dict()["result"] == {"declarer_tricks": 10, "score_ns": 120}
    second = fold(events({"type": "board_started", "board": 2, "deal": DEAL,
                          "ruleset": "rubber"},
                         *({"type": "call", "seat": s, "call": c} for s, c in
                           [("E", "P"), ("S", "P"), ("W", "P"), ("N", "4S"), ("E", "P"),
                            ("S", "P"), ("W", "P")]),
                         {"type": "result_recorded", "tricks": 10}), first)
    assert second.board is not None and second.board.rubber is not None
    assert second.board.rubber.games_ns == 1  # vulnerable: a game won
    assert second.board.to_dict()["result"] == {"declarer_tricks": 10, "score_ns": 820}
