"""A board left unfinished at a round's end scored by rule (`shared.tournament.unfinished`):
not started or in the auction, an artificial adjusted score (Law 12C2(a)), the side that took
more than its share of the time at fault; in the play with at most K tricks left, the
double-dummy result from the point reached (Law 12C1(b)), checked against the solver itself by
playing the rest out double-dummy; each a Director's score event with its reason."""

from __future__ import annotations

from typing import Any

import pytest

from services.robots.solver import solve
from shared import fold, from_map
from shared.calls import Strain
from shared.cards import Card
from shared.deal import parse_deal
from shared.events import Event
from shared.scores.adjustments import Artificial, Assigned
from shared.scores.movements import Seating
from shared.scores.vocabulary import Fault
from shared.seats import Seat
from shared.table.board_result import result_view
from shared.table.engine import TableState
from shared.table.think_times import SideTimes, table_times
from shared.tournament.director_scores import parse
from shared.tournament.unfinished import BOARD_MIN_MS, blame, round_unfinished
from tests.helpers import DEAL
from tests.script import lowest_legal

pytestmark = pytest.mark.unit

AUCTION = [("N", "1S"), ("E", "P"), ("S", "2S"), ("W", "P"), ("N", "4S"), ("E", "P"),
           ("S", "P"), ("W", "P")]  # N declares 4S, E leads, S is dummy
SEATING = Seating(1, 3, 5, (1, 2))  # pair 3 NS, pair 5 EW, boards 1 and 2
ROUND = {"type": "round_started", "round": 1, "ts": 0,
         "boards": [{"board": 1, "deal": DEAL}, {"board": 2, "deal": DEAL}]}


def _calls(start: int, ns_ms: int, ew_ms: int, count: int = 8) -> list[dict[str, Any]]:
    ts, maps = start, []
    for seat, call in AUCTION[:count]:
        ts += ns_ms if seat in "NS" else ew_ms
        maps.append({"type": "call", "seat": seat, "call": call, "ts": ts})
    return maps


