"""Keeping Redis in step with a worker's shards, through Redis's outages and losses.

The worker's loop hands each fetch's new states here (`write`). When Redis cannot be reached,
nothing is queued: the states live in the runners' memory, and every shard is marked as
lagging. When Redis answers again, the lagging shards write all they have (every table's
registry record and state), all at once, and mark themselves alive; the same happens when a
shard's `shard-alive` key is found gone (Redis restarted empty, `FLUSHALL`) and when a shard
has just started (its records). A state is written with its version (the offset folded), so
writing again is harmless and never moves a table backwards.

While Redis is away it is asked whether it is back (a PING) every `PROBE_S`, however long the
outage, and in the background: the loop goes on folding and never waits for an answer from a
Redis that may not give one. (With growing pauses up to 2 s between attempts, each itself
retried by redis-py with a backoff, under the loop's lock, the states were back 0.5 to 6.5 s
after Redis answered; operations.md.) The processor's Redis client retries a command once, at once
(`bootstrap.py`): the pace of the questions is this module's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from services.common.errors import StoreUnavailable
from services.common.store import States, StateStore
from services.processor.shard import ShardRunner

log = logging.getLogger("tableserver.processor")

ALIVE_CHECK_S = 1.0  # how often each shard checks that Redis still has its data
PROBE_S = 0.2  # while Redis is away, the pause between two questions whether it is back
PROBE_TIMEOUT_S = 1.0  # a question unanswered this long is a "no" (Redis behind a dead link)
OUTAGE = (StoreUnavailable, OSError, TimeoutError)  # the store's: Redis away


class StoreSync:
    def __init__(self, store: StateStore) -> None:
        self.store = store
        self.lagging: set[int] = set()  # shards whose every table must be written again
        self.failures = 0  # attempts failed in a row
        self.next_attempt = 0.0  # (loop time) when to look at Redis next
        self.probe: asyncio.Task[bool] | None = None  # is Redis back? (asked while away)

    @property
    def reachable(self) -> bool:
        return self.failures == 0

    def lag(self, shards: Iterable[int]) -> None:
        """These shards' tables must all be written (a start, a loss)."""
        self.lagging.update(shards)

    async def write(self, states: States, shards: Iterable[int]) -> None:
        """Write `states` (of runners of `shards`); if Redis is away, they wait in the
        runners: the shards lag."""
        if not states:
            return
        if not self.reachable:
            self.lag(shards)
            return
        try:
            await self.store.write_batch(states)
        except OUTAGE as exc:
            self._failed(exc, shards)

    async def tick(self, runners: Mapping[int, ShardRunner], now: float) -> None:
        """At most every ALIVE_CHECK_S: find the shards whose data Redis lost, and write
        every lagging shard again. While Redis is away: as soon as it answers."""
        if not self.reachable and not self._answered(now):
            return
        if now < self.next_attempt:
            return
        try:
            asked = [shard for shard in runners if shard not in self.lagging]
            alive = await asyncio.gather(*(self.store.is_alive(shard) for shard in asked))
            for shard, found in zip(asked, alive, strict=True):
                if not found:
                    log.warning("shard %d: Redis lost its data", shard)
                    self.lagging.add(shard)
            await self._write_lagging(runners)
        except OUTAGE as exc:
            self._failed(exc, runners)
            self.next_attempt = now + PROBE_S
            return
        if self.failures:
            log.warning("Redis is back after %d failed attempts; every table written again",
                        self.failures)
        self.failures = 0
        self.lagging &= set(runners)  # shards gone meanwhile: their new owners write them
        self.next_attempt = now + ALIVE_CHECK_S

    def _answered(self, now: float) -> bool:
        """While Redis is away: whether it has answered the last question (then it is time to
        write); a question is asked PROBE_S after the last answer "no"."""
        if self.probe is None:
            if now >= self.next_attempt:
                self.probe = asyncio.create_task(self._ping(), name="redis-probe")
            return False
        if not self.probe.done():
            return False
        answered, self.probe = self.probe.result(), None
        if not answered:
            self.failures += 1
            self.next_attempt = now + PROBE_S
            return False
        self.next_attempt = now
        return True

    async def _ping(self) -> bool:
        try:
            await asyncio.wait_for(self.store.ping(), PROBE_TIMEOUT_S)
        except OUTAGE:
            return False
        return True

    async def _write_lagging(self, runners: Mapping[int, ShardRunner]) -> None:
        """Every lagging shard's tables, written all at once; those written stop lagging,
        and the first failure is raised."""
        shards = sorted(self.lagging & set(runners))
        results = await asyncio.gather(*(self._write_all(runners[shard]) for shard in shards),
                                       return_exceptions=True)
        failed = None
        for shard, result in zip(shards, results, strict=True):
            if result is None:
                self.lagging.discard(shard)
            elif isinstance(result, Exception):
                failed = failed or result
            else:
                raise result
        if failed is not None:
            raise failed

    async def _write_all(self, runner: ShardRunner) -> None:
        records, everything = runner.everything()
        await self.store.remember_tables(records)
        await self._remember_closed_tournaments(records)
        await self.store.write_batch(everything.states())
        await self.store.mark_alive(runner.shard)

    async def _remember_closed_tournaments(self, records: Mapping[str, Any]) -> None:
        """The record of each closed tournament a table of the shard was in, when Redis has
        none: a closed table's registry record keeps where its tournament's archive is
        (`services/gateway/tournaments/close.py`), so that the tournament is found again
        whatever its tables' names."""
        closed = {r["tournament"]: r for r in records.values()
                  if "tournament" in r and "tournament_archive" in r}
        for tournament, record in closed.items():
            if await self.store.tournament_record(tournament) is None:
                await self.store.remember_tournament(tournament, {
                    "tournament": tournament, "closed": record.get("tournament_closed"),
                    "archive": record["tournament_archive"]})

    def _failed(self, exc: BaseException, shards: Iterable[int]) -> None:
        if self.reachable:
            log.warning("Redis unreachable (%r): states kept in memory until it is back", exc)
            self.next_attempt = 0.0  # the first question at the next tick
        self.failures += 1
        self.lag(shards)

    async def stop(self) -> None:
        if self.probe is not None:
            self.probe.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.probe
            self.probe = None
