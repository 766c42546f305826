"""Which seats have an open page, as every gateway tells Redis (docs/operations.md,
"Substitutes"): a seat's feed socket opened by a person's client (not a robot's link, which
says `robot=1`) marks the seat open for this gateway at once; every `MARK_S` the gateway marks
again all it holds, and when its last socket at a seat closes it removes its mark at once. A
gateway that dies stops marking: its marks grow old and `shared.table.substitutes` reads the
seat as not connected after `FRESH_MS`."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter
from collections.abc import Awaitable
from weakref import WeakKeyDictionary

from services.common.backoff import Backoff
from services.common.errors import ServiceError
from services.gateway.tables.service import Gateway

log = logging.getLogger("tableserver.presence")
MARK_S = 3.0  # well inside `shared.table.substitutes.FRESH_MS`


class SeatPages:
    """The seat pages one gateway holds open: table → page → how many sockets; a page is
    named by `shared.table.substitutes.page_key` (its seat, and a player's round)."""

    def __init__(self, gw: Gateway) -> None:
        self.gw = gw
        self.name = uuid.uuid4().hex  # this gateway process, in the marks' fields
        self.open: dict[str, Counter[str]] = {}

    def held_at(self, table: str) -> frozenset[str]:
        """The table's pages (`page_key`s) this gateway holds open now."""
        return frozenset(self.open.get(table, ()))

    async def opened(self, table: str, seat: str) -> None:
        """A page at the seat opened: marked at once (Redis away: the next round marks it)."""
        self.open.setdefault(table, Counter())[seat] += 1
        await self._quietly(self.gw.adapters.store.mark_pages(
            self.name, [(table, seat)], int(time.time() * 1000)))

    async def closed(self, table: str, seat: str) -> None:
        """A page at the seat closed: this gateway's mark removed once its last one has."""
        held = self.open[table]
        held[seat] -= 1
        if held[seat] > 0:
            return
        del held[seat]
        if not held:
            del self.open[table]
        await self._quietly(self.gw.adapters.store.unmark_page(self.name, table, seat))

    async def _quietly(self, step: Awaitable[None]) -> None:
        try:
            await step
        except (ServiceError, TimeoutError) as exc:  # the store's `StoreUnavailable` among them
            log.warning("the seats' open pages not marked (%r): the next round does", exc)

    async def run(self) -> None:
        """Mark every open page again every `MARK_S`, for as long as the gateway runs."""
        backoff = Backoff.doubling(0.5, 10.0)
        while True:
            try:
                if self.open:
                    await self.gw.adapters.store.mark_pages(
                        self.name, [(table, page) for table, held in self.open.items()
                                    for page in held], int(time.time() * 1000))
                backoff.reset()
                await asyncio.sleep(MARK_S)
            except (ServiceError, TimeoutError) as exc:
                log.warning("the seats' open pages not marked (%r): again", exc)
                await backoff.wait()


_pages: WeakKeyDictionary[Gateway, SeatPages] = WeakKeyDictionary()


def pages_of(gw: Gateway) -> SeatPages:
    """The gateway's `SeatPages`."""
    found = _pages.get(gw)
    if found is None:
        found = _pages[gw] = SeatPages(gw)
    return found
