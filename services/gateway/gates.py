"""Bounds on what a gateway process does at once, so that overload is refused early rather
than served late: a bounded queue. At most `limit` at once; one more waits for a turn, first
come first served, at most `wait_s` (and behind at most `WAITING` × `limit` others), and is
refused when it gets none (`Busy`, a 503 with Retry-After). Nothing refused was started, so a
retry is always safe.

- events (`TABLESERVER_EVENTS_IN_FLIGHT` at once, `TABLESERVER_EVENT_WAIT_MS` for a turn):
  every door of an event (`services.gateway.http.doors.accept`) holds a turn from before its body
  is judged until it is answered. Without it, 60 tables at once were all served, p99 11.5 s
  and none refused (bench/overload_bench.py): each event's answer waited behind all the others'
  turns of the loop and appends. Bounded, an event is answered within its wait plus the time
  `limit` events take (Little's law: `limit` ÷ the gateway's rate), or refused.
  The turns go in order of arrival: refused at once instead (no waiting), the events let in
  kept their tables coming straight back while a refused one came back after its Retry-After
  to find every turn taken again; one call waited 29 s through 28 refusals
  (bench/overload_bench.py, docs/operations.md).
- history reads (`TABLESERVER_HISTORY_READS`, `services.gateway.tables.history_reads`): refused at
  once (no waiting).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from services.common.errors import Unavailable

RETRY_AFTER_S = 1
WAITING = 8  # at most this many times `limit` wait for a turn; past it, refused at once


class Busy(Unavailable):
    """As many as the gate takes are under way on this gateway: retry shortly."""


class Gate:
    """At most `limit` at once of `what` (plural words: "history reads"); one more waits up to
    `wait_s` for a turn (0: none), then is refused."""

    def __init__(self, limit: int, what: str, wait_s: float = 0.0) -> None:
        self.limit, self.what, self.wait_s = limit, what, wait_s
        self.taken = 0
        self.waiting: deque[asyncio.Future[None]] = deque()  # each resolved with a turn

    def busy(self) -> Busy:
        return Busy(f"too many {self.what} at once: {self.limit} are under way on this "
                    f"gateway; retry after {RETRY_AFTER_S} s", retry_after=RETRY_AFTER_S)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        if self.taken < self.limit and not self.waiting:
            self.taken += 1
        else:
            await self._turn()
        try:
            yield
        finally:
            self._release()

    async def _turn(self) -> None:
        """Wait for a turn, handed over by one that ends (`_release`); `Busy` when none
        comes within `wait_s`, or too many wait already."""
        if self.wait_s <= 0 or len(self.waiting) >= WAITING * self.limit:
            raise self.busy()
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        try:
            await asyncio.wait_for(turn, self.wait_s)
        except TimeoutError:
            self._leave(turn)
            raise self.busy() from None
        except BaseException:  # the client went: a turn handed over meanwhile goes on
            self._leave(turn)
            if turn.done() and not turn.cancelled():
                self._release()
            raise

    def _leave(self, turn: asyncio.Future[None]) -> None:
        with contextlib.suppress(ValueError):
            self.waiting.remove(turn)

    def _release(self) -> None:
        """A turn ends: it goes to the first one still waiting, else it is free."""
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self.taken -= 1
