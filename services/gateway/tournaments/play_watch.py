"""What the players' sockets of a tournament wait on: one watcher a tournament on a gateway,
while any of its players' sockets is open, reads what a player's page is made of every
`players.FRESH_S` (the tournament's moment; its entries while a link by entry listens) and
wakes the sockets only when that changed. A socket then computes its player's view once; a
field of 1,000 players costs one read a tick, not 1,000 views (bench/evening_bench.py).

A read that fails wakes the sockets too: each reads its view, meets the failure and closes
with it (a retryable close), as it would have reading alone.

While this gateway ends a round and starts the next (`moving`: the clock's end), the watcher
reads nothing: the players would see every table's round over, and a page between rounds
computes its entrant's score (the results of the whole field), at the very moment of the
move; it reads at once when the next round is started, then every `QUICK_S` (the moment read
anew each time) until every table of the new round shows it (`_shows`: at once after the
clock's end, whose records settle the tables' lines, `player_seats.settled`; else the
processor's fold of each table's start), or `MOVE_WAIT_S`, not a whole `FRESH_S` tick
later; and the round's
end waits (`moved`) until the players' sockets were woken with every table of the new round
and sent their views (or `MOVE_WAIT_S`) before it scores the unfinished boards.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from services.gateway.tables.service import Gateway
from services.gateway.tokens import PlayerScope
from services.gateway.tournaments import entry_links, players, round_timing

Stamp = tuple[object, ...]
MOVE_WAIT_S = 3.0  # a round's end waits this long at most for its players' sockets (`moved`)
QUICK_S = 0.03  # after a move, the watcher reads this often until the new round shows


@dataclass
class Watch:
    """One tournament's watcher: its listeners (those by entry apart) and the next change."""

    tournament: str
    listeners: int = 0
    by_entry: int = 0
    stamp: Stamp | None = None
    task: asyncio.Task[None] | None = None
    held: int = 0  # rounds being ended and started on this gateway (`moving`)
    awaited: tuple[int, float] | None = None  # a round just started here, until when (`moving`)
    generation: int = 0  # the changes so far
    unanswered: int = 0  # the sockets that have not sent their view of the last change yet
    _next: asyncio.Future[None] = field(default_factory=asyncio.Future)
    _answered: asyncio.Event = field(default_factory=asyncio.Event)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def next_change(self) -> asyncio.Future[None]:
        """Done at the next change of what the players' views are made of."""
        return self._next

    def changed(self) -> None:
        self.generation += 1
        self.unanswered = self.listeners
        self._answered.clear()
        self._next.set_result(None)
        self._next = asyncio.Future()

    def answered(self, generation: int) -> None:
        """A socket sent its view of change `generation` (once a change, each socket)."""
        if generation == self.generation and self.unanswered > 0:
            self.unanswered -= 1
            if self.unanswered == 0:
                self._answered.set()

    async def all_answered(self) -> None:
        """Until each socket woken by the last change sent its view (a socket that left
        meanwhile never does: the caller bounds the wait)."""
        if self.unanswered > 0:
            await self._answered.wait()

    def poke(self) -> None:
        """Read again now, not at the next tick."""
        self._wake.set()

    def hurried(self) -> bool:
        """Whether the round started here is awaited still: not yet shown at each of its
        tables, and `MOVE_WAIT_S` not over."""
        if self.awaited is None:
            return False
        number, until = self.awaited
        if _shows(self.stamp, number) or time.monotonic() > until:
            self.awaited = None
            return False
        return True

    def partial(self, stamp: Stamp) -> bool:
        """Whether `stamp` shows the round started here at some of its tables only, with
        `MOVE_WAIT_S` not over: the sockets are woken once for the move, when every table
        shows it, not at each read that finds a few more tables folded."""
        if self.awaited is None:
            return False
        number, until = self.awaited
        return not _shows(stamp, number) and time.monotonic() <= until

    async def tick(self) -> None:
        """Until the next read: `players.FRESH_S` (`QUICK_S` while a round started here is
        awaited), or a poke."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(),
                                   QUICK_S if self.hurried() else players.FRESH_S)
        self._wake.clear()


_watches: WeakKeyDictionary[Gateway, dict[str, Watch]] = WeakKeyDictionary()


@contextlib.asynccontextmanager
async def listening(gw: Gateway, player: PlayerScope) -> AsyncIterator[Watch]:
    """The player's tournament's watcher, for as long as his socket is open."""
    watches = _watches.setdefault(gw, {})
    watch = watches.setdefault(player.tournament, Watch(player.tournament))
    watch.listeners += 1
    watch.by_entry += player.by_entry
    if watch.task is None:
        watch.task = asyncio.ensure_future(_watch(gw, watch))
    try:
        yield watch
    finally:
        watch.listeners -= 1
        watch.by_entry -= player.by_entry
        if watch.listeners == 0:  # its loop ends at its next tick if the cancel is lost
            if watches.get(player.tournament) is watch:
                del watches[player.tournament]
            if watch.task is not None:
                watch.task.cancel()


def _watch_of(gw: Gateway, tournament: str) -> Watch | None:
    return _watches.get(gw, {}).get(tournament)


@contextlib.asynccontextmanager
async def moving(gw: Gateway, tournament: str, number: int | None = None
                 ) -> AsyncIterator[None]:
    """A round's end and the next round's start (`number`) on this gateway: the tournament's
    watcher reads nothing meanwhile, then reads again at once (the moment read anew), and
    every `QUICK_S` until round `number` shows at each of its tables."""
    watch = _watch_of(gw, tournament)
    if watch is not None:
        watch.held += 1
    try:
        yield
    finally:
        if watch is not None:
            watch.held -= 1
            if number is not None:
                watch.awaited = (number, time.monotonic() + MOVE_WAIT_S)
            players.forget_moment(gw, tournament)
            watch.poke()


async def moved(gw: Gateway, tournament: str, number: int, wait_s: float = MOVE_WAIT_S
                ) -> bool:
    """Whether the players' sockets of the tournament on this gateway were woken with every
    table of round `number` started and sent their views, within `wait_s` (True at once with
    none listening): what comes after (the unfinished boards' scores) does not compete with
    the views."""
    watch = _watch_of(gw, tournament)
    if watch is None:
        return True
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(wait_s):
            while not _shows(watch.stamp, number):
                await asyncio.shield(watch.next_change())
            round_timing.mark("the new round read by the players' watcher")
            await watch.all_answered()
            return True
    return False


def _shows(stamp: Stamp | None, number: int) -> bool:
    """Whether the stamp's moment has round `number` started at each of its tables."""
    now = stamp[-1] if stamp else None
    if not isinstance(now, players.Moment) or now.started < number:
        return False
    seated = now.rounds.get(number)
    tables = {s.table for s in seated.tables} if seated is not None else set()
    return all((line := now.tables.get(t)) is not None and line.round is not None
               and line.round >= number for t in tables)


async def _watch(gw: Gateway, watch: Watch) -> None:
    while watch.listeners:
        if not watch.held:  # a round's end under way here: read once the next has started
            if watch.hurried():  # the processor's fold awaited: not the moment of a tick ago
                players.forget_moment(gw, watch.tournament)
            stamp = await _stamp(gw, watch)
            # by identity first: an unchanged read is the same one
            if stamp != watch.stamp and not watch.partial(stamp):
                watch.stamp = stamp
                watch.changed()
        await watch.tick()


async def _stamp(gw: Gateway, watch: Watch) -> Stamp:
    """What the views are made of, each part the same object while it is unchanged
    (`fresh_reads`); a failure as its words, which the next failure alike leaves unchanged."""
    parts: list[object] = []
    try:
        if watch.by_entry:
            parts.append(await entry_links.entries_now(gw, watch.tournament))
        parts.append(await players.moment(gw, watch.tournament))
    except Exception as exc:  # any: each socket meets it again reading its view, and says it
        parts.append((type(exc).__name__, str(exc)))
    return tuple(parts)
