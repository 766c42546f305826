"""A table at a glance, for the director's overview of a tournament: its board in progress,
where the auction or the play stands, whose turn it is, and its director alerts, raised and
still open.

An alert is open until the director gives a ruling on its board after it (the director's
answer at the table); the alerts of a board that is over (passed out, or its play ended) are no
longer open (the table has gone on; the record keeps them).
"""

# No `from __future__ import annotations`: pydantic reads these TypedDicts (the overview's
# schema, `services.gateway.http.state_models`), as it reads `shared.table.board_view`'s.
from collections.abc import Iterable

from typing_extensions import TypedDict

from shared.table.board_view import Seat
from shared.table.engine import TableState
from shared.vocabulary import TableStatus

# a board in progress at the table: its auction, the opening lead awaited, or its play
IN_PLAY = frozenset({TableStatus.AUCTION, TableStatus.CLOSED, TableStatus.PLAY})


class TableSummary(TypedDict):
    """A table's line in the overview: its board in progress and where it stands. The string
    under a key is its description in the overview's schema."""

    board: int | None
    """the board in progress (the last started); null before the first"""
    status: TableStatus
    turn: Seat | None
    """the seat due to call, on lead (Law 41A), or the hand due to play"""
    round: int | None
    """the round in progress, if the director started one"""
    boards_left: int
    """the round's boards still to start"""
    held: bool
    """the director holds the table"""
    boards_finished: int
    """boards over: passed out, or their play ended"""
    alerts: int
    """director alerts raised on the table's boards"""
    open_alerts: int
    """those of the board in progress not answered by a ruling since"""
    acting: Seat | None
    """the seat whose player must act now (the turn's; declarer for dummy's hand)"""
    substitutes: list[Seat]
    """the seats a robot sits in at for their players (docs/operations.md, substitutes)"""


class StoredSummary(TableSummary):
    """A table's line as the processor keeps it in Redis (`TableRun.overview_line`): its
    summary and when its last event came."""

    last_ts: int | None
    """when the table's last event came, ms since the epoch (null: none yet)"""


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
    """The overview's totals."""

    tables: int
    """the tournament's tables"""
    playing: int
    """those with a board in progress: in the auction, on lead or in the play"""
    boards_finished: int
    """the boards finished at every table"""
    alerts_raised: int
    """the director alerts raised at every table"""
    alerts_open: int
    """those still open"""


def totals_of(lines: Iterable[TableSummary]) -> Totals:
    """The totals of the overview's lines (each a `TableSummary`, with more keys maybe)."""
    tables = list(lines)
    return {"tables": len(tables),
            "playing": sum(1 for t in tables if t["status"] in IN_PLAY),
            "boards_finished": sum(t["boards_finished"] for t in tables),
            "alerts_raised": sum(t["alerts"] for t in tables),
            "alerts_open": sum(t["open_alerts"] for t in tables)}
