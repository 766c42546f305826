"""The rounds' clock as the gateway runs it (docs/scoring.md, "The clock").

A timed round (the movement's `minutes_per_board`) is started with its end (`ends_at`) on
each table's `round_started` and on the tournament's topic, and its end is put in Redis's
sorted set of clocks (`StateStore.set_clock`). Every gateway's `run_clock` looks at the clocks
due a few times a second; the one whose `drop_clock` takes a due clock (Redis tells exactly
one) ends the round (`round_ended` to its tables, then on the tournament's topic) and starts
the next round of the movement. A failure puts the clock back a moment later, so the round
ends however many gateways die; a round ended twice, or started twice, changes nothing at a
table (the engine takes each once). The Director moves the end (`extend`), holds the clock
(`hold`: the round will not end by itself; `extend` lets it go again) or ends the round now
(`end_round`). A round's end scores the boards it left unfinished by rule (Law 12C2, or the
double-dummy result with few tricks left: `services.gateway.tournaments.unfinished`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from services.common import gc_settle
from services.common.backoff import Backoff
from services.common.errors import ServiceError
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import play_watch, round_timing
from services.gateway.tournaments.log import append_record, tournament_records
from services.gateway.tournaments.service import find, start_round
from services.gateway.tournaments.unfinished import TRICKS_LEFT, score_unfinished
from shared.tournament.clock import MINUTE_MS, TournamentClock, clock_of
from shared.tournament.session import Tournament

log = logging.getLogger("tableserver.clock")
TICK_S = 0.05  # a due clock is seen this late at most (a sorted set's range read a tick)
RETRY_MS = 2000
SWEEP_AFTER_START_S = 30.0  # the heap swept this long after a round's start (`gc_settle`):
# its players moved (p99 1.5–3.7 s at 250 tables), its substitutes seated (at 5 s + 2 s in
# the evening bench), its first calls made


def now_ms() -> int:
    return int(time.time() * 1000)


async def round_records(gw: Gateway, tournament: str) -> list[dict[str, Any]]:
    """The tournament topic's records, as maps (those that are no JSON map passed over)."""
    out = []
    for _, value in await tournament_records(gw, tournament):
        try:
            m = json.loads(value or b"{}")
        except ValueError:
            continue
        if isinstance(m, dict):
            out.append(m)
    return out


def round_tables(records: list[dict[str, Any]], number: int) -> list[str]:
    """The tables that play round `number`, as its `round_started` record names them."""
    for r in reversed(records):
        if r.get("type") == "round_started" and r.get("round") == number:
            return sorted(r.get("tables", {}))
    return []


async def running(gw: Gateway, tournament: str) -> tuple[TournamentClock, list[dict[str, Any]]]:
    """The clock of the tournament's round in progress; a 409 naming `round` when its round is
    not timed or is over, a 404 for no tournament."""
    if await find(gw, tournament) is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    records = await round_records(gw, tournament)
    clock = clock_of(records)
    if clock is None or clock.over:
        raise Refused("round: no timed round is in progress (a movement with "
                      "minutes_per_board times its rounds)", "round", Kind.CONFLICT)
    return clock, records


async def _tell_tables(gw: Gateway, tables: list[str], event: dict[str, Any]) -> None:
    await asyncio.gather(*(gw.append(t, event) for t in tables))


async def extend(gw: Gateway, tournament: str, minutes: float) -> dict[str, Any]:
    """The round's end moved by `minutes` (fewer: a negative number; never before now), the
    clock let go if held: each table told, then the tournament's topic, then the clock."""
    clock, records = await running(gw, tournament)
    now = now_ms()
    base = now + clock.left if clock.held else clock.ends_at
    ends_at = max(now, base + round(minutes * MINUTE_MS))
    event = {"type": "round_extended", "round": clock.round, "ends_at": ends_at, "ts": now}
    await _tell_tables(gw, round_tables(records, clock.round), event)
    await append_record(gw, tournament, event, "record the clock", "round", "rounds")
    await gw.adapters.store.set_clock(tournament, ends_at)
    return {"round": clock.round, "ends_at": ends_at, "held": False}


