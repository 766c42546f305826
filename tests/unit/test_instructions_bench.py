"""The instructions bench's slice and arithmetic (bench/instructions_bench.py), not its speed:
each table plays a warm-up board then a counted one, one event a round; a side's count is
divided by its own events once the toggles' own cost is taken off."""

from __future__ import annotations

import pytest

from bench.instructions_bench import (
    RECORD,
    by_library,
    counted_events,
    outside_interpreter,
    per_event,
    rows_of,
    slice_of,
    spread,
    totals_of,
)
from bench.whole_boards import whole_boards


def test_each_table_plays_a_warm_up_board_then_a_counted_one_in_order() -> None:
    boards = whole_boards(RECORD)
    rounds = slice_of(boards, 3)
    for i in range(3):
        moves = [m for r in rounds for m in r if m.table == f"t{i}"]
        warm = [m for m in moves if not m.counted]
        count = [m for m in moves if m.counted]
        assert moves == warm + count  # the warm-up wholly before the counted board
        assert [m.step for m in warm] == boards[i].steps
        assert [m.step for m in count] == boards[i + 3].steps
        # the director's start before each board's first event only, with the record's deal
        assert [m.start for m in moves if m.start] == [
            {"board": 1, **boards[i].start}, {"board": 2, **boards[i + 3].start}]
    assert all(len({m.table for m in r}) == len(r) for r in rounds)  # one event a table
    assert all(len({m.counted for m in r}) == 1 for r in rounds)  # a round counted or not
    assert counted_events(rounds) == sum(len(boards[i + 3].steps) for i in range(3))


def test_a_record_too_short_for_the_tables_is_refused() -> None:
    boards = whole_boards(RECORD)
    with pytest.raises(ValueError, match="whole boards"):
        slice_of(boards, len(boards) // 2 + 1)


def test_the_toggles_own_cost_is_taken_off_before_dividing() -> None:
    assert per_event(total=1_250_000, idle=50_000, events=400) == 3_000
    with pytest.raises(ValueError):
        per_event(1, 0, 0)
    assert spread([1000, 1010, 1005]) == pytest.approx(0.01)


def test_the_totals_and_rows_are_read_from_callgrinds_outputs() -> None:
    assert totals_of("events: Ir\nsummary: 1234\ntotals: 1234\n") == 1234
    with pytest.raises(ValueError):
        totals_of("events: Ir\n")
    annotated = """
743,991,712 (100.0%)  PROGRAM TOTALS
231,195,561 (31.08%)  /b/Python-3.11/Python/ceval.c:_PyEval_EvalFrameDefault'2 [/p/libpython3.11.so]
 18,959,391 ( 2.55%)  /b/Python-3.11/Objects/obmalloc.c:_PyObject_Free [/p/libpython3.11.so]
  7,225,773 ( 0.97%)  /b/Python-3.11/./Include/object.h:_PyFrame_Clear
  5,057,555 ( 0.68%)  ???:0x00000000000284f0 [/v/orjson/orjson.cpython-311-x86_64.so]
  4,000,000 ( 0.50%)  ???:loads [/v/orjson/orjson.cpython-311-x86_64.so]
  5,607,697 ( 0.75%)  ./string/memset.S:__memset_avx2_unaligned_erms [/usr/lib/libc.so.6]
"""
    rows = rows_of(annotated)
    assert len(rows) == 6  # the totals' line is not a function's
    assert by_library(rows) == [(231_195_561 + 18_959_391 + 7_225_773,
                                 "the interpreter (Python code)"),
                                (9_057_555, "orjson"), (5_607_697, "libc")]
    # outside the interpreter: named functions, largest first
    assert [r.function for r in outside_interpreter(rows, 5)] == [
        "__memset_avx2_unaligned_erms", "loads"]
