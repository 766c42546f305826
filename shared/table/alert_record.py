"""A director alert as the processor emits it to the alerts topic (docs/api.md, the alerts'
feed): the board's alert (`board_view.AlertView`: the irregularity, its Law, the options open)
and where it was raised; or a `poison` record, for a record of the table's topic the fold
could not take (it is skipped, and the Director told)."""

# No `from __future__ import annotations`: a TypedDict reads its keys' types at run time;
# `typing_extensions.TypedDict`, the one pydantic reads under Python 3.11 (the schema test).

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from shared.table.board_view import AlertView


class AlertRecord(AlertView):
    """An alert raised at a table (`shared.table.table_run.TableRun.apply`)."""

    table: str
    board: int
    offset: int
    """the offset of the event that raised it, in the table's topic"""
    ts: int | None
    """that event's stamp (ms since the epoch)"""
    tournament: NotRequired[str]
    """the tournament the table plays in, if any"""


class PoisonRecord(TypedDict):
    """A record of the table's topic that is not an event the fold can take: skipped."""

    kind: Literal["poison"]
    law: None
    seat: None
    table: str
    offset: int
    message: str


Raised = list[tuple[str, AlertRecord | PoisonRecord]]
"""The alerts a fold raised, each with its id (`shared.ids`)."""
