"""Substitutes for players who vanish, as the gateway runs them (docs/operations.md,
"Substitutes"; the rules: `shared.table.substitutes`).

The Director sets a tournament's time (`set_after`: `after_s`; none, the default: never).
Every gateway's `run_substitutes` looks at those tournaments' tables once a second: their
lines (whose turn, the substitutes seated) and their seats' open pages
(`services.gateway.tables.seat_presence`). A seat whose player must act and has no open page
for the Director's time gets a robot: `substitute_seated` on the table's topic, and our robot
pool asked for that seat (`tableserver.robots`), which sits it through the Table Manager host.
When the player's page is open again, `substitute_left` and the robot stands up, once the
seat's turn in progress (if any) is over.
Redis lets exactly one gateway take each step (`take_once`). The Director ends a
substitution by hand (`end`); a seat given to another person (the player's link reissued)
is his once his page is open at his turn, the same way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

from services.common.backoff import Backoff
from services.common.errors import ServiceError
from services.gateway.refusals import Kind, Refused
from services.gateway.robots.requests import record_request, seats_asked
from services.gateway.tables.service import Gateway
from services.gateway.tournaments.log import append_record, refuse_closed
from services.gateway.tournaments.service import find
from shared.table.substitutes import (
    SeatPresence,
    not_connected,
    presence_of,
    substitute_due,
    substitutes_standing_up,
)

log = logging.getLogger("tableserver.substitutes")
TICK_S = 0.5  # a seat due is seen this late at most (one read of the lines and marks)
ONCE_MS = 30_000  # a step taken by one gateway: the others pass it over this long
SETTLED_MS = 5_000  # a line this old: what the gateways appended before it is folded in it
SUBSTITUTES_SET = "substitutes_set"  # the Director's time, on the tournament's topic
MAX_AFTER_S = 3600


def now_ms() -> int:
    return int(time.time() * 1000)


async def set_after(gw: Gateway, tournament: str, after_s: int | None) -> dict[str, Any]:
    """The tournament's time before a robot sits in for a player with no open page at his
    turn (None: never), recorded on its topic; 404 for no tournament, 409 once closed."""
    if await find(gw, tournament) is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    await refuse_closed(gw, tournament, "after_s", "settings")
    await append_record(gw, tournament, {"type": SUBSTITUTES_SET, "after_s": after_s,
                                         "ts": now_ms()},
                        "record the substitutes' time", "after_s", "settings")
    await gw.adapters.store.set_substitutes(tournament, after_s)
    return {"tournament": tournament, "after_s": after_s}


async def at_tables(gw: Gateway, tournament: str) -> dict[str, Any]:
    """The tournament's setting, and at each table: its seats' open pages, the substitutes
    seated and what the table is told ("waiting for West, not connected")."""
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    after = (await gw.adapters.store.substitutes_after()).get(tournament)
    return {"tournament": tournament, "after_s": after,
            "tables": await _told(gw, list(made.tables))}


async def at_table(gw: Gateway, table: str) -> dict[str, Any]:
    """What a table is told: the substitutes seated, and whom it waits for with no open page
    (any reader of the table: its pages show it)."""
    await gw.table_meta(table)
    told = (await _told(gw, [table]))[table]
    return {"table": table, "substitutes": told["substitutes"], "waiting": told["waiting"]}


async def _told(gw: Gateway, tables: list[str]) -> dict[str, dict[str, Any]]:
    store = gw.adapters.store
    lines, marks = await store.overview(tables), await store.pages_open(tables)  # or a 503
    now = now_ms()
    out = {}
    for table in tables:
        line: Mapping[str, Any] = lines.get(table, {})
        seen = presence_of(marks.get(table, {}), now)
        subs = list(line.get("substitutes") or [])
        robots = gw.adapters.alerts.robots.get(table, [])
        out[table] = {"connected": {s: p.connected for s, p in seen.items()},
                      "substitutes": subs,
                      "waiting": not_connected(line.get("acting"), subs, robots, seen)}
    return out


async def end(gw: Gateway, tournament: str, table: str, seat: str) -> dict[str, Any]:
    """The Director ends the substitution at the table's seat: the robot stands up now (its
    player, or another person given his link, plays on). 404 for a table not in the
    tournament, 409 for a seat with no substitute."""
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    if table not in made.tables:
        raise Refused(f"table: no table {table} in tournament {tournament}", "table",
                      Kind.NOT_FOUND)
    line: Mapping[str, Any] = (await gw.adapters.store.overview([table])).get(table, {})
    if seat not in (line.get("substitutes") or []):
        raise Refused(f"seat: no substitute sits at {seat} of {table}", "seat",
                      Kind.CONFLICT)
    await stand_up(gw, table, seat, _turn(table, line))
    return {"table": table, "seat": seat, "substitute": False}


async def sit_in(gw: Gateway, table: str, seat: str) -> None:
    """A robot sits in at the seat: recorded at the table, then asked of the robot pool."""
    await gw.append(table, {"type": "substitute_seated", "seat": seat, "ts": now_ms()})
    robots = set(gw.adapters.alerts.robots.get(table, [])) | {seat}
    await record_request(gw, table, seats_asked(sorted(robots)))
    log.info("a substitute sits in at %s %s", table, seat)


async def stand_up(gw: Gateway, table: str, seat: str, turn: str) -> None:
    """The substitute at the seat stands up: the robot taken away, then recorded at the
    table. Until the table's line shows it (`turn`: the line as read), no gateway asks for
    the robot again (`_ask_again`)."""
    await gw.adapters.store.take_once(f"robot:{turn}:{seat}", ONCE_MS)
    robots = set(gw.adapters.alerts.robots.get(table, [])) - {seat}
    await record_request(gw, table, seats_asked(sorted(robots)))
    await gw.append(table, {"type": "substitute_left", "seat": seat, "ts": now_ms()})
    log.info("the substitute at %s %s stands up", table, seat)


def _turn(table: str, line: Mapping[str, Any]) -> str:
    """The table's line as read, for the steps taken once (`take_once`): a new event, a new
    line."""
    return f"{table}:{line.get('board')}:{line.get('last_ts')}"


async def _ask_again(gw: Gateway, table: str, line: Mapping[str, Any], turn: str,
                     seen: dict[str, SeatPresence], now: int) -> None:
    """A substitute recorded whose robot the pool was never asked for (a fault between the
    two steps of `sit_in`): asked for once the line has settled, by one gateway, unless the
    substitute stood up at this line (`stand_up`) or his player is back."""
    subs = set(line.get("substitutes") or [])
    robots = set(gw.adapters.alerts.robots.get(table, []))
    last = line.get("last_ts")
    for seat in sorted(subs - robots):
        if seen[seat].connected or last is None or now - last < SETTLED_MS:
            continue
        if await gw.adapters.store.take_once(f"robot:{turn}:{seat}", ONCE_MS):
            await record_request(gw, table, seats_asked(sorted(robots | {seat})))


async def step_tournament(gw: Gateway, tournament: str, after_s: int) -> None:
    """One look at the tournament's tables: each substitute due seated, each whose player is
    back at his turn stood up (by whichever gateway takes the step first)."""
    made = await find(gw, tournament)
    if made is None:
        return
    store = gw.adapters.store
    tables = list(made.tables)
    lines, marks = await store.overview(tables), await store.pages_open(tables)
    now = now_ms()
    # the tables at once: at a round's start many seats fall due together, and one after
    # the other their appends made the last wait seconds more than the Director's time
    await asyncio.gather(*(_step_table(gw, table, line, marks.get(table, {}), now, after_s)
                           for table in tables if (line := lines.get(table)) is not None))


async def _step_table(gw: Gateway, table: str, line: Mapping[str, Any],
                      marks: Mapping[str, Any], now: int, after_s: int) -> None:
    """One table's step: its substitute due seated, those whose player is back stood up."""
    store = gw.adapters.store
    seen = presence_of(marks, now)
    acting, subs = line.get("acting"), list(line.get("substitutes") or [])
    robots = gw.adapters.alerts.robots.get(table, [])
    turn = _turn(table, line)
    await _ask_again(gw, table, line, turn, seen, now)
    due = substitute_due(acting, subs, robots, line.get("last_ts"), seen, now, after_s * 1000)
    if due is not None and await store.take_once(f"sit:{turn}:{due}", ONCE_MS):
        await sit_in(gw, table, due)
    for back in substitutes_standing_up(acting, subs, seen):
        if await store.take_once(f"stand:{turn}:{back}", ONCE_MS):
            await stand_up(gw, table, back, turn)


async def run_substitutes(gw: Gateway) -> None:
    """The tournaments' substitutes, for as long as the gateway runs (Redis or Kafka away:
    tried again)."""
    backoff = Backoff.doubling(0.5, 10.0)
    while True:
        try:
            for tournament, after_s in (await gw.adapters.store.substitutes_after()).items():
                await step_tournament(gw, tournament, after_s)
            backoff.reset()
            await asyncio.sleep(TICK_S)
        except (ServiceError, TimeoutError) as exc:  # `StoreUnavailable` among them
            log.warning("substitutes not looked at (%r): again", exc)
            await backoff.wait()