async def hold(gw: Gateway, tournament: str) -> dict[str, Any]:
    """The clock held: the round does not end by itself; the tables show the time it had."""
    clock, records = await running(gw, tournament)
    now = now_ms()
    left = clock.left_at(now)
    await gw.adapters.store.drop_clock(tournament)
    await _tell_tables(gw, round_tables(records, clock.round),
                       {"type": "round_extended", "round": clock.round, "ends_at": now + left,
                        "held": True, "ts": now})
    await append_record(gw, tournament, {"type": "clock_held", "round": clock.round,
                                         "left": left, "ts": now},
                        "record the clock", "round", "rounds")
    return {"round": clock.round, "left_ms": left, "held": True}


async def end_round(gw: Gateway, tournament: str) -> dict[str, Any]:
    """The round in progress ended now (its clock due, or the Director's word): each table told
    (its boards not started dropped, its board in progress left unfinished), the tournament's
    topic, then the movement's next round started, if any, then the round's unfinished boards
    scored (before the next round's pairing, in a Swiss): how many tables play it. A round
    ended already whose next has not started (a gateway stopped between the two) goes on."""
    with gc_settle.paused():  # from the clock due to the players' views sent: no full
        # collection of the heap in its midst (one held the loop 1.5 s at a busy round's end)
        made, records, clock = await _round_read(gw, tournament)
        nxt = clock.round + 1
        movement = made.movement
        moves = movement is not None and nxt <= movement.rounds and not movement.kind.swiss
        tables = await _move(gw, tournament, records, clock, not clock.over, nxt) if moves else 0
    if not moves:
        return await _end_last_or_swiss(gw, tournament, made, records, clock)
    round_timing.mark("the players' views sent")
    await _score_left(gw, made, clock.round)
    round_timing.mark("unfinished boards scored")
    # the ended round's garbage freed once the new round's start is past: its players seated,
    # its substitutes in (a sweep holds the loop about a second)
    gc_settle.sweep_in(SWEEP_AFTER_START_S)
    return {"round": clock.round, "ended": True, "next": nxt, "tables": tables}


async def _round_read(gw: Gateway, tournament: str) -> tuple[
        Tournament, list[dict[str, Any]], TournamentClock]:
    """The tournament, its topic's records and its clock; a 404 for no tournament, a 409
    naming `round` for no timed round."""
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    records = await round_records(gw, tournament)
    round_timing.mark("read the tournament")
    clock = clock_of(records)
    if clock is None:
        raise Refused("round: no timed round is in progress (a movement with "
                      "minutes_per_board times its rounds)", "round", Kind.CONFLICT)
    return made, records, clock


async def _end_last_or_swiss(gw: Gateway, tournament: str, made: Tournament,
                             records: list[dict[str, Any]],
                             clock: TournamentClock) -> dict[str, Any]:
    """The movement's last round ended, or a Swiss's round: its unfinished boards scored
    before the next round is paired from the scores."""
    movement = made.movement
    nxt = clock.round + 1
    if not clock.over:
        await _ended(gw, tournament, records, clock)
        await _score_left(gw, made, clock.round)
    if movement is None or nxt > movement.rounds:
        return {"round": clock.round, "ended": True, "next": None}
    tables = await start_round(gw, tournament, nxt, None, None)
    return {"round": clock.round, "ended": True, "next": nxt, "tables": tables}


