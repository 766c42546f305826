"""A shard of tables, folded by one worker: the heart of the processor.

A shard is one partition of the table registry. The worker that owns it (faust's consumer
group decides, see `app.py`) runs a `ShardRunner`, which:

1. opens a transactional producer with the shard's `transactional.id`; opening it fences any
   earlier owner still alive (a "zombie") and aborts its open transaction;
2. reads the shard's tables from the registry partition and their checkpoints (the last
   offset whose alerts were committed) from the checkpoints partition;
3. follows the shard's partition of `tableserver.live`, where the gateway puts a copy of each
   event it appended (table, offset, bytes), and folds each copy that is its table's next
   event at once, with `shared`; a table whose copies leave a gap, and every table at start
   and every `SWEEP_S` seconds whose topic ends further than its fold (events no copy
   announced), is read from its own topic until it has caught up. So a fetch names the live
   partition and the few tables being caught up, not the hundreds of tables of the shard: the
   broker reads, and the worker encodes and decodes, only what is new (`fetch_session.py`,
   with incremental fetch sessions). Alerts of offsets up to the checkpoint were emitted
   before and are not emitted again;
4. after each fetch that raised new alerts, in one Kafka transaction, emits them and the new
   checkpoints; then (and at once after a fetch without alerts) writes the tables' states to
   Redis (versioned by offset) and their feeds.

So an alert is in the alerts topic exactly once, whatever crashes: a transaction that did not
commit is invisible to `read_committed` readers, and a refold raises the same alerts with the
same ids, which the checkpoint filters out.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.errors import KafkaError

from services.live import read_copy
from services.names import ALERTS, CHECKPOINTS, LIVE, REGISTRY, TABLE_PREFIX, table_topic
from services.processor.fetch_session import Record, TableFetcher
from services.store import StateStore
from services.table_run import TableRun

log = logging.getLogger("tableserver.processor")

ALIVE_CHECK_S = 1.0  # how often the runner checks that Redis still has its data
SWEEP_S = 2.0  # how often it looks for events that no live copy announced
MAX_UNANNOUNCED = 10_000  # copies of tables not registered here yet, remembered at most


async def read_partition(bootstrap: str, topic: str, partition: int) -> dict[str, bytes]:
    """The latest value of each key in one partition of a compacted topic (committed data)."""
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                isolation_level="read_committed")
    await consumer.start()
    try:
        tp = TopicPartition(topic, partition)
        consumer.assign([tp])
        await consumer.seek_to_beginning(tp)
        end = (await consumer.end_offsets([tp]))[tp]
        latest: dict[str, bytes] = {}
        while await consumer.position(tp) < end:
            batch = await consumer.getmany(tp, timeout_ms=500)
            for record in batch.get(tp, []):
                if record.key is not None and record.value is not None:
                    latest[record.key.decode()] = record.value
        return latest
    finally:
        await consumer.stop()


class ShardRunner:
    def __init__(self, shard: int, bootstrap: str, store: StateStore) -> None:
        self.shard = shard
        self.bootstrap = bootstrap
        self.store = store
        self.tables: dict[str, TableRun] = {}
        self.producer: AIOKafkaProducer | None = None
        self.fetcher: TableFetcher | None = None
        self.live = TopicPartition(LIVE, shard)  # the copies of the shard's new events
        self.behind: dict[str, int] = {}  # table → where its topic is known to end: read it
        self.unannounced: dict[str, int] = {}  # copies for tables not registered here yet
        self.task: asyncio.Task[None] | None = None
        self._started = False
        self._early: list[dict[str, Any]] = []  # tables registered while starting

    @property
    def alive_key(self) -> str:
        return f"tableserver:shard-alive:{self.shard}"

    async def start(self) -> None:
        self.producer = AIOKafkaProducer(
            bootstrap_servers=self.bootstrap, acks="all", enable_idempotence=True,
            transactional_id=f"tableserver-shard-{self.shard}")
        await self.producer.start()  # init_transactions: fences the previous owner
        checkpoints = await read_partition(self.bootstrap, CHECKPOINTS, self.shard)
        registry = await read_partition(self.bootstrap, REGISTRY, self.shard)
        self.fetcher = fetcher = TableFetcher(self.bootstrap)
        await fetcher.start()
        for table, record in registry.items():
            checkpoint = int(checkpoints[table]) if table in checkpoints else -1
            self.tables[table] = TableRun(table, json.loads(record), checkpoint=checkpoint)
        for meta in self._early:  # registered after we read the registry: not lost
            self.tables.setdefault(meta["table"], TableRun(meta["table"], meta))
        self._started = True
        fetcher.track([LIVE, *(table_topic(t) for t in self.tables)])
        # The copies from now on, then every table's topic up to where it ends now: no event
        # falls between the two (one in both is folded once: offsets tell).
        live_end = None
        while live_end is None:
            live_end = (await fetcher.end_offsets([self.live])).get(self.live)
            if live_end is None:
                await asyncio.sleep(0.1)  # its leader is being looked up
        fetcher.fetch_from(self.live, live_end)
        await self._sweep()
        await self.store.redis.set(self.alive_key, "1")
        self.task = asyncio.create_task(self._run(), name=f"shard-{self.shard}")
        log.info("shard %d: started with %d tables", self.shard, len(self.tables))

    async def add_table(self, meta: dict[str, Any]) -> None:
        """A table was registered: fold it from now on (no rebalance: no consumer group)."""
        table = meta["table"]
        if not self._started:
            self._early.append(meta)
            return
        if table in self.tables:
            return
        run = self.tables[table] = TableRun(table, meta)
        assert self.fetcher is not None
        self.fetcher.track([table_topic(table)])
        if table in self.unannounced:  # its first copies came before its registration
            self._read_topic(run, self.unannounced.pop(table))

    def _read_topic(self, run: TableRun, end: int) -> None:
        """Read `run`'s table from its topic up to `end` (at least): a copy is missing or
        out of order, or events came without copies."""
        assert self.fetcher is not None
        if end <= run.offset + 1:
            return  # nothing new there
        if run.table not in self.behind:
            self.fetcher.fetch_from(TopicPartition(table_topic(run.table), 0), run.offset + 1)
        self.behind[run.table] = max(end, self.behind.get(run.table, 0))

    async def _sweep(self) -> None:
        """Every table whose topic holds events not folded yet is read from its topic."""
        assert self.fetcher is not None
        ends = await self.fetcher.end_offsets(TopicPartition(table_topic(t), 0)
                                              for t in self.tables)
        for tp, end in ends.items():
            self._read_topic(self.tables[tp.topic[len(TABLE_PREFIX):]], end)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        for client in (self.fetcher, self.producer):
            if client is not None:
                await client.stop()
        log.info("shard %d: stopped", self.shard)

    async def _run(self) -> None:
        assert self.fetcher is not None
        loop = asyncio.get_running_loop()
        next_alive_check = next_sweep = loop.time()
        while True:
            try:
                batches = await self.fetcher.fetch(timeout=0.05)
                if batches:
                    await self._process(batches)
                if loop.time() >= next_sweep:
                    next_sweep = loop.time() + SWEEP_S
                    try:
                        await self._sweep()
                    except KafkaError as exc:  # the next sweep will do
                        log.warning("shard %d: sweep failed: %r", self.shard, exc)
            except Exception:  # e.g. fenced by a newer owner, or Kafka lost mid-commit
                # Crash-only: what was folded but not committed must not be half-kept.
                # Stopping the worker hands its shards to the others, which refold from
                # the committed checkpoints (a supervisor restarts this one).
                log.exception("shard %d: cannot go on; stopping this worker", self.shard)
                os.kill(os.getpid(), signal.SIGTERM)
                return
            if loop.time() >= next_alive_check:
                next_alive_check = loop.time() + ALIVE_CHECK_S
                await self._restore_if_redis_lost()

    async def _process(self, batches: dict[TopicPartition, list[Record]]) -> None:
        fetcher = self.fetcher
        assert fetcher is not None
        alerts: list[tuple[str, dict[str, Any]]] = []  # to emit: past the checkpoint
        raised: list[tuple[str, dict[str, Any]]] = []  # all, for Redis (idempotent)
        touched: dict[str, TableRun] = {}

        def fold(run: TableRun, offset: int, value: bytes | None) -> None:
            new = run.apply(offset, value)
            raised.extend(new)
            if offset > run.checkpoint:
                alerts.extend(new)
            touched[run.table] = run

        for tp, records in batches.items():
            if tp == self.live:
                for record in records:
                    copy = read_copy(record.key, record.value)
                    if copy is None:
                        continue
                    table, offset, value = copy
                    run = self.tables.get(table)
                    if run is None:
                        if len(self.unannounced) < MAX_UNANNOUNCED:
                            self.unannounced[table] = max(offset + 1,
                                                          self.unannounced.get(table, 0))
                    elif offset == run.offset + 1 and table not in self.behind:
                        fold(run, offset, value)  # the usual case: the next event, at once
                    else:
                        self._read_topic(run, offset + 1)  # a gap: the topic tells
                continue
            run = self.tables.get(tp.topic[len(TABLE_PREFIX):])
            if run is None:
                continue
            for record in records:
                fold(run, record.offset, record.value)
            if run.offset + 1 >= self.behind.get(run.table, 0):
                self.behind.pop(run.table, None)
                fetcher.drop(tp)
        if alerts:  # without new alerts there is nothing to commit: see `_commit`
            await self._commit(alerts, [run for run in touched.values() if run.live])
        await self.store.write_batch(
            [(run.table, run.offset, run.state.board.to_dict()) for run in touched.values()
             if run.state.board is not None],
            [(alert_id, {"id": alert_id, **alert}) for alert_id, alert in raised])

    async def _commit(self, alerts: list[tuple[str, dict[str, Any]]],
                      live: list[TableRun]) -> None:
        """Alerts and checkpoints in one transaction: all visible, or none.

        Only a batch that raised new alerts commits. A checkpoint that lags behind its table
        loses nothing: the alerts a table has in the topic are exactly those raised at offsets
        up to its committed checkpoint (every commit holding a table's alerts moves its
        checkpoint past them), so a refold emits exactly the ones beyond it. And most calls
        are legal: the transaction's round trips are spared to almost every fetch."""
        producer = self.producer
        assert producer is not None
        async with producer.transaction():
            for alert_id, alert in alerts:
                await producer.send(
                    ALERTS, key=alert["table"].encode(),
                    value=json.dumps({"id": alert_id, **alert}).encode())
            for run in live:
                await producer.send(CHECKPOINTS, key=run.table.encode(),
                                    value=str(run.offset).encode(), partition=self.shard)
        for run in live:
            run.checkpoint = run.offset

    async def _restore_if_redis_lost(self) -> None:
        """Redis lost its data (restart, FLUSHALL): write every table's state again."""
        if await self.store.redis.exists(self.alive_key):
            return
        log.warning("shard %d: Redis lost its data; writing %d tables again", self.shard,
                    len(self.tables))
        for run in self.tables.values():
            await self.store.remember_table(run.table, run.meta)
        await self.store.write_batch(
            [(run.table, run.offset, run.state.board.to_dict()) for run in self.tables.values()
             if run.state.board is not None],
            [(alert_id, {"id": alert_id, **alert}) for run in self.tables.values()
             for alert_id, alert in run.raised])
        await self.store.redis.set(self.alive_key, "1")
