"""A worker's one fetch loop, over every shard it owns.

Each shard's runner (`shard.py`) keeps its tables, its checkpoints and its transactional
producer; the loop fetches for all of them at once with one `TableFetcher`, hands each runner
the records of its partitions, and writes all the new states to Redis in one pipeline. Under
load, one fetch and one Redis round trip carry the calls of every shard of the worker, instead
of a fetch and a round trip per shard (py-spy: socket writes were a quarter of a worker's CPU).

The runners change while the loop runs (faust moves shards between workers): `add` and
`remove` wait while the loop is folding or writing, so a runner is never stopped halfway
through a batch, and records fetched for a shard that has just gone are dropped with it (its
next owner refolds them from the topics).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import TypeVar

from aiokafka import TopicPartition
from aiokafka.errors import KafkaError

from services.names import LIVE, TABLE_PREFIX, shard_of
from services.processor.fetch_session import Record, TableFetcher
from services.processor.shard import ShardRunner
from services.store import StateStore

log = logging.getLogger("tableserver.processor")

FETCH_WAIT_S = 0.05  # the longest a fetch is awaited before the loop looks at its timers
ALIVE_CHECK_S = 1.0  # how often each runner checks that Redis still has its data
SWEEP_S = 2.0  # how often the loop looks for events that no live copy announced

T = TypeVar("T")


class WorkerLoop:
    def __init__(self, bootstrap: str, store: StateStore, shards: int) -> None:
        self.store = store
        self.shards = shards
        self.fetcher = TableFetcher(bootstrap)
        self.runners: dict[int, ShardRunner] = {}
        self.busy = asyncio.Lock()  # held while folding and writing, and to change runners
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.fetcher.start()
        self.task = asyncio.create_task(self._run(), name="fetch-loop")

    async def add(self, runner: ShardRunner) -> None:
        """Fold `runner`'s shard from now on (the runner prepared: fencing, tables)."""
        live_end = await runner.live_end()
        async with self.busy:
            self.runners[runner.shard] = runner
            await runner.follow(live_end)

    async def remove(self, shard: int) -> None:
        async with self.busy:
            runner = self.runners.pop(shard)
        await runner.stop()

    def _by_owner(self, partitions: dict[TopicPartition, T]) -> dict[ShardRunner,
                                                                      dict[TopicPartition, T]]:
        """`partitions` by the runner they belong to (those of shards no longer here left
        out)."""
        owned: dict[ShardRunner, dict[TopicPartition, T]] = {}
        for tp, value in partitions.items():
            shard = tp.partition if tp.topic == LIVE \
                else shard_of(tp.topic[len(TABLE_PREFIX):], self.shards)
            runner = self.runners.get(shard)
            if runner is not None:
                owned.setdefault(runner, {})[tp] = value
        return owned

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_alive_check = next_sweep = loop.time()
        sweeping: asyncio.Task[dict[TopicPartition, int]] | None = None
        while True:
            try:
                batches = await self.fetcher.fetch(timeout=FETCH_WAIT_S)
                async with self.busy:
                    if batches:
                        await self._process(batches)
                    if sweeping is not None and sweeping.done():
                        self._sweep(sweeping.result())
                        sweeping = None
                    if sweeping is None and loop.time() >= next_sweep:
                        # The tables' ends are asked while the loop goes on folding: waited
                        # for here, they held up every call arriving meanwhile (24 ms on
                        # average, measured in this loop; docs/architecture.md).
                        next_sweep = loop.time() + SWEEP_S
                        sweeping = asyncio.create_task(self._table_ends())
                    if loop.time() >= next_alive_check:
                        next_alive_check = loop.time() + ALIVE_CHECK_S
                        await asyncio.gather(*(runner.restore_if_redis_lost()
                                               for runner in list(self.runners.values())))
            except Exception:  # e.g. fenced by a newer owner, or Kafka lost mid-commit
                # Crash-only: what was folded but not committed must not be half-kept.
                # Stopping the worker hands its shards to the others, which refold from
                # the committed checkpoints (a supervisor restarts this one).
                log.exception("the fetch loop cannot go on; stopping this worker")
                os.kill(os.getpid(), signal.SIGTERM)
                return

    async def _process(self, batches: dict[TopicPartition, list[Record]]) -> None:
        """Fold each shard's records; commit the shards that raised alerts; write all the new
        states and alerts to Redis in one round trip."""
        folds = [(runner, runner.fold(records))
                 for runner, records in self._by_owner(batches).items()]
        await asyncio.gather(*(runner.commit(folded) for runner, folded in folds))
        await self.store.write_batch(
            [state for _, folded in folds for state in folded.states()],
            [alert for _, folded in folds for alert in folded.stored_alerts()])

    async def _table_ends(self) -> dict[TopicPartition, int]:
        """Where the topic of every table of every runner ends now (none if Kafka fails to
        say: the next sweep will do)."""
        partitions = [tp for runner in self.runners.values()
                      for tp in runner.table_partitions()]
        try:
            return await self.fetcher.end_offsets(partitions)
        except KafkaError as exc:
            log.warning("sweep failed: %r", exc)
            return {}

    def _sweep(self, ends: dict[TopicPartition, int]) -> None:
        """Every table whose topic holds events not folded yet is read from its topic. `ends`
        may be a few fetches old: a table folded meanwhile is left alone, and a shard that
        left meanwhile is not swept."""
        for runner, owned in self._by_owner(ends).items():
            runner.sweep(owned)
