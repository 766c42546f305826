"""A table at a glance, for the director's overview of a tournament: its board in progress,
where the auction or the play stands, whose turn it is, and its director alerts, raised and
still open.

An alert is open until the director gives a ruling on its board after it (the director's
answer at the table); the alerts of a board that is over (passed out, or its play ended) are no
longer open (the table has gone on; the record keeps them).
"""

from __future__ import annotations

from typing import TypedDict

from shared.engine import TableState
from shared.vocabulary import TableStatus


class TableSummary(TypedDict):
    """A table's line in the overview: its board in progress and where it stands."""

    board: int | None  # the board in progress (the last started), None before the first
    status: TableStatus
    turn: str | None  # the seat due to call, or the hand due to play
    round: int | None  # the round in progress, if the director started one
    boards_left: int  # the round's boards still to start
    held: bool  # the director holds the table
    boards_finished: int  # boards over: passed out, or their play ended
    alerts: int  # director alerts raised on the table's boards
    open_alerts: int  # those of the board in progress not answered by a ruling since


def table_summary(state: TableState) -> TableSummary:
    """The table's line in the overview (JSON-ready)."""
    board = state.board
    finished = sum(1 for b in state.boards if b.period_over)
    summary: TableSummary = {
        "board": None, "status": TableStatus.WAITING, "turn": None, "round": state.round,
        "boards_left": len(state.queue), "held": state.held, "boards_finished": finished,
        "alerts": sum(len(b.alerts) for b in state.boards), "open_alerts": 0}
    if board is None:
        return summary
    ruled = max((r["event"] for r in board.rulings), default=-1)
    summary["board"] = board.board
    play = board.play
    turn = board.turn if play is None else play.turn
    summary["turn"] = turn.name if turn else None
    summary["open_alerts"] = 0 if board.period_over else \
        sum(1 for a in board.alerts if a.event > ruled)
    if not board.period_over:
        # auction, closed (the opening lead is awaited), or the play
        summary["status"] = TableStatus.PLAY if play is not None else TableStatus(board.status)
    elif state.queue:  # the round's next board waits: the director holds the table
        summary["status"] = TableStatus.HELD
    else:
        summary["status"] = TableStatus.DONE  # the round's last board, or a board started by hand
    return summary
