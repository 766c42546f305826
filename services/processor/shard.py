"""A shard of tables, folded by the worker that owns it: the heart of the processor.

A shard is one partition of the table registry. The worker that owns it (faust's consumer
group decides, see `app.py`) keeps a `ShardRunner` for it, which:

1. opens the shard's log (`ports.ShardLog`; on Kafka, a transactional producer with the shard's
   `transactional.id`): opening it fences any earlier owner still alive (a "zombie") and
   aborts its open transaction;
2. reads the shard's tables from the registry partition and their checkpoints (the last
   offset whose alerts were committed) from the checkpoints partition;
3. has the worker's fetch loop (`worker_loop.py`) follow the shard's partition of
   `tableserver.live`, where the gateway puts a copy of each event it appended (table, offset,
   bytes), and folds each copy that is its table's next event at once, with `shared`; a table
   whose copies leave a gap, and every table at start and at each sweep whose topic ends
   further than its fold (events no copy announced), is read from its own topic until it has
   caught up. So a fetch names the live partitions and the few tables being caught up, not
   the hundreds of tables of the shards: the broker reads, and the worker encodes and
   decodes, only what is new (`fetch_session.py`, with incremental fetch sessions). Alerts of
   offsets up to the checkpoint were emitted before and are not emitted again;
4. after each fetch that raised new alerts, in one Kafka transaction, emits them and the new
   checkpoints; then (and at once after a fetch without alerts) the loop writes the tables'
   states to Redis (versioned by offset) and their feeds.

So an alert is in the alerts topic exactly once, whatever crashes: a transaction that did not
commit is invisible to `read_committed` readers, and a refold raises the same alerts with the
same ids, which the checkpoint filters out.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from aiokafka import TopicPartition

from services.common.live import read_copy
from services.common.names import CHECKPOINTS, LIVE, TABLE_PREFIX, table_topic
from services.common.registry import shard_records
from services.common.store import States, StateWrite
from services.processor.ports import Fetcher, Record, ShardLog
from shared.table.alert_record import Raised
from shared.table.table_run import TableRun

log = logging.getLogger("tableserver.processor")

MAX_UNANNOUNCED = 10_000  # copies of tables not registered here yet, remembered at most
STALLED_SWEEPS = 5  # sweeps a table read from its topic may stay at one offset (then read again)


@dataclass
class Folded:
    """What one fetch's records did to a shard's tables."""

    touched: dict[str, TableRun] = field(default_factory=dict)
    alerts: Raised = field(default_factory=list)  # to emit: past their table's checkpoint

    def states(self) -> States:
        """Each table touched, as Redis keeps it: its board (with the end of the board before,
        `TableRun.view`), and its line in its tournament's overview if it has one."""
        writes = []
        for run in self.touched.values():
            try:
                view = run.view()
                if view is not None:
                    writes.append(StateWrite(run.table, run.offset, view, run.overview_line()))
            except Exception:  # a fault of ours in one table's view: the others are written
                log.exception("table %s: its state at offset %d could not be made; Redis "
                              "keeps the one before", run.table, run.offset)
        return writes


