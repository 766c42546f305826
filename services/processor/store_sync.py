"""Keeping Redis in step with a worker's shards, through Redis's outages and losses.

The worker's loop hands each fetch's new states here (`write`). When Redis cannot be reached,
nothing is queued: the states live in the runners' memory, and every shard is marked as
lagging. When Redis answers again, each lagging shard writes all it has (every table's registry
record and state) and marks itself alive; the same happens when a shard's `shard-alive` key is
found gone (Redis restarted empty, `FLUSHALL`), when a shard has just started (its records), and
is retried with a growing pause while Redis stays away. A state is written with its version
(the offset folded), so writing again is harmless and never moves a table backwards.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping

from redis.exceptions import RedisError

from services.processor.shard import ShardRunner
from services.store import States, StateStore

log = logging.getLogger("tableserver.processor")

ALIVE_CHECK_S = 1.0  # how often each shard checks that Redis still has its data
RETRY_S = (0.2, 0.5, 1.0, 2.0)  # pauses between attempts while Redis is away (then the last)
OUTAGE = (RedisError, OSError)


class StoreSync:
    def __init__(self, store: StateStore) -> None:
        self.store = store
        self.lagging: set[int] = set()  # shards whose every table must be written again
        self.failures = 0  # attempts failed in a row
        self.next_attempt = 0.0  # (loop time) when to look at Redis next

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
        """At most every ALIVE_CHECK_S (or the retry pause): find the shards whose data
        Redis lost, and write every lagging shard again."""
        if now < self.next_attempt:
            return
        try:
            asked = [shard for shard in runners if shard not in self.lagging]
            alive = await asyncio.gather(*(self.store.is_alive(shard) for shard in asked))
            for shard, found in zip(asked, alive, strict=True):
                if not found:
                    log.warning("shard %d: Redis lost its data", shard)
                    self.lagging.add(shard)
            for shard in sorted(self.lagging & set(runners)):
                await self._write_all(runners[shard])
                self.lagging.discard(shard)
        except OUTAGE as exc:
            self._failed(exc, runners)
            self.next_attempt = now + RETRY_S[min(self.failures, len(RETRY_S)) - 1]
            return
        if self.failures:
            log.warning("Redis is back after %d failed attempts; every table written again",
                        self.failures)
        self.failures = 0
        self.lagging &= set(runners)  # shards gone meanwhile: their new owners write them
        self.next_attempt = now + ALIVE_CHECK_S

    async def _write_all(self, runner: ShardRunner) -> None:
        records, everything = runner.everything()
        await self.store.remember_tables(records)
        await self.store.write_batch(everything.states())
        await self.store.mark_alive(runner.shard)

    def _failed(self, exc: BaseException, shards: Iterable[int]) -> None:
        if self.reachable:
            log.warning("Redis unreachable (%r): states kept in memory until it is back", exc)
        self.failures += 1
        self.lag(shards)
