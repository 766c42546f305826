"""The tournament's clock as a fold of its topic's records (docs/scoring.md, "The clock")."""

from __future__ import annotations

from shared.tournament.clock import behind_time, clock_of, round_ends_at

T0 = 1_700_000_000_000


def test_a_round_lasts_its_boards_times_the_minutes_a_board() -> None:
    assert round_ends_at(T0, 3, 7) == T0 + 21 * 60_000
    assert round_ends_at(T0, 2, 0.5) == T0 + 60_000


def test_the_clock_is_the_last_timed_round_as_the_records_tell() -> None:
    records = [{"type": "round_started", "round": 1, "ts": T0, "ends_at": T0 + 1000},
               {"type": "round_ended", "round": 1},
               {"type": "round_started", "round": 2, "ts": T0 + 2000, "ends_at": T0 + 9000},
               {"type": "round_extended", "round": 2, "ends_at": T0 + 12_000},
               {"type": "round_extended", "round": 1, "ends_at": 5}]  # an old round's: nothing
    clock = clock_of(records)
    assert clock is not None
    assert (clock.round, clock.started, clock.ends_at, clock.over) == (2, T0 + 2000,
                                                                        T0 + 12_000, False)
    assert clock.left_at(T0 + 11_000) == 1000 and clock.left_at(T0 + 99_000) == 0
    assert clock_of([*records, {"type": "round_ended", "round": 2}]).over  # type: ignore[union-attr]
    assert clock_of([*records, {"type": "round_started", "round": 3, "ts": 1}]) is None


def test_a_held_clock_keeps_the_time_it_had_until_given_an_end_again() -> None:
    records = [{"type": "round_started", "round": 1, "ts": T0, "ends_at": T0 + 10_000},
               {"type": "clock_held", "round": 1, "left": 4000}]
    held = clock_of(records)
    assert held is not None and held.held and held.left_at(T0 + 99_999) == 4000
    again = clock_of([*records, {"type": "round_extended", "round": 1, "ends_at": T0 + 50_000}])
    assert again is not None and not again.held and again.left_at(T0 + 49_000) == 1000


def test_a_table_is_behind_when_its_boards_not_started_need_more_than_the_time_left() -> None:
    """7 minutes a board, a round of three: at its start two boards wait, 14 minutes of 21."""
    ends = T0 + 21 * 60_000
    assert not behind_time(ends, T0, 2, 7)
    assert not behind_time(ends, T0 + 7 * 60_000, 2, 7)  # 14 minutes left: just in time
    assert behind_time(ends, T0 + 7 * 60_000 + 1, 2, 7)  # board 1 still going at 7 min
    assert not behind_time(ends, ends + 5, 0, 7)  # the last board in play: never behind
