"""The director's robots: which seats of a table our robots take, recorded on
`tableserver.robots` (keyed by the table, compacted: the last request stands). The robot pool
(`services/robots/pool.py`) reads that topic and seats a robot at each seat through the Table
Manager host; every gateway reads it too (`alert_feed.py`) to show the director which seats are
robots'. The seats' names follow (`players_named`: "Robot"), so the table's own record and its
exports say who played."""

from __future__ import annotations

import json
import time
from typing import Any

from services.common.errors import Unavailable
from services.common.kafka.produce import append
from services.common.names import ROBOTS
from services.gateway.refusals import Kind, Refused
from services.gateway.robots import presence as robot_presence
from services.gateway.robots.presence import TableRobots
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import service as tournaments
from shared.robot.seats import (
    ROBOT_NAME,
    SeatError,
    empty_seats,
    parse_seats,
    person_seats,
)


def seats_asked(values: Any) -> tuple[str, ...]:
    try:
        return parse_seats(values)
    except SeatError as error:
        raise Refused(f"field 'seats': {error}", "seats") from None


async def names_at(gw: Gateway, table: str) -> dict[str, str]:
    """The names given at the table's seats: its tournament's players, then `players_named`."""
    meta = await gw.table_meta(table)
    named: dict[str, str] = {}
    if meta.get("tournament"):
        made = await tournaments.find(gw, meta["tournament"])
        named.update(made.players.get(table, {}) if made is not None else {})
    found = await gw.adapters.store.read_state(table)  # Redis away: a 503
    named.update((found[1].get("players") or {}) if found is not None else {})
    return named


async def record_request(gw: Gateway, table: str, seats: tuple[str, ...]) -> None:
    """The request on `tableserver.robots`: the robot pool seats exactly `seats` (none: every
    robot of the table stands up)."""
    request = {"table": table, "seats": list(seats), "ts": int(time.time() * 1000)}
    try:
        await append(gw.adapters.producer, ROBOTS, json.dumps(request).encode(),
                     key=table.encode(), timeout_s=gw.settings.produce_timeout_s)
    except Unavailable:  # Kafka's errors and time-outs (`produce.append`)
        raise Unavailable("Kafka did not acknowledge the request in time; retry (the same "
                          "request twice is harmless)", retry_after=1) from None
    gw.adapters.alerts.robots[table] = list(seats)  # this gateway knows at once


async def seat(gw: Gateway, table: str, seats: tuple[str, ...]) -> TableRobots:
    """Our robots at exactly `seats` of the table (none: every robot taken away); 409 for a
    seat a person holds, as far as the system knows (a name given there)."""
    named = await names_at(gw, table)
    taken = sorted(person_seats(named) & set(seats))
    if taken:
        raise Refused(f"field 'seats': {', '.join(f'{s} ({named[s]})' for s in taken)} "
                      f"{'is' if len(taken) == 1 else 'are'} a person's seat", "seats",
                      Kind.CONFLICT)
    before = set(gw.adapters.alerts.robots.get(table, []))
    await record_request(gw, table, seats)
    names = {s: ROBOT_NAME for s in seats if named.get(s) != ROBOT_NAME}
    names.update({s: "" for s in before - set(seats) if named.get(s) == ROBOT_NAME})
    if names:
        await gw.append(table, {"type": "players_named", "players": names,
                                "ts": int(time.time() * 1000)})
    return await robot_presence.at_table(gw, table)


async def fill(gw: Gateway, tournament: str) -> dict[str, list[str]]:
    """Our robots at every seat of the tournament's tables that no person holds (no name
    given there), besides those already asked for: table → its robots' seats."""
    made = await tournaments.find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    seated: dict[str, list[str]] = {}
    for table in made.tables:
        empty = set(empty_seats(await names_at(gw, table)))
        wanted = seats_asked(sorted(empty | set(gw.adapters.alerts.robots.get(table, []))))
        if wanted and list(wanted) != gw.adapters.alerts.robots.get(table):
            await seat(gw, table, wanted)
        seated[table] = list(wanted)
    return seated
