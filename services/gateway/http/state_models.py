"""The state a reader gets, as OpenAPI shows it. A board's and a table's history are the
core's own declarations, `shared.table.board_view.BoardView` (and `WithheldView`, what the public
sees of a board still played elsewhere) and `shared.table.history_view.HistoryView`: pydantic
builds their schema from those TypedDicts, told here to read the string under each key as its
description and to allow no other key (import them from here, so that they are read so).
A tournament's overview (`shared.table.table_summary.TableSummary`, a line a table) is
a model of its own. The routes answer a state as stored, not validated (`routes.reading`):
the schema documents it; tests/unit/test_board_state_model.py validates real states against it."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any, Literal

import typing_extensions
from pydantic import BaseModel, ConfigDict, Field

from shared.robot.seats import RobotStatus
from shared.scores.tie_breaks import TieBreak
from shared.table.board_view import BoardView, WithheldView
from shared.table.history_view import HistoryView
from shared.vocabulary import TableStatus

__all__ = ["DECLARED", "BoardView", "HistoryView", "Overview", "Seat", "TableLine",
           "WithheldView", "declarations"]

Seat = Literal["N", "E", "S", "W"]

DECLARED = ConfigDict(extra="forbid", use_attribute_docstrings=True)
"""How pydantic reads a TypedDict of the core: the string under a key is its description, and
no key but those declared."""


def typed_dicts_of(annotation: Any) -> Iterator[Any]:
    """The TypedDicts an annotation names, however deep (lists, unions, NotRequired)."""
    if typing_extensions.is_typeddict(annotation):
        yield annotation
    for argument in typing.get_args(annotation):
        yield from typed_dicts_of(argument)


def declarations(*roots: Any) -> set[Any]:
    """`roots` and every TypedDict their keys name, however deep."""
    seen: set[Any] = set()
    todo = list(roots)
    while todo:
        view = todo.pop()
        seen.add(view)
        hints = typing.get_type_hints(view, include_extras=True)
        todo += [t for hint in hints.values() for t in typed_dicts_of(hint) if t not in seen]
    return seen


for _view in declarations(HistoryView, WithheldView):
    _view.__pydantic_config__ = DECLARED


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def omitted(description: str | None = None) -> Any:
    """A key the answer leaves out when it has nothing to say: not required, no default in
    the schema."""
    return Field(None, description=description, json_schema_extra=_no_default)


class View(BaseModel):
    """A document a reader gets: its keys exactly, no other."""

    model_config = ConfigDict(extra="forbid")


class TableLine(View):
    """A table in the tournament's overview (`shared.table.table_summary.TableSummary`,
    and when its last event came)."""

    table: str
    board: int | None
    status: TableStatus
    turn: Seat | None
    round: int | None
    boards_left: int
    held: bool
    boards_finished: int
    alerts: int
    open_alerts: int
    acting: Seat | None = Field(None, description="the seat whose player must act now (the "
                                "turn's; declarer for dummy's hand)")
    substitutes: list[Seat] = Field(default_factory=list, description="the seats a robot "
                                    "sits in at for their players (docs/operations.md, "
                                    "substitutes)")
    last_ts: int | None
    idle_s: int | None
    robots: dict[Seat, RobotStatus] = Field(default_factory=dict, description="each seat a "
                                            "robot holds: connected, stalled (the table has "
                                            "waited for its call or card for long), or "
                                            "waiting for it")
    vugraph_match: bool | None = Field(None, description="the Director shows the table live "
                                       "to the public (a vugraph match); null: not known now")
    behind: bool | None = Field(None, description="a timed round: the table's boards still to "
                                "play need more than the round's time left at the movement's "
                                "pace (docs/scoring.md, the clock)")


class OverviewTotals(View):
    tables: int
    playing: int
    boards_finished: int
    alerts_raised: int
    alerts_open: int


class StandingLine(View):
    """An entrant near the top of its field (`shared.tournament.results.standings`): a pair's
    boards, points and percentage, or a team's matches, VPs and IMPs."""

    entrant: int
    name: str
    rank: int
    direction: Literal["NS", "EW"] | None = None
    boards: int | None = None
    points: float | None = None
    top: float | None = None
    percent: float | None = None
    matches: int | None = None
    vp: float | None = None
    imps: float | None = None
    tie_break: TieBreak | None = None
    """The rule that split a tie for first (`shared.scores.tie_breaks`), if one did."""


class StandingsField(View):
    direction: Literal["NS", "EW"] | None
    top: list[StandingLine]


class Standings(View):
    scoring: str
    complete: int = Field(description="boards every table of the movement has a result on")
    fields: list[StandingsField]


class RunningClock(View):
    ends_at: int = Field(description="when the round ends, ms since the epoch")


class Overview(View):
    tournament: str
    name: str
    now: int
    clock: RunningClock | None = Field(None, description="the timed round's clock, while it "
                                       "runs (none: untimed, held or over)")
    totals: OverviewTotals
    tables: list[TableLine]
    standings: Standings | None = Field(
        description="the top of each field's ranking (none: no entrants and movement)")
