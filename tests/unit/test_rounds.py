"""Rounds: a table's boards start by themselves, each when the one before is over (all four
pass, Law 22A; or its play period ends: the thirteenth trick, a claim agreed or ruled, a result
recorded, Laws 44, 69, 70, 79A), exactly once, whoever folds the log and however; the director
may hold the table."""

from __future__ import annotations

from typing import Any

import pytest

from shared.codec import EventError, decode, encode, from_map, to_map
from shared.events import Event
from shared.table.engine import TableState, evolve, fold
from tests.helpers import DEAL


def ev(**m: Any) -> Event:
    return from_map(m)


def round_of(*boards: int, number: int = 1) -> Event:
    return ev(type="round_started", round=number, ts=1000,
              boards=[{"board": b, "deal": DEAL} for b in boards])


def passes(first: str, seq: int, ts: int = 2000) -> list[Event]:
    """Four passes from `first` in rotation, with client_seqs from `seq`."""
    seats = "NESW" * 2
    start = seats.index(first)
    return [ev(type="call", seat=seats[start + i], call="P", client_seq=seq + i, ts=ts)
            for i in range(4)]


def test_a_round_starts_its_first_board_at_once_and_the_next_when_all_four_pass() -> None:
    """Law 17E: a pass-out ends the auction period; the round's next board starts at once
    (its dealer from the board number, Law 2), at the time of the fourth pass."""
    state = fold([round_of(1, 2, 3)])
    assert state.board is not None and state.board.board == 1 and state.queue
    assert state.board.started_ts == 1000
    state = fold(passes("N", 1, ts=5000), state)
    assert [b.board for b in state.boards] == [1, 2]
    assert state.board is not None and state.board.turn.name == "E"  # board 2: East deals
    assert state.board.started_ts == 5000 and state.round == 1


def test_a_board_played_out_waits_for_the_end_of_its_play() -> None:
    """2017 Law 17D1: after the final pass the clarification period runs until a defender
    faces the opening lead; the play follows, and the next board starts when it ends (here a
    result recorded at the table, Law 79A), not at the lead."""
    state = fold([round_of(1, 2)])
    state = fold([ev(type="call", seat="N", call="1S"), *passes("E", 10)[:3]], state)
    assert state.board is not None and state.board.board == 1  # the auction is over: not yet
    state = evolve(state, ev(type="opening_lead", seat="E", card="HQ"))
    assert state.board is not None and state.board.board == 1  # the lead: the play goes on
    assert state.board.auction_period_over and not state.board.period_over
    state = evolve(state, ev(type="result_recorded", tricks=7))
    assert [b.board for b in state.boards] == [1, 2] and state.queue == ()


def test_the_last_board_of_a_round_stays_until_the_director_starts_another() -> None:
    state = fold([round_of(7), *passes("S", 1)])
    assert [b.board for b in state.boards] == [7]
    state = fold([round_of(8, 9, number=2)], state)
    assert [b.board for b in state.boards] == [7, 8] and state.round == 2


def test_a_round_started_during_a_board_waits_for_its_end() -> None:
    state = fold([ev(type="board_started", board=5), ev(type="call", seat="N", call="1S"),
                  round_of(6)])
    assert state.board is not None and state.board.board == 5 and len(state.queue) == 1
    state = fold([*passes("E", 1)[:3], ev(type="opening_lead", seat="E", card="HK")], state)
    assert [b.board for b in state.boards] == [5]  # the play goes on
    state = fold([ev(type="result_recorded", tricks=8)], state)
    assert [b.board for b in state.boards] == [5, 6]


def test_a_round_sent_again_changes_nothing() -> None:
    """A tournament's round is sent to every table, and again after a fault: a table that has
    started the round (or a later one) keeps its boards; only a later round starts."""
    state = fold([round_of(1, 2), *passes("N", 1)])
    again = fold([round_of(1, 2), round_of(1, 2, number=1)], state)
    assert again == state
    later = fold([round_of(5, number=2)], state)
    assert later.round == 2 and [b.board for b in later.queue] == [5]


def test_a_held_table_waits_and_goes_on_when_let_go() -> None:
    state = fold([round_of(1, 2), ev(type="table_held", held=True), *passes("N", 1)])
    assert [b.board for b in state.boards] == [1] and state.held
    state = evolve(state, ev(type="table_held", held=False, ts=9000))
    assert [b.board for b in state.boards] == [1, 2]
    assert state.board is not None and state.board.started_ts == 9000


def test_a_retry_of_the_call_that_ended_a_board_is_not_a_call_on_the_next() -> None:
    """The gateway may append a call twice (a 503, then the retry with the same client_seq):
    the board the round started meanwhile knows the client_seq, and folds nothing."""
    ended = passes("N", 1)
    state = fold([round_of(1, 2), *ended, ended[-1]])
    assert state.board is not None and state.board.board == 2
    assert state.board.events == 0 and state.board.pending is None  # nothing folded on it


def test_folding_at_once_or_event_by_event_gives_the_same_table() -> None:
    """The processor folds a table event by event, a replay all at once: the same boards
    start at the same events."""
    log = [round_of(1, 2, 3), *passes("N", 1), ev(type="call", seat="E", call="1H"),
           ev(type="table_held", held=True), *passes("S", 10)[:3],
           ev(type="opening_lead", seat="S", card="SA"), ev(type="result_recorded", tricks=7),
           ev(type="table_held", held=False),
           *passes("S", 20)]
    at_once = fold(log)
    one_by_one = TableState()
    for event in log:
        one_by_one = evolve(one_by_one, decode(encode(event)))
    assert [b.to_dict() for b in at_once.boards] == [b.to_dict() for b in one_by_one.boards]
    assert [b.board for b in at_once.boards] == [1, 2, 3]
    assert (at_once.queue, at_once.held) == (one_by_one.queue, one_by_one.held) == ((), False)


def test_round_and_hold_events_round_trip_through_the_codec() -> None:
    for event in (round_of(1, 2), ev(type="table_held", held=True, id="h-1")):
        assert from_map(to_map(event)) == event
        assert decode(encode(event)) == event


@pytest.mark.parametrize(("m", "field"), [
    ({"round": 1}, "boards"),
    ({"round": 1, "boards": []}, "boards"),
    ({"boards": [{"board": 1}]}, "round"),
    ({"round": 1, "boards": [{"board": 1}, {"board": 2, "deal": "N:AKQ"}]}, "boards[1].deal"),
    ({"round": 1, "boards": [{"board": 1}, "2"]}, "boards[1]"),
])
def test_a_bad_round_names_the_field_at_fault(m: dict[str, Any], field: str) -> None:
    with pytest.raises(EventError) as refused:
        from_map({"type": "round_started", **m})
    assert refused.value.field == field


def test_a_hold_must_say_whether() -> None:
    with pytest.raises(EventError) as refused:
        from_map({"type": "table_held"})
    assert refused.value.field == "held"
