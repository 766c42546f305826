"""Which seats of tables are robots': the director's requests (`tableserver.robots`, which
every gateway follows) with what the Table Manager host knows (Redis: who is connected, who
left), read together by `shared.robot.seats`."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from typing_extensions import TypedDict

from shared.robot.seats import RobotSeat, robot_seats
from shared.table.board_view import Seat

if TYPE_CHECKING:  # the schema (`http.state_models`) reads this module: no cycle through it
    from services.gateway.tables.service import Gateway


class TableRobots(TypedDict):
    """A table's robot seats, as `GET /api/tables/{t}/robots` answers them (its schema
    this very declaration: `services.gateway.http.state_models`)."""

    table: str
    seats: dict[Seat, RobotSeat]
    """each seat a robot holds"""


async def at_table(gw: Gateway, table: str) -> TableRobots:
    """The table's robot seats: asked for, connected (or stalled) or waiting, and how long the
    table has waited for each (`shared.robot.seats`)."""
    await gw.table_meta(table)
    return (await at_tables(gw, [table]))[table]


async def at_tables(gw: Gateway, tables: list[str]) -> dict[str, TableRobots]:
    present = await gw.adapters.store.robots_present(tables)  # Redis away: a 503
    requests = gw.adapters.alerts.robots
    now = int(time.time() * 1000)
    return {t: {"table": t, "seats": robot_seats(requests.get(t, []), present.get(t, {}), now)}
            for t in tables}
