"""A table's line, as the Table Manager host reads it for `End of session` (after the round's
last board), is kept for a round the director started at a table outside a tournament too
(`POST /api/tables/{t}/rounds`): before, only a tournament's tables had one, so the robots at a
table's round were never told its end. A table of boards started one by one has none."""

from __future__ import annotations

import pytest

from shared.codec import encode, from_map
from shared.table.table_run import TableRun
from tests.helpers import DEAL

pytestmark = pytest.mark.unit

PASSES = [{"type": "call", "seat": seat, "call": "P"} for seat in "NESW"]  # dealer N


def run_of(events: list[dict[str, object]], meta: dict[str, object] | None = None) -> TableRun:
    run = TableRun("t", dict(meta or {}))
    for offset, event in enumerate(events):
        assert run.apply(offset, encode(from_map(event))) == []
    return run


def test_a_round_started_at_a_table_has_its_line_done_once_its_last_board_is_over() -> None:
    boards = [{"type": "board_started", "board": n, "deal": DEAL} for n in (1, 2)]
    run = run_of([{"type": "round_started", "round": 1, "boards": boards}, *PASSES])
    line = run.overview_line()
    assert line is not None
    assert (line["round"], line["board"], line["boards_left"], line["status"]) == (
        1, 2, 0, "auction")  # board 2 started by itself, the round's last
    run = run_of([{"type": "round_started", "round": 1, "boards": boards}, *PASSES,
                  *({**p, "seat": s} for p, s in zip(PASSES, "ESWN", strict=True))])
    line = run.overview_line()
    assert line is not None
    assert (line["round"], line["board"], line["boards_left"], line["status"]) == (
        1, 2, 0, "done")


def test_a_table_of_boards_started_one_by_one_has_no_line() -> None:
    run = run_of([{"type": "board_started", "board": 1, "deal": DEAL}, *PASSES])
    assert run.overview_line() is None
    assert run_of([{"type": "board_started", "board": 1, "deal": DEAL}],
                  {"tournament": "spring"}).overview_line() is not None
