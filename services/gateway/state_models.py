"""The state a reader gets, as OpenAPI shows it. A board's is the core's own declaration,
`shared.board_view.BoardView` (and `WithheldView`, what the public sees of a board still
played elsewhere): pydantic builds its schema from those TypedDicts, told here to read the
string under each key as its description and to allow no other key. A table's history and a
tournament's overview (`shared.table_summary.TableSummary`, a line a table) are models of
their own. The routes answer a state as stored, not validated (`routes.reading`): the schema
documents it; tests/unit/test_board_state_model.py validates real states against it."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any, Literal

import typing_extensions
from pydantic import BaseModel, ConfigDict, Field

from shared.board_view import BoardView, WithheldView
from shared.robot.seats import RobotStatus
from shared.vocabulary import TableStatus

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


for _view in declarations(BoardView, WithheldView):
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


class HistoryEntry(View):
    offset: int
    board: int | None = Field(description="the board the event was folded into (null before "
                              "any board)")
    event: dict[str, Any] | None = Field(description="the event as the reader may see it "
                                         "(null: a record that is not an event)")
    alerts: list[dict[str, Any]] = Field(description="the director alerts it raised, as the "
                                         "reader's state of their board shows them; "
                                         "`in_play`: that board's play lasts")
    caller: Seat = omitted("an explanation: whose call it explains")
    state: BoardView = omitted("with states=true: the board just after it")


class History(View):
    """A table's history (format=json; `services.replay.history`)."""

    table: str
    board: int | None
    until: int | None
    version: int | None
    history: list[HistoryEntry]
    state: BoardView | WithheldView | None = Field(description="the board at the end")
    boards: list[int] = Field(description="the table's boards, in the order played")


class TableLine(View):
    """A table in the tournament's overview (`shared.table_summary.TableSummary`, and when
    its last event came)."""

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
    last_ts: int | None
    idle_s: int | None
    robots: dict[Seat, RobotStatus] = Field(default_factory=dict, description="each seat a "
                                            "robot holds: connected, stalled (the table has "
                                            "waited for its call or card for long), or "
                                            "waiting for it")
    vugraph_match: bool | None = Field(None, description="the Director shows the table live "
                                       "to the public (a vugraph match); null: not known now")


class OverviewTotals(View):
    tables: int
    playing: int
    boards_finished: int
    alerts_raised: int
    alerts_open: int


class StandingLine(View):
    """An entrant near the top of its field (`shared.tournament_results.standings`): a pair's
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


class StandingsField(View):
    direction: Literal["NS", "EW"] | None
    top: list[StandingLine]


class Standings(View):
    scoring: str
    complete: int = Field(description="boards every table of the movement has a result on")
    fields: list[StandingsField]


class Overview(View):
    tournament: str
    name: str
    now: int
    totals: OverviewTotals
    tables: list[TableLine]
    standings: Standings | None = Field(
        description="the top of each field's ranking (none: no entrants and movement)")
