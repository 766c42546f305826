"""A table's history as a reader gets it (`GET /api/tables/{t}/history`, format=json): every
record of its log with the alerts it raised and, asked with `states`, its board's state just
after it; the board's state as the history ends. `services.replay.history.build_history`
folds it, `shared.table.visibility` cuts each reader's part of it, OpenAPI shows this declaration
(as `shared.table.board_view`'s: the string under a key is its description).
"""

# No `from __future__ import annotations`: see `shared.table.board_view` (NotRequired, pydantic).
from typing import Any, NotRequired

from typing_extensions import TypedDict

from shared.table.board_view import BoardView, Seat, WithheldView


class HistoryEntryView(TypedDict):
    """A record of the table's log, as folded."""

    offset: int
    board: int | None
    """the board the event was folded into (null before any board)"""
    event: dict[str, Any] | None
    """the event as the reader may see it (null: a record that is not an event)"""
    alerts: list[dict[str, Any]]
    """the director alerts it raised, as the reader's state of their board shows them;
    `in_play`: that board's play lasts"""
    caller: NotRequired[Seat]
    """an explanation: whose call it explains"""
    state: NotRequired[BoardView]
    """with states=true: the board just after it"""


class HistoryView(TypedDict):
    """A table's history (format=json; `services.replay.history`)."""

    table: str
    board: int | None
    until: int | None
    version: int | None
    history: list[HistoryEntryView]
    state: BoardView | WithheldView | None
    """the board at the end"""
    boards: list[int]
    """the table's boards, in the order played"""
    think_times: NotRequired[dict[str, Any]]
    """the Director's alone: each call's and card's think (ms from the event before it),
    each side's per board and per round, the tempo marks (Law 16B1) and their rule"""