def _cards(maps: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """`maps` with `count` cards more, each the lowest legal one, a second apart."""
    state = fold(from_map(m) for m in maps)
    ts = maps[-1]["ts"]
    for _ in range(count):
        ts += 1000
        card = {**lowest_legal(state, DEAL), "ts": ts}
        maps = [*maps, card]
        state = fold((from_map(card),), state)
    return maps


def _scores(maps: list[dict[str, Any]], k: int = 4) -> list[dict[str, Any]]:
    log: list[tuple[int, Event]] = [(i, from_map(m)) for i, m in enumerate(maps)]
    state = fold(e for _, e in log)
    return round_unfinished(state, table_times(log), SEATING, 1, k, solve)


def _checked(event: dict[str, Any]) -> Any:
    """The event read back as the tournament's record reads a Director's score."""
    return parse(event, {(1, 3, 5), (2, 3, 5)}, True).score


def test_law_12c2_a_board_in_the_auction_or_not_started_gets_an_artificial_score() -> None:
    """Law 12C2(a): no result could be obtained. EW took over 3/5 of the round's time: EW
    directly at fault (average minus), NS in no way (average plus), the reason in words."""
    scores = _scores([ROUND, *_calls(0, 2000, 60_000, count=5)])
    assert [(s["board"], s["kind"]) for s in scores] == [(1, "artificial"), (2, "artificial")]
    for event in scores:
        assert _checked(event) == Artificial(Fault.NONE, Fault.DIRECTLY)
    # 2 × 60 s of EW's against 3 × 2 s of NS's: the board's own (long enough), the round's
    assert "EW took 2 of the 2 minutes of the board" in scores[0]["reason"]
    assert "EW took 2 of the 2 minutes of the round" in scores[1]["reason"]
    assert "board 1 in the auction" in scores[0]["reason"]
    assert "board 2 not started" in scores[1]["reason"]


def test_law_12c2_neither_side_slower_than_its_share_both_average() -> None:
    """Law 12C2(a): neither side took over its share (3/5) of the time: both partly at fault,
    average."""
    scores = _scores([ROUND, *_calls(0, 10_000, 12_000, count=5)])
    assert [_checked(s) for s in scores] == [Artificial(Fault.PARTLY, Fault.PARTLY)] * 2


def test_law_12c2_the_boards_own_time_decides_once_it_is_long_enough() -> None:
    """Law 12C2(a): the board's times once its sides have thought long enough on it, else the
    round's (a board not started has none)."""
    slow_ns = SideTimes(ns_ms=BOARD_MIN_MS, ew_ms=1000)
    slow_ew_round = SideTimes(ns_ms=1000, ew_ms=10 * BOARD_MIN_MS)
    assert blame(slow_ns, slow_ew_round).slow == "NS"
    short = SideTimes(ns_ms=BOARD_MIN_MS // 2, ew_ms=0)
    assert blame(short, slow_ew_round).slow == "EW"
    assert blame(None, None).slow is None


def _held(state: TableState) -> dict[Seat, list[Card]]:
    board = state.boards[0]
    assert board.play is not None
    gone = board.play.played
    done = {c.index for c in board.play.cards[4 * board.play.done:]}
    return {seat: [c for suit, ranks in zip("SHDC", hand.split("."), strict=True)
                   for rank in ranks if (c := Card(suit, rank)).index not in gone - done]
            for seat, hand in parse_deal(DEAL).items()}


def _played_out_double_dummy(maps: list[dict[str, Any]]) -> int:
    """The board played to its end from where `maps` left it, each hand playing the card the
    solver says wins its side most tricks: the NS score it gets."""
    state = fold(from_map(m) for m in maps)
    while True:
        board = state.boards[0]  # board 1 (its end starts board 2)
        assert board.play is not None
        found = result_view(board)
        if found is not None:
            return found["score_ns"]
        play = board.play
        trick = play.cards[4 * play.done:]
        tricks = solve(_held(state), Strain.S, play.leader, trick)
        card = max(tricks, key=lambda c: tricks[c])
        seat = Seat((play.leader.index + len(trick)) % 4)
        by = {"by": "N"} if seat is Seat.S else {}
        state = fold((from_map({"type": "card_played", "seat": seat.name, "card": str(card),
                                **by}),), state)


@pytest.mark.parametrize("cards", [36, 38, 40, 43])
def test_at_most_k_tricks_left_the_double_dummy_result_from_the_point_reached(cards: int
                                                                             ) -> None:
    """In the play with at most K (4) tricks left, mid-trick too: the double-dummy result
    from there, an assigned score (Law 12C1(b)) equal to the board played out by the solver
    itself."""
    maps = _cards([ROUND, *_calls(0, 1000, 1000)], cards)
    scores = _scores(maps)
    assert scores[0]["kind"] == "assigned"
    assert _checked(scores[0]) == Assigned(_played_out_double_dummy(maps))
    assert f"{13 - cards // 4} tricks left" in scores[0]["reason"]
    assert scores[1]["kind"] == "artificial"  # board 2 not started


def test_more_than_k_tricks_left_an_artificial_score_k_the_directors() -> None:
    """Law 12C2(a): in the play with more than K tricks left, no result: artificial; the
    Director's K decides (5 tricks left: artificial at K 4, double-dummy at K 5)."""
    maps = _cards([ROUND, *_calls(0, 1000, 1000)], 32)  # 5 tricks left
    assert _scores(maps, k=4)[0]["kind"] == "artificial"
    assert "5 tricks left (over 4)" in _scores(maps, k=4)[0]["reason"]
    at_five = _scores(maps, k=5)[0]
    assert _checked(at_five) == Assigned(_played_out_double_dummy(maps))
    before_lead = _scores([ROUND, *_calls(0, 1000, 1000)], k=4)[0]
    assert before_lead["kind"] == "artificial"  # the lead awaited: 13 tricks left


def test_a_finished_board_or_one_the_director_scored_is_left_alone() -> None:
    """A board with its result, or a Director's score already, gets no score by rule."""
    maps = _cards([ROUND, *_calls(0, 1000, 1000)], 52)
    assert [s["board"] for s in _scores(maps)] == [2]
    log: list[tuple[int, Event]] = [(i, from_map(m)) for i, m in enumerate(maps)]
    state = fold(e for _, e in log)
    assert round_unfinished(state, table_times(log), SEATING, 1, 4, solve,
                            given={2: "assigned"}) == []
