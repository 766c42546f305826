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
from dataclasses import dataclass
from typing import Any

from services.common.backoff import Backoff
from services.common.errors import ServiceError
from services.gateway.refusals import Kind, Refused
from services.gateway.robots.requests import record_request, seats_asked
from services.gateway.tables.seat_presence import pages_of
from services.gateway.tables.service import Gateway
from services.gateway.tournaments.log import append_record, refuse_closed
from services.gateway.tournaments.service import find
from shared.table.substitutes import (
    SeatPresence,
    due_at,
    not_connected,
    presence_of,
    substitutes_standing_up,
)

log = logging.getLogger("tableserver.substitutes")
TICK_S = 0.5  # a look at least this often (one read of the lines and marks)
MIN_PAUSE_S = 0.01  # between two looks at least
ONCE_MS = 30_000  # a step taken by one gateway: the others pass it over this long
SETTLED_MS = 5_000  # a line this old: what the gateways appended before it is folded in it
SUBSTITUTES_SET = "substitutes_set"  # the Director's time, on the tournament's topic
MAX_AFTER_S = 3600
LATE_S = 2.0  # a substitute seated later than the Director's time and this: in the log
SLOW_LOOK_MS = 1_000  # a look (its reads, or the pause before it) longer than this: in the log


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
        seen = _presence(gw, table, line, marks.get(table, {}), now)
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


def _presence(gw: Gateway, table: str, line: Mapping[str, Any], marks: Mapping[str, Any],
              now: int) -> dict[str, SeatPresence]:
    """The table's seats' presence at its line's round: the gateways' marks, and the pages
    this gateway holds open itself."""
    return presence_of(marks, now, here=pages_of(gw).held_at(table),
                       round_number=line.get("round"))


@dataclass(frozen=True, slots=True)
class TableStep:
    """What one look found to do at a table (`table_step`): the substitutes whose robot to
    ask for again, the seat to sit a substitute in at, those to stand up; and when its acting
    seat falls due, if later."""

    table: str
    turn: str  # the line as read (`_turn`)
    since: int | None  # when the turn began (the line's last event), if known
    ask: tuple[str, ...] = ()
    sit: str | None = None
    stand: tuple[str, ...] = ()
    due_at: int | None = None

    def __bool__(self) -> bool:
        return bool(self.ask or self.sit or self.stand)


def table_step(gw: Gateway, table: str, line: Mapping[str, Any], marks: Mapping[str, Any],
               now: int, after_s: int) -> TableStep:
    """One table's look, without a round trip: its line and its seats' open pages now (the
    marks, and the pages this gateway holds: a gateway whose loop runs late marks late, and
    its own players are not taken for gone; a player's page counts for its round only)."""
    seen = _presence(gw, table, line, marks, now)
    acting, subs = line.get("acting"), list(line.get("substitutes") or [])
    robots = gw.adapters.alerts.robots.get(table, [])
    last = line.get("last_ts")
    # a substitute recorded whose robot the pool was never asked for (a fault between the
    # two steps of `sit_in`): asked for once the line has settled, unless his player is back
    ask = tuple(seat for seat in sorted(set(subs) - set(robots))
                if not seen[seat].connected and last is not None and now - last >= SETTLED_MS)
    at = due_at(acting, subs, robots, last, seen, after_s * 1000)
    return TableStep(table, _turn(table, line), last, ask,
                     acting if at is not None and now >= at else None,
                     substitutes_standing_up(acting, subs, seen),
                     at if at is not None and now < at else None)


async def take_step(gw: Gateway, step: TableStep, after_s: int) -> None:
    """A table's step taken, each part by whichever gateway takes it first (`take_once`): the
    robots asked for again (unless the substitute stood up at this line: `stand_up`), the
    substitute due seated, those whose player is back stood up."""
    store, table, turn = gw.adapters.store, step.table, step.turn
    for seat in step.ask:
        if await store.take_once(f"robot:{turn}:{seat}", ONCE_MS):
            robots = set(gw.adapters.alerts.robots.get(table, []))
            await record_request(gw, table, seats_asked(sorted(robots | {seat})))
    if step.sit is not None:
        looked = now_ms()
        if await store.take_once(f"sit:{turn}:{step.sit}", ONCE_MS):
            taken = now_ms()
            await sit_in(gw, table, step.sit)
            _warn_late(table, step.sit, step.since, (looked, taken), after_s)
    for back in step.stand:
        if await store.take_once(f"stand:{turn}:{back}", ONCE_MS):
            await stand_up(gw, table, back, turn)


