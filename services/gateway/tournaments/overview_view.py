"""A tournament's overview as the Director gets it (GET /api/tournaments/{t}, the live
socket): each table's line as the processor keeps it (`shared.table.table_summary`), with
what the gateway adds, the totals, the clock and the standings (`shared.tournament.
standings_view`). The string under a key is its description in the schema, which
`services.gateway.http.state_models` builds from these TypedDicts (no key but those declared)."""

# No `from __future__ import annotations`: pydantic reads these TypedDicts (the schema).
from typing_extensions import TypedDict

from shared.robot.seats import RobotStatus
from shared.table.board_view import Seat
from shared.table.table_summary import StoredSummary, Totals
from shared.tournament.standings_view import Standings


class TableLine(StoredSummary):
    """A table in the tournament's overview: its summary, and what the gateway adds."""

    table: str
    idle_s: int | None
    """seconds since its last event (null: none yet)"""
    robots: dict[Seat, RobotStatus]
    """each seat a robot holds: connected, stalled (the table has waited for its call or card
    for long), or waiting for it"""
    vugraph_match: bool | None
    """the Director shows the table live to the public (a vugraph match); null: not known
    now"""
    behind: bool | None
    """a timed round: the table's boards still to play need more than the round's time left
    at the movement's pace (docs/scoring.md, the clock); null: no timed round runs"""


class RunningClock(TypedDict):
    """The timed round's clock, while it runs."""

    ends_at: int
    """when the round ends, ms since the epoch"""


class Overview(TypedDict):
    """A tournament's overview: its tables, their totals, the clock and the standings."""

    tournament: str
    name: str
    now: int
    """the gateway's time of the overview, ms since the epoch"""
    clock: RunningClock | None
    """the timed round's clock, while it runs (null: untimed, held or over)"""
    totals: Totals
    tables: list[TableLine]
    standings: Standings | None
    """the top of each field's ranking (null: no entrants and movement)"""
