"""A worker's shards and its one fetch loop over all of them, through faults.

Each shard's runner (`shard.py`) keeps its tables, its checkpoints and its log (fencing,
transactions); the loop fetches for all of them at once with one fetcher, hands each runner the
records of its partitions, and writes all the new states to Redis in one pipeline. Under load,
one fetch and one Redis round trip carry the calls of every shard of the worker, instead of a
fetch and a round trip per shard (py-spy: socket writes were a quarter of a worker's CPU).

Which shards run here is faust's group's answer (`own`, at each rebalance). The runners change
while the loop runs: a runner is added or removed only while the loop is not folding or
writing (`busy`), so it is never stopped halfway through a batch, and records fetched for a
shard that has just gone are dropped with it (its next owner refolds them from the topics).

Faults are survived in place, never by exiting (a supervisor restarting a worker costs every
shard a rebalance):
- Redis away or emptied: `StoreSync` keeps the states in the runners and writes them all again
  as soon as Redis answers (it is asked every 0.2 s, without holding up the loop);
- Kafka away: a failed fetch is retried after a pause; a runner whose transaction failed is
  started again (its log reopened, its tables refolded from the committed checkpoints), and a
  runner that cannot start retries with a growing pause while its shard is still assigned here;
- a fault no outage explains (a bug) in the loop or a runner's start: crash-only, the policy of
  every long-lived task of both services (`services/common/supervision.py`): the worker stops
  and exits non-zero, the group hands its shards to the others, which refold from the committed
  checkpoints, and the supervisor starts it again;
- a newer owner fenced a runner (this worker was paused, or cut off, past its session): the
  runner is dropped at once; faust's rebalance then says where the shard runs. A worker that
  missed a generation of the group starts all its runners afresh, since another worker may have
  run their shards meanwhile;
- this worker's event loop was frozen longer than its session (SIGSTOP, a starved machine): the
  group has given its shards to others, so it starts none until the group's next word (`own`).
  Started at once on its return, a runner fenced the shard's rightful owner, which waited
  `FENCED_WAIT_S` to take it back: a 16 s stall in CI (a worker paused 20 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TypeVar

from aiokafka import TopicPartition

from services.common.backoff import Backoff
from services.common.errors import LogUnavailable, StoreUnavailable
from services.common.gc_settle import settle
from services.common.kafka_faults import told
from services.common.names import LIVE, TABLE_PREFIX, shard_of
from services.common.store import StateStore
from services.common.supervision import Supervisor
from services.processor.live_marks import LiveMarks
from services.processor.ports import Fenced, Fetcher, Record, ShardLog
from services.processor.shard import Folded, ShardRunner
from services.processor.store_sync import StoreSync

log = logging.getLogger("tableserver.processor")

FETCH_WAIT_S = 0.05  # the longest a fetch is awaited before the loop looks at its timers
SWEEP_S = 2.0  # how often the loop looks for events that no live copy announced
RETRY_S = (0.2, 0.5, 1.0, 2.0, 5.0)  # pauses between a runner's attempts to start (then the last)
FETCH_RETRY_S = 1.0  # the pause after a failed fetch
FENCED_WAIT_S = 10.0  # a fenced shard still ours after this long (no rebalance came) restarts
SESSION_TIMEOUT_S = 6.0  # the group's session (app.py): frozen longer, a worker is out of it
CLOCK_TICK_S = 0.5  # how often the loop's clock is watched for a freeze
# A start's steps are bounded: aiokafka retries a transactional producer's start for as long as
# the coordinator answers "concurrent transactions", and a request can wait 40 s for an answer;
# a start that waits forever would leave its shard unfolded, and one that waits while the loop
# is held (`follow`) every shard of the worker.
PREPARE_TIMEOUT_S = 20.0  # the log opened (a zombie fenced), the registry and checkpoints read
FOLLOW_TIMEOUT_S = 10.0  # the tables' ends asked, while the loop waits
# Kafka's errors, as the adapters raise them (`services.common.kafka_faults`), and time-outs
KAFKA_OUTAGE = (LogUnavailable, OSError, TimeoutError)

T = TypeVar("T")


class WorkerLoop:
    def __init__(self, store: StateStore, fetcher: Fetcher,
                 shard_log: Callable[[int], ShardLog], shards: int, worker: str,
                 supervisor: Supervisor, marks: LiveMarks | None = None) -> None:
        self.store = store
        self.marks = marks  # the live topic's folded offsets, committed for lag readers
        self.supervisor = supervisor  # a death of the loop or a start stops the worker
        self.fetcher = fetcher
        self.shard_log = shard_log
        self.shards = shards
        self.worker = worker
        self.runners: dict[int, ShardRunner] = {}  # the shards running here
        self.starting: dict[int, ShardRunner] = {}  # and those being started
        self.starters: dict[int, asyncio.Task[None]] = {}
        self.assigned: set[int] = set()  # what faust's group gave this worker
        self.generation: int | None = None
        self.sync = StoreSync(store)
        self.busy = asyncio.Lock()  # held while folding and writing, and to change runners
        self.changes = asyncio.Lock()  # one assignment at a time
        self.task: asyncio.Task[None] | None = None
        self.clock: asyncio.Task[None] | None = None
        self.sweep_every = SWEEP_S
        self.session_s = SESSION_TIMEOUT_S
        self.ticked = 0.0  # when the clock's watch last ran (the loop's time)
        self.frozen_at: float | None = None  # a freeze past the session seen since own()

    async def start(self) -> None:
        await self.fetcher.start()
        if self.marks is not None:
            await self.marks.start()
        if self.clock is None or self.clock.done():
            self.ticked = asyncio.get_running_loop().time()
            self.clock = self.supervisor.supervised(
                asyncio.create_task(self._watch_clock(), name="clock-watch"), "clock watch")
        self.task = self.supervisor.supervised(
            asyncio.create_task(self._run(), name="fetch-loop"), "fetch loop")

    async def stop(self) -> None:
        tasks = [*self.starters.values(), *(t for t in (self.task, self.clock) if t)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.sync.stop()
        for shard in list(self.runners):
            await self._remove(shard)
        if self.marks is not None:
            await self.marks.stop()
        await self.fetcher.stop()

    # --- which shards run here ------------------------------------------------------------

    async def own(self, shards: set[int], generation: int) -> None:
        """Faust's group gave this worker `shards` in `generation`: stop the others, start the
        new ones (in the background: a runner that cannot start yet retries). Runners kept
        stay, unless this worker missed a generation: then another worker may have run their
        shards meanwhile (and fenced them), so they start afresh."""
        async with self.changes:
            missed = self.generation is not None and generation != self.generation + 1
            self.generation, self.assigned = generation, set(shards)
            self.frozen_at, self.ticked = None, asyncio.get_running_loop().time()
            if missed and self.runners:
                log.warning("%s missed a generation of the group (now %d): its shards start "
                            "afresh", self.worker, generation)
            for shard in sorted(self.runners):
                if missed or shard not in shards:
                    await self._remove(shard)
            for shard in sorted(shards - set(self.runners)):
                self._start_soon(shard)
            for shard in sorted(set(self.starters) - shards):
                self.starters.pop(shard).cancel()
        log.info("%s owns shards %s (generation %d)", self.worker, sorted(shards), generation)
        await self.announce()

    def add_table(self, shard: int, meta: dict[str, object]) -> None:
        """A table was registered in `shard`'s partition of the registry."""
        runner = self.runners.get(shard) or self.starting.get(shard)
        if runner is not None:
            runner.add_table(dict(meta))

    async def announce(self) -> None:
        """Which shards run here, for `make up`'s health check and the director (the key
        expires if this worker dies)."""
        with contextlib.suppress(StoreUnavailable, OSError):
            await self.store.announce_worker(self.worker, list(self.runners), ttl_s=15)

    def _start_soon(self, shard: int, after: float = 0.0) -> None:
        previous = self.starters.pop(shard, None)
        if previous is not None:
            previous.cancel()
        self.starters[shard] = self.supervisor.supervised(
            asyncio.create_task(self._start(shard, after), name=f"start-shard-{shard}"),
            f"start of shard {shard}")

    async def _start(self, shard: int, after: float) -> None:
        """Start `shard`'s runner, retrying while Kafka is away and the shard is still ours."""
        await asyncio.sleep(after)
        backoff = Backoff(RETRY_S)
        while True:
            while self.out_of_group():  # own() replaces this start when the group speaks
                await asyncio.sleep(CLOCK_TICK_S)
            if shard not in self.assigned or shard in self.runners:
                break
            runner = self.starting[shard] = ShardRunner(shard, self.fetcher,
                                                        self.shard_log(shard))
            clock = asyncio.get_running_loop().time
            began = clock()
            try:
                # tables registered meanwhile wait in the runner
                await asyncio.wait_for(runner.prepare(), PREPARE_TIMEOUT_S)
                live_end = await runner.live_end()
                prepared = clock()
                async with self.busy:
                    held = clock()
                    self.runners[shard] = runner
                    try:
                        await asyncio.wait_for(runner.follow(live_end), FOLLOW_TIMEOUT_S)
                    except BaseException:
                        del self.runners[shard]
                        raise
                self.sync.lag([shard])  # its records and states, to Redis
                # the steps' times, for a stall's post-mortem (the fault tests print them)
                log.info("shard %d: started in %.1f s (prepared in %.1f s, the loop held "
                         "after %.1f s more)", shard, clock() - began, prepared - began,
                         held - prepared)
                break
            except KAFKA_OUTAGE as exc:
                pause = backoff.next()
                log.warning("shard %d cannot start (%r); again in %.1f s", shard, told(exc),
                            pause)
                await runner.stop()
                await asyncio.sleep(pause)
            except BaseException:
                await runner.stop()
                raise  # a bug (not an outage) stops the worker: `supervised`
            finally:
                self.starting.pop(shard, None)
        self.starters.pop(shard, None)
        if not self.starters:
            settle()  # the shards' tables are loaded: long-lived from now on
            await self.announce()

    async def _watch_clock(self) -> None:
        """Notes a freeze of the event loop longer than the group's session."""
        loop = asyncio.get_running_loop()
        while True:
            self.ticked = loop.time()
            await asyncio.sleep(CLOCK_TICK_S)
            frozen = loop.time() - self.ticked
            if frozen > self.session_s:
                self.frozen_at = loop.time()
                log.warning("%s was frozen %.1f s, past its session: its shards wait for the "
                            "group's word", self.worker, frozen)

    def out_of_group(self) -> bool:
        """Frozen past the session (now, the watch not run yet, or less than `FENCED_WAIT_S`
        ago) and the group has not spoken since: it has given this worker's shards to others,
        and a runner started here would fence their new owner. (faust heartbeats from a thread
        of its own: a loop blocked by work, not a frozen process, stays in the group and starts
        its shards after `FENCED_WAIT_S`.)"""
        if self.clock is None:
            return False
        now = asyncio.get_running_loop().time()
        return now - self.ticked > self.session_s + CLOCK_TICK_S or \
            (self.frozen_at is not None and now - self.frozen_at < FENCED_WAIT_S)

    async def _remove(self, shard: int) -> None:
        """Stop `shard`'s runner, unless the loop dropped it while this waited for it."""
        async with self.busy:
            runner = self.runners.pop(shard, None)
            if self.marks is not None:
                self.marks.forget(shard)
        if runner is not None:
            await runner.stop()

    # --- the fetch loop -------------------------------------------------------------------

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
        next_sweep = loop.time()
        sweeping: asyncio.Task[dict[TopicPartition, int]] | None = None
        failed = Backoff.constant(FETCH_RETRY_S)
        while True:  # its death (a bug, not an outage) stops the worker: `supervised`
            try:
                batches = await self.fetcher.fetch(timeout=FETCH_WAIT_S)
            except KAFKA_OUTAGE as exc:
                log.warning("fetch failed (%r); again in %g s", told(exc), FETCH_RETRY_S)
                await failed.wait()
                batches = {}
            async with self.busy:
                if batches:
                    await self.process(batches)
                if sweeping is not None and sweeping.done():
                    self._sweep(sweeping.result())
                    sweeping = None
                if sweeping is None and loop.time() >= next_sweep:
                    # The tables' ends are asked while the loop goes on folding: waited
                    # for here, they held up every call arriving meanwhile (24 ms on
                    # average, measured in this loop; docs/performance-log.md).
                    next_sweep = loop.time() + self.sweep_every
                    sweeping = asyncio.create_task(self._table_ends())
                await self.sync.tick(self.runners, loop.time())
                if self.marks is not None:
                    self.marks.tick(loop.time())

    async def process(self, batches: dict[TopicPartition, list[Record]]) -> None:
        """Fold each shard's records; commit the shards that raised alerts; write the new
        states of those that committed to Redis in one round trip. A runner whose commit
        failed is dropped: fenced, it waits for the group's next word; otherwise it starts
        again from its checkpoints."""
        folds = [(runner, runner.fold(records))
                 for runner, records in self._by_owner(batches).items()]
        results = await asyncio.gather(*(runner.commit(folded) for runner, folded in folds),
                                       return_exceptions=True)
        committed: list[Folded] = []
        for (runner, folded), result in zip(folds, results, strict=True):
            if result is None:
                committed.append(folded)
            elif isinstance(result, Fenced):
                log.warning("shard %d fenced by a newer owner (%s): dropped", runner.shard,
                            result)
                await self._drop(runner, restart_after=FENCED_WAIT_S)
            elif isinstance(result, KAFKA_OUTAGE):
                log.warning("shard %d could not commit (%r): to be started again", runner.shard,
                            told(result))
                await self._drop(runner, restart_after=0.0)
            else:
                raise result
        await self.sync.write([state for folded in committed for state in folded.states()],
                              self.runners)
        if self.marks is not None:  # folded, and written (or kept for Redis's return)
            for tp, records in batches.items():
                if tp.topic == LIVE and records and tp.partition in self.runners:
                    self.marks.folded(tp.partition, records[-1].offset + 1)

    async def _drop(self, runner: ShardRunner, restart_after: float) -> None:
        """Stop `runner` (the loop is busy: it is not folding) and start its shard again
        after `restart_after` s if the group has not moved it meanwhile."""
        if self.runners.get(runner.shard) is runner:
            del self.runners[runner.shard]
            if self.marks is not None:
                self.marks.forget(runner.shard)
        await runner.stop()
        self._start_soon(runner.shard, after=restart_after)

    async def _table_ends(self) -> dict[TopicPartition, int]:
        """Where the topic of every table of every runner ends now (none if Kafka fails to
        say: the next sweep will do)."""
        partitions = [tp for runner in self.runners.values()
                      for tp in runner.table_partitions()]
        try:
            return await self.fetcher.end_offsets(partitions)
        except KAFKA_OUTAGE as exc:
            log.warning("sweep failed: %r", told(exc))
            return {}

    def _sweep(self, ends: dict[TopicPartition, int]) -> None:
        """Every table whose topic holds events not folded yet is read from its topic. `ends`
        may be a few fetches old: a table folded meanwhile is left alone, and a shard that
        left meanwhile is not swept."""
        for runner, owned in self._by_owner(ends).items():
            runner.sweep(owned)

