"""What the players' sockets of a tournament wait on: one watcher a tournament on a gateway,
while any of its players' sockets is open, reads what a player's page is made of every
`players.FRESH_S` (the tournament's moment; its entries while a link by entry listens) and
wakes the sockets only when that changed. A socket then computes its player's view once; a
field of 1,000 players costs one read a tick, not 1,000 views (bench/evening_bench.py).

A read that fails wakes the sockets too: each reads its view, meets the failure and closes
with it (a retryable close), as it would have reading alone.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from services.gateway.tables.service import Gateway
from services.gateway.tokens import PlayerScope
from services.gateway.tournaments import entry_links, players

Stamp = tuple[object, ...]


@dataclass
class Watch:
    """One tournament's watcher: its listeners (those by entry apart) and the next change."""

    tournament: str
    listeners: int = 0
    by_entry: int = 0
    stamp: Stamp | None = None
    task: asyncio.Task[None] | None = None
    _next: asyncio.Future[None] = field(default_factory=asyncio.Future)

    def next_change(self) -> asyncio.Future[None]:
        """Done at the next change of what the players' views are made of."""
        return self._next

    def changed(self) -> None:
        self._next.set_result(None)
        self._next = asyncio.Future()


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


async def _watch(gw: Gateway, watch: Watch) -> None:
    while watch.listeners:
        stamp = await _stamp(gw, watch)
        if stamp != watch.stamp:  # by identity first: an unchanged read is the same object
            watch.stamp = stamp
            watch.changed()
        await asyncio.sleep(players.FRESH_S)


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