async def look(gw: Gateway, tournament: str, after_s: int) -> tuple[list[TableStep], int | None]:
    """One look at the tournament's tables, in one read of their lines and one of their
    pages: the tables' steps to take, and when the next seat falls due (ms since the epoch),
    if any does."""
    made = await find(gw, tournament)
    if made is None:
        return [], None
    store = gw.adapters.store
    tables = list(made.tables)
    lines, marks = await asyncio.gather(store.overview(tables), store.pages_open(tables))
    now = now_ms()
    steps = [table_step(gw, table, line, marks.get(table, {}), now, after_s)
             for table in tables if (line := lines.get(table)) is not None]
    return ([step for step in steps if step],
            min((s.due_at for s in steps if s.due_at is not None), default=None))


async def step_tournament(gw: Gateway, tournament: str, after_s: int) -> int | None:
    """One look at the tournament's tables and its steps taken: each substitute due seated,
    each whose player is back at his turn stood up (by whichever gateway takes the step
    first); when the next seat falls due, if any does. The tables' steps at once: at a
    round's start many seats fall due together."""
    steps, next_due = await look(gw, tournament, after_s)
    await asyncio.gather(*(take_step(gw, step, after_s) for step in steps))
    return next_due


def _warn_late(table: str, seat: str, turn_since: int | None, step: tuple[int, int],
               after_s: int) -> None:
    """A substitute seated later than the Director's time + `LATE_S` after the turn began
    told in the log, with when the step that seated him began and when Redis let this
    gateway take it (`step`: the table's line late, the gateway too busy, or Redis slow)."""
    if turn_since is None:
        return
    took = (now_ms() - turn_since) / 1000
    if took > after_s + LATE_S:
        log.warning("a substitute sat in at %s %s %.1f s after the turn began (the step that "
                    "seated him began at %.1f s, taken at %.1f s; the Director's time %d s)",
                    table, seat, took, (step[0] - turn_since) / 1000,
                    (step[1] - turn_since) / 1000, after_s)


async def run_substitutes(gw: Gateway) -> None:
    """The tournaments' substitutes, for as long as the gateway runs (Redis or Kafka away:
    tried again). A look's steps are taken beside the next looks (a table's line's one at a
    time: a new turn's step does not wait for the turn before's, such as a stand-up whose
    appends Kafka is slow to answer at a round's start), so that a step's appends hold no
    other seat falling due; the next look comes when the next seat falls due, or `TICK_S`
    after this one (a new turn, a page closed: unforeseen here)."""
    backoff = Backoff.doubling(0.5, 10.0)
    taking: dict[str, asyncio.Task[None]] = {}  # a table's line as read → its step under way
    woke = now_ms()  # when the pause before this look was to end
    try:
        while True:
            _taken(taking)
            try:
                dues: list[int] = []
                began = now_ms()
                settings = await gw.adapters.store.substitutes_after()
                read = now_ms()
                for tournament, after_s in settings.items():
                    steps, due = await look(gw, tournament, after_s)
                    for step in steps:
                        if step.turn not in taking:
                            taking[step.turn] = asyncio.ensure_future(
                                take_step(gw, step, after_s))
                    dues += [due] if due is not None else []
                _warn_slow(began - woke, read - began, now_ms() - read)
                backoff.reset()
                pause = _pause(min(dues, default=None), now_ms())
                woke = now_ms() + int(pause * 1000)
                await asyncio.sleep(pause)
            except (ServiceError, TimeoutError) as exc:  # `StoreUnavailable` among them
                log.warning("substitutes not looked at (%r): again", exc)
                await backoff.wait()
    finally:
        for task in taking.values():
            task.cancel()


def _warn_slow(overslept_ms: int, settings_ms: int, looks_ms: int) -> None:
    """A look that began or took longer than `SLOW_LOOK_MS` told in the log, with where the
    time went: the pause overslept (the event loop busy), the tournaments' settings read (the
    shared Redis connections all busy), the tables' lines and pages read."""
    if max(overslept_ms, settings_ms + looks_ms) > SLOW_LOOK_MS:
        log.warning("a look at the substitutes was slow: it began %d ms late, the settings "
                    "read in %d ms, the tables' lines and pages in %d ms", overslept_ms,
                    settings_ms, looks_ms)


def _taken(taking: dict[str, asyncio.Task[None]]) -> None:
    """The steps done let go; one that met a fault logged (the next look takes it again,
    once its `take_once` has passed); an unforeseen failure ends the substitutes' task."""
    for turn, task in list(taking.items()):
        if task.done():
            del taking[turn]
            exc = task.exception()
            if isinstance(exc, (ServiceError, TimeoutError)):
                log.warning("substitutes at %s (table:board:last event) not taken (%r): "
                            "looked at again", turn, exc)
            elif exc is not None:
                raise exc


def _pause(next_due: int | None, now: int) -> float:
    """Until the next look (s): when the next seat falls due, at most `TICK_S`."""
    if next_due is None:
        return TICK_S
    return min(TICK_S, max(MIN_PAUSE_S, (next_due - now) / 1000))