class ShardRunner:
    def __init__(self, shard: int, fetcher: Fetcher, shard_log: ShardLog) -> None:
        self.shard = shard
        self.fetcher = fetcher  # the worker's, shared by its shards
        self.shard_log = shard_log
        self.tables: dict[str, TableRun] = {}
        self.live = TopicPartition(LIVE, shard)  # the copies of the shard's new events
        self.behind: dict[str, int] = {}  # table → where its topic is known to end: read it
        self.stalled: dict[str, tuple[int, int]] = {}  # behind table → its offset, sweeps seen
        self.unannounced: dict[str, int] = {}  # copies for tables not registered here yet
        self._started = False
        self._early: list[dict[str, Any]] = []  # tables registered while starting
        self.archived: dict[str, dict[str, Any]] = {}  # closed tables' records: not folded

    async def prepare(self) -> None:
        """Fence the shard's previous owner, and learn its tables and checkpoints."""
        await self.shard_log.open()  # fences the previous owner, aborts its open transaction
        checkpoints = await self.shard_log.read(CHECKPOINTS)
        for table, record in (await shard_records(self.shard_log.read)).items():
            if "archive" in record:  # closed and archived: its topic is gone
                self.archived[table] = record
                continue
            checkpoint = int(checkpoints[table]) if table in checkpoints else -1
            self.tables[table] = TableRun(table, record, checkpoint=checkpoint)
        self._started = True
        for meta in self._early:  # registered after we read the registry: not lost
            self.add_table(meta)
        self.fetcher.track([LIVE, *(table_topic(t) for t in self.tables)])

    async def live_end(self) -> int:
        """Where the shard's live partition ends now (TimeoutError if its leader stays
        unknown)."""
        for _ in range(100):
            end = (await self.fetcher.end_offsets([self.live])).get(self.live)
            if end is not None:
                return end
            await asyncio.sleep(0.1)  # its leader is being looked up
        raise TimeoutError(f"the leader of {self.live} is not known")

    async def follow(self, live_end: int) -> None:
        """Fold the copies from `live_end` on, and every table's topic up to where it ends now:
        no event falls between the two (one in both is folded once: offsets tell). The worker's
        loop must know this runner first: what the fetcher reads for it is its to fold."""
        self.fetcher.fetch_from(self.live, live_end)
        self.sweep(await self.fetcher.end_offsets(self.table_partitions()))
        log.info("shard %d: started with %d tables", self.shard, len(self.tables))

    def add_table(self, meta: dict[str, Any]) -> None:
        """A table was registered: fold it from now on (no rebalance: no consumer group)."""
        table = meta["table"]
        if not self._started:
            self._early.append(meta)
            return
        if "archive" in meta:  # closed by the director and archived: its topic goes
            self.archived[table] = meta
            self.tables.pop(table, None)
            self.behind.pop(table, None)
            self.stalled.pop(table, None)
            self.fetcher.untrack(table_topic(table))
            return
        if table in self.tables or table in self.archived:
            return
        run = self.tables[table] = TableRun(table, meta)
        self.fetcher.track([table_topic(table)])
        if table in self.unannounced:  # its first copies came before its registration
            self._read_topic(run, self.unannounced.pop(table))

    def table_partitions(self) -> list[TopicPartition]:
        return [TopicPartition(table_topic(t), 0) for t in self.tables]

    def sweep(self, ends: dict[TopicPartition, int]) -> None:
        """Every table of `ends` (where their topics end) whose topic holds events not folded
        yet is read from its topic; one read that has not moved for `STALLED_SWEEPS` sweeps is
        started again (and told: a fetch that never comes back must not stall a table
        silently)."""
        for tp, end in ends.items():
            run = self.tables.get(tp.topic[len(TABLE_PREFIX):])
            if run is not None:
                self._read_topic(run, end)
                self._watch(run, tp)

    def _watch(self, run: TableRun, tp: TopicPartition) -> None:
        if run.table not in self.behind:
            self.stalled.pop(run.table, None)
            return
        offset, sweeps = self.stalled.get(run.table, (run.offset, 0))
        sweeps = sweeps + 1 if offset == run.offset else 1
        if sweeps < STALLED_SWEEPS:
            self.stalled[run.table] = (run.offset, sweeps)
            return
        log.warning("shard %d: %s stalled at offset %d for %d sweeps, its topic ending at %d "
                    "(fetcher: %s): read again", self.shard, run.table, run.offset, sweeps,
                    self.behind[run.table], self.fetcher.describe(tp))
        self.fetcher.fetch_from(tp, run.offset + 1)
        self.stalled.pop(run.table, None)

    def _read_topic(self, run: TableRun, end: int) -> None:
        """Read `run`'s table from its topic up to `end` (at least): a copy is missing or
        out of order, or events came without copies."""
        if end <= run.offset + 1:
            return  # nothing new there
        if run.table not in self.behind:
            self.fetcher.fetch_from(TopicPartition(table_topic(run.table), 0), run.offset + 1)
        self.behind[run.table] = max(end, self.behind.get(run.table, 0))

    async def stop(self) -> None:
        """Fetch nothing more for this shard, and close its log."""
        self.fetcher.drop(self.live)
        for table in self.behind:
            self.fetcher.drop(TopicPartition(table_topic(table), 0))
        self.behind.clear()
        self.stalled.clear()
        await self.shard_log.close()
        log.info("shard %d: stopped", self.shard)

    def fold(self, batches: dict[TopicPartition, list[Record]]) -> Folded:
        """Fold the records fetched for this shard (its live partition, its tables' topics)."""
        folded = Folded()

        def fold(run: TableRun, offset: int, value: bytes | None) -> None:
            new = run.apply(offset, value)
            if run.failure is not None:
                log.error("table %s: the event at offset %d skipped, the fold failed on it",
                          run.table, offset, exc_info=run.failure)
                run.failure = None
            if offset > run.checkpoint:
                folded.alerts.extend(new)
            folded.touched[run.table] = run

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
                self.fetcher.drop(tp)
        return folded

    async def commit(self, folded: Folded) -> None:
        """The new alerts and the checkpoints of the tables folded past theirs, in one
        transaction: all visible, or none.

        Only a fetch that raised new alerts commits. A checkpoint that lags behind its table
        loses nothing: the alerts a table has in the topic are exactly those raised at offsets
        up to its committed checkpoint (every commit holding a table's alerts moves its
        checkpoint past them), so a refold emits exactly the ones beyond it. And most calls
        are legal: the transaction's round trips are spared to almost every fetch."""
        if not folded.alerts:
            return
        live = [run for run in folded.touched.values() if run.live]
        await self.shard_log.commit(folded.alerts, {run.table: run.offset for run in live})
        for run in live:
            run.checkpoint = run.offset

    def everything(self) -> tuple[dict[str, dict[str, Any]], Folded]:
        """Every table's registry record, and every table as if just folded: what Redis
        needs from this shard after losing its data."""
        return ({**self.archived, **{table: run.meta for table, run in self.tables.items()}},
                Folded(touched=dict(self.tables)))