async def _move(gw: Gateway, tournament: str, records: list[dict[str, Any]],
                clock: TournamentClock, ending: bool, nxt: int) -> int:
    """The round ended at each table and round `nxt` started there, until the players'
    sockets were woken with it and sent their views: how many tables play it."""
    async with play_watch.moving(gw, tournament, nxt):  # the players see the move, not the end
        if ending:  # each table told the end and the start in one wave of appends
            await gw.adapters.store.drop_clock(tournament)
            event = {"type": "round_ended", "round": clock.round, "ts": now_ms()}
            try:
                tables = await start_round(gw, tournament, nxt, None, None, ended=(
                    event, round_tables(records, clock.round)))
            except Refused:  # no next round after all: the round ends all the same
                await _ended(gw, tournament, records, clock)
                raise
        else:
            tables = await start_round(gw, tournament, nxt, None, None)
    # the players moved first, their sockets woken and their views sent; then (a resumed end
    # too) the scores
    await play_watch.moved(gw, tournament, nxt)
    return tables


async def _ended(gw: Gateway, tournament: str, records: list[dict[str, Any]],
                 clock: TournamentClock) -> None:
    """The round's clock stopped, each table told its round ended, then the tournament's
    topic."""
    await gw.adapters.store.drop_clock(tournament)
    event = {"type": "round_ended", "round": clock.round, "ts": now_ms()}
    await _tell_tables(gw, round_tables(records, clock.round), event)
    round_timing.mark("round_ended to the tables")
    await append_record(gw, tournament, event, "record the clock", "round", "rounds")
    round_timing.mark("round_ended recorded")


async def _score_left(gw: Gateway, made: Tournament, number: int) -> None:
    """The round's boards it left unfinished scored by rule (Law 12C2; docs/scoring.md,
    "Unfinished boards"), each a Director's score he may replace; a failure is logged, the
    round goes on (he scores them with `POST …/rounds/{r}/unfinished`)."""
    if made.movement is None:
        return
    try:
        await score_unfinished(gw, made, number, TRICKS_LEFT)
    except (ServiceError, TimeoutError) as exc:  # `StoreUnavailable` among them
        log.warning("round %d of %s: its unfinished boards not scored (%r); the Director "
                    "may score them", number, made.tournament, exc)


async def on_due(gw: Gateway, tournament: str) -> None:
    """A clock due: taken by this gateway alone, its round ended and the next started; put
    back a moment later when something failed on the way."""
    store = gw.adapters.store
    due = await store.clock_of(tournament)
    if not await store.take_clock(tournament, now_ms()):
        return  # another gateway took it (and may have set the next round's already)
    late_ms = now_ms() - due if due is not None else -1
    try:
        with round_timing.timed(f"the round's end of {tournament} (due {late_ms} ms before)"):
            await end_round(gw, tournament)
    except Refused as exc:  # no timed round (the Director started an untimed one), closed
        log.info("clock of %s let go: %s", tournament, exc)
    except (ServiceError, TimeoutError) as exc:
        log.warning("round of %s not ended yet (%r): again in %d ms", tournament, exc,
                    RETRY_MS)
        await store.set_clock(tournament, now_ms() + RETRY_MS)


async def run_clock(gw: Gateway) -> None:
    """The clocks due, ended, for as long as the gateway runs (Redis away: tried again). Each
    tournament's end runs on its own (one waits not for another's scores); one that fails
    otherwise than by a fault stops the clock, as it would have run inline."""
    backoff = Backoff.doubling(0.5, 10.0)
    ending: dict[str, asyncio.Task[None]] = {}
    try:
        while True:
            for tournament, task in list(ending.items()):
                if task.done():
                    del ending[tournament]
                    task.result()  # an unforeseen failure ends the clock's task
            try:
                for tournament in await gw.adapters.store.clocks_due(now_ms()):
                    if tournament not in ending:
                        ending[tournament] = asyncio.ensure_future(on_due(gw, tournament))
                backoff.reset()
                await asyncio.sleep(TICK_S)
            except (ServiceError, TimeoutError) as exc:
                log.warning("clocks not read (%r): again", exc)
                await backoff.wait()
    finally:
        for task in ending.values():
            task.cancel()
