"""A table at a glance, for the director's overview of a tournament: its board in progress,
where the auction or the play stands, whose turn it is, and its director alerts, raised and
still open.

An alert is open until the director gives a ruling on its board after it (the director's
answer at the table); the alerts of a board that is over (passed out, or its play ended) are no
longer open (the table has gone on; the record keeps them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from shared.table.engine import TableState
from shared.vocabulary import TableStatus

# a board in progress at the table: its auction, the opening lead awaited, or its play
IN_PLAY = frozenset({TableStatus.AUCTION, TableStatus.CLOSED, TableStatus.PLAY})


class TableSummary(TypedDict):
    """A table's line in the overview: its board in progress and where it stands."""

    board: int | None  # the board in progress (the last started), None before the first
    status: TableStatus
    turn: str | None  # the seat due to call, on lead (Law 41A), or the hand due to play
    round: int | None  # the round in progress, if the director started one
    boards_left: int  # the round's boards still to start
    held: bool  # the director holds the table
    boards_finished: int  # boards over: passed out, or their play ended
    alerts: int  # director alerts raised on the table's boards
    open_alerts: int  # those of the board in progress not answered by a ruling since
    acting: str | None  # the seat whose player must act: the turn's, declarer for dummy's
    substitutes: list[str]  # the seats a robot sits in at for their players


def table_summary(state: TableState) -> TableSummary:
    """The table's line in the overview (JSON-ready)."""
    board = state.board
    finished = sum(1 for b in state.boards if b.period_over)
    summary: TableSummary = {
        "board": None, "status": TableStatus.WAITING, "turn": None, "round": state.round,
        "boards_left": len(state.queue), "held": state.held, "boards_finished": finished,
        "alerts": sum(len(b.alerts) for b in state.boards), "open_alerts": 0, "acting": None,
        "substitutes": [seat.name for seat in state.substitutes]}
    if board is None:
        return summary
    ruled = max((r["event"] for r in board.rulings), default=-1)
    summary["board"] = board.board
    play = board.play
    turn = play.turn if play is not None else board.turn or board.on_lead()  # Law 41A
    summary["turn"] = turn.name if turn else None
    summary["acting"] = None if turn is None else \
        play.declarer.name if play is not None and turn is play.declarer.partner else turn.name
    summary["open_alerts"] = 0 if board.period_over else \
        sum(1 for a in board.alerts if a.event > ruled)
    if state.clock is not None and state.clock.over:
        # the round ended by the clock: its unfinished board stays as it stood, no one to act
        summary["status"], summary["turn"], summary["acting"] = TableStatus.DONE, None, None
    elif not board.period_over:
        # auction, closed (the opening lead is awaited), or the play
        summary["status"] = TableStatus.PLAY if play is not None else TableStatus(board.status)
    elif state.queue:  # the round's next board waits: the director holds the table
        summary["status"] = TableStatus.HELD
    else:
        summary["status"] = TableStatus.DONE  # the round's last board, or a board started by hand
    return summary


class Totals(TypedDict):
    """The overview's totals: its tables, those with a board in progress (`IN_PLAY`), the
    boards finished, the alerts raised and still open."""

    tables: int
    playing: int
    boards_finished: int
    alerts_raised: int
    alerts_open: int


def totals_of(lines: Iterable[Mapping[str, Any]]) -> Totals:
    """The totals of the overview's lines (each a `TableSummary`, with more keys maybe)."""
    tables = list(lines)
    return {"tables": len(tables),
            "playing": sum(1 for t in tables if t["status"] in IN_PLAY),
            "boards_finished": sum(t["boards_finished"] for t in tables),
            "alerts_raised": sum(t["alerts"] for t in tables),
            "alerts_open": sum(t["open_alerts"] for t in tables)}
