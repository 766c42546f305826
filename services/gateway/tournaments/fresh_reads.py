"""One read for every reader of a gateway, read again once `every_s` old (the players' links
read a tournament's moment and its entries this way: a socket of every player of the field
costs one read a tick, not one each).

A read that finds what the last one found gives the last one's object back, so that a reader
tells a change by identity (`is`) without comparing (`play_watch` wakes the players' sockets
only then). A read that failed is tried again by the next reader.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar
from weakref import WeakKeyDictionary

V = TypeVar("V")


class FreshReads(Generic[V]):
    """Reads kept per owner (a gateway) and key (a tournament)."""

    def __init__(self, every_s: float) -> None:
        self.every_s = every_s
        self._kept: WeakKeyDictionary[object, dict[str, tuple[float, asyncio.Future[V]]]] = \
            WeakKeyDictionary()

    async def get(self, owner: object, key: str, read: Callable[[], Awaitable[V]]) -> V:
        """The value of `read()` at most `every_s` old: the read under way is joined."""
        kept = self._kept.setdefault(owner, {})
        last = kept.get(key)
        if last is None or time.monotonic() - last[0] >= self.every_s or (
                last[1].done() and last[1].exception() is not None):
            before = _value_of(last[1]) if last is not None else None
            last = kept[key] = (time.monotonic(), asyncio.ensure_future(_same(before, read)))
        if last[1].done():  # read already: no shield to make (a field's sockets ask at once)
            return last[1].result()
        return await asyncio.shield(last[1])

    def forget(self, owner: object, key: str) -> None:
        """The next reader reads again (after a write the readers must see)."""
        self._kept.get(owner, {}).pop(key, None)


def _value_of(future: asyncio.Future[V]) -> V | None:
    if not future.done() or future.cancelled() or future.exception() is not None:
        return None
    return future.result()


async def _same(before: V | None, read: Callable[[], Awaitable[V]]) -> V:
    value = await read()
    return before if before is not None and before == value else value
