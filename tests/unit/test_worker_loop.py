"""The processor's logic with Kafka and Redis replaced by fakes (tests/fakes.py): live copies,
gaps, sweeps, checkpoints, fencing, and outages of either, each survived in place. The fakes
pass the same contract tests as the real adapters (tests/integration/test_processor_contracts.py);
the same faults on the real stack are in tests/integration/test_faults.py."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiokafka.structs import TopicPartition

from services.common.names import ALERTS, CHECKPOINTS, LIVE, shard_of, table_topic
from services.processor import worker_loop
from services.processor.worker_loop import WorkerLoop
from shared.codec import encode, from_map
from shared.table.table_run import TableRun
from tests.fakes import FlakyStore, MemoryFetcher, MemoryKafka, MemoryShardLog, supervisor
from tests.script import log

SHARDS = 2
IRREGULAR = "N 1S, E 1H, S decline, E 2H, S 2S, W P, N 4S, E P, S P, W P"


def events(script: str) -> list[bytes]:
    return [encode(from_map(event)) for event in log(script)]


def worker(kafka: MemoryKafka, store: FlakyStore, name: str = "w1") -> WorkerLoop:
    loop = WorkerLoop(store, MemoryFetcher(kafka), lambda shard: MemoryShardLog(kafka, shard),
                      SHARDS, name, supervisor())
    loop.sweep_every = 0.05
    return loop


@asynccontextmanager
async def running(loop: WorkerLoop, shards: set[int] | None = None, generation: int = 1
                  ) -> AsyncIterator[WorkerLoop]:
    await loop.start()
    await loop.own(set(range(SHARDS)) if shards is None else shards, generation)
    await until(lambda: not loop.starters, "the runners started")
    try:
        yield loop
    finally:
        await loop.stop()
    assert not loop.supervisor.died, "a task of the loop died"


async def until(condition: Callable[[], object], what: str, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)  # the poll's interval
    raise AssertionError(f"not {what} after {seconds} s")


def swept(loop: WorkerLoop) -> Callable[[], bool]:
    """Counts the worker's sweeps from now on (install it before the start): the check is
    true once a sweep has been told where the tables end."""
    told = 0
    ask = loop._table_ends

    async def counted() -> dict[TopicPartition, int]:
        nonlocal told
        ends = await ask()
        told += 1
        return ends

    loop._table_ends = counted  # type: ignore[method-assign]
    return lambda: told > 0


def replayed(kafka: MemoryKafka, table: str) -> TableRun:
    run = TableRun(table)
    for offset, (_, value) in enumerate(kafka.records(table_topic(table))):
        run.apply(offset, value)
    return run


def caught_up(kafka: MemoryKafka, store: FlakyStore, table: str) -> Callable[[], bool]:
    """True once the store holds the table's state as a replay of its topic gives it."""
    def check() -> bool:
        run = replayed(kafka, table)
        found = store.states.get(table)
        return run.state.board is not None and found == (run.offset, run.view())
    return check


def alert_ids(kafka: MemoryKafka) -> list[str]:
    return [json.loads(value or b"")["id"] for _, value in kafka.records(ALERTS)]


def play(kafka: MemoryKafka, table: str, script: str, copies: bool = True) -> None:
    for value in events(script):
        kafka.call(table, value, copy=copies)


@pytest.fixture
def kafka() -> Iterator[MemoryKafka]:
    yield MemoryKafka(SHARDS)


async def test_a_copy_that_is_its_tables_next_event_is_folded_without_reading_the_topic(
        kafka: MemoryKafka) -> None:
    store = FlakyStore()
    kafka.register("t1")
    loop = worker(kafka, store)
    loop.sweep_every = 3600.0  # no sweep but the start's: the copies alone tell
    sweeps = swept(loop)
    async with running(loop):
        await until(sweeps, "the start's sweep told where the tables end")
        play(kafka, "t1", "N 1S, E P")
        await until(caught_up(kafka, store, "t1"), "t1 folded")
        assert all(tp.topic == LIVE for tp in loop.fetcher.positions)  # type: ignore[attr-defined]


async def test_a_gap_in_the_copies_sends_the_runner_to_the_tables_topic(
        kafka: MemoryKafka) -> None:
    store = FlakyStore()
    kafka.register("t1")
    loop = worker(kafka, store)
    loop.sweep_every = 3600.0  # no sweep but the start's: only the gap can tell
    sweeps = swept(loop)
    async with running(loop):
        await until(sweeps, "the start's sweep told where the tables end")
        first, second, third = events("N 1S, E P")
        kafka.call("t1", first)
        kafka.call("t1", second, copy=False)  # its copy lost
        kafka.call("t1", third)
        await until(caught_up(kafka, store, "t1"), "t1 read from its topic")
        assert store.states["t1"][0] == 2


async def test_events_no_copy_announced_are_found_by_the_sweep(kafka: MemoryKafka) -> None:
    """An import, or a gateway that died between its append and its copy: no copy at all."""
    store = FlakyStore()
    kafka.register("t1")
    loop = worker(kafka, store)
    sweeps = swept(loop)
    async with running(loop):
        await until(sweeps, "the start's sweep told where the tables end")
        play(kafka, "t1", "N 1S, E P, S 2S", copies=False)
        await until(caught_up(kafka, store, "t1"), "t1 swept")


async def test_alerts_commit_once_with_their_checkpoints_and_a_new_owner_repeats_none(
        kafka: MemoryKafka) -> None:
    """Alerts and checkpoints are committed together; the next owner refolds from offset 0,
    raises the same alerts with the same ids, and emits only those past the checkpoint."""
    store = FlakyStore()
    kafka.register("t1")
    async with running(worker(kafka, store, "w1")):
        play(kafka, "t1", "N 1S, E 1H, S decline, E 2H")
        await until(lambda: len(alert_ids(kafka)) == 1, "the insufficient bid's alert")
        checkpoints = kafka.records(CHECKPOINTS, shard_of("t1", SHARDS))
        assert checkpoints == [(b"t1", b"4")]  # the last offset of the fetch that raised it
    async with running(worker(kafka, store, "w2")):
        await until(caught_up(kafka, store, "t1"), "w2 refolded t1")
        play(kafka, "t1", "S 8NT")  # a bid above seven: one more alert (Law 38)
        await until(lambda: len(alert_ids(kafka)) == 2, "the second alert")
        last = str(len(kafka.records(table_topic("t1"))) - 1).encode()
        await until(lambda: kafka.records(CHECKPOINTS, shard_of("t1", SHARDS))[-1]
                    == (b"t1", last), "w2's checkpoint at t1's last event")
    ids = alert_ids(kafka)
    assert len(ids) == len(set(ids)) == 2


async def test_a_fenced_runner_is_dropped_and_emits_nothing_twice(kafka: MemoryKafka) -> None:
    """A worker paused past its session (a zombie) finds, when it resumes, that the shard's
    new owner fenced its log: its commit fails, its runner is dropped at once, and no alert is
    emitted twice; the states it had written never move backwards."""
    store = FlakyStore()
    kafka.register("t1")
    shard = shard_of("t1", SHARDS)
    async with running(worker(kafka, store, "zombie"), {shard}) as zombie:
        play(kafka, "t1", "N 1S, E P")
        await until(caught_up(kafka, store, "t1"), "t1 folded by the zombie")
        assert zombie.task is not None
        zombie.task.cancel()  # paused
        async with running(worker(kafka, store, "new"), {shard}):
            play(kafka, "t1", "S 1H")  # insufficient: an alert, committed by the new owner
            await until(lambda: len(alert_ids(kafka)) == 1, "the new owner's alert")
            # the zombie resumes and folds the same events
            await zombie.start()
            await until(lambda: shard not in zombie.runners, "the zombie's runner dropped")
            assert shard in zombie.starters  # again, unless the group says otherwise first
    assert len(alert_ids(kafka)) == 1
    assert store.feeds["t1"] == sorted(store.feeds["t1"])


async def test_a_worker_frozen_past_its_session_starts_no_runner_until_the_group_speaks(
        kafka: MemoryKafka) -> None:
    """A worker frozen longer than its session (SIGSTOP mid-commit) is out of the group, which
    gave its shard to another worker meanwhile: the commit that timed out in the freeze does
    not start the runner again on its return (it would fence the shard's rightful owner, which
    then waited 10 s to take it back: a 16 s stall in CI); the group's next word does."""
    store = FlakyStore()
    kafka.register("t1")
    shard = shard_of("t1", SHARDS)
    owner = MemoryShardLog(kafka, shard)  # the shard's new owner in the group
    froze: list[int] = []

    def shard_log(number: int) -> MemoryShardLog:
        log_ = MemoryShardLog(kafka, number)
        committed = log_.commit

        async def commit(alerts: Any, checkpoints: dict[str, int]) -> None:
            if number == shard and not froze:
                froze.append(number)
                time.sleep(0.5)  # the scenario: the process is stopped mid-commit
                await owner.open()  # meanwhile the group gave the shard to another worker
                raise TimeoutError  # the commit's timeout, passed in the freeze
            await committed(alerts, checkpoints)
        log_.commit = commit  # type: ignore[method-assign]
        return log_

    loop = WorkerLoop(store, MemoryFetcher(kafka), shard_log, SHARDS, "w1", supervisor())
    loop.session_s = 0.2
    async with running(loop, {0, 1}, 1):
        play(kafka, "t1", "N 1S, E 1H")  # insufficient: an alert, so a commit
        await until(lambda: loop.frozen_at is not None and shard not in loop.runners,
                    "the freeze seen and the runner dropped")
        seen = loop.ticked
        await until(lambda: loop.ticked > seen + 3 * worker_loop.CLOCK_TICK_S,
                    "three ticks of the clock's watch since")
        assert shard not in loop.runners and kafka.writers[shard] is owner
        await loop.own({0, 1}, 3)  # the group's next word: the shard is this worker's again
        await until(lambda: shard in loop.runners, "the runner started")
        assert kafka.writers[shard] is not owner


async def test_a_rebalance_removing_a_runner_the_loop_just_dropped_goes_on(
        kafka: MemoryKafka) -> None:
    """A rebalance takes a shard away while the loop, folding, drops its fenced runner: the
    rebalance finds the runner gone and carries on (a KeyError crashed faust's app in a fault
    test: the worker then owned nothing)."""
    store = FlakyStore()
    async with running(worker(kafka, store), {0, 1}, 1) as loop:
        async with loop.busy:  # the loop is folding
            rebalance = asyncio.create_task(loop.own({0}, 2))
            await until(lambda: loop.generation == 2, "the rebalance waiting for the loop")
            await loop._drop(loop.runners[1], restart_after=60.0)  # fenced, in the fold
        await rebalance
        await until(lambda: not loop.starters, "settled")
        assert set(loop.runners) == {0} and loop.assigned == {0}


async def test_redis_away_folding_goes_on_and_everything_is_written_when_it_is_back(
        kafka: MemoryKafka) -> None:
    """Redis stopped, then back empty: the worker never stops; alerts go on to Kafka; every
    table's state and registry record is in Redis again once it answers."""
    store = FlakyStore()
    kafka.register("t1")
    kafka.register("t2")
    async with running(worker(kafka, store)) as loop:
        play(kafka, "t1", "N 1S")
        await until(caught_up(kafka, store, "t1"), "t1 folded")
        store.down = True
        play(kafka, "t1", "E 1H")  # an alert while Redis is away
        play(kafka, "t2", "N P, E P")
        await until(lambda: len(alert_ids(kafka)) == 1, "the alert, from Kafka")
        store.lose()  # restarted without persistence
        store.down = False
        await until(lambda: caught_up(kafka, store, "t1")() and caught_up(kafka, store, "t2")(),
                    "every state written again")
        assert set(store.tables) == {"t1", "t2"} and loop.task is not None
        assert not loop.task.done()


async def test_kafka_away_at_a_commit_restarts_the_runner_losing_and_doubling_nothing(
        kafka: MemoryKafka) -> None:
    """The broker goes away while a fetch's alerts are being committed: the runner is started
    again (retrying until Kafka is back) and refolds from the checkpoints; the alert is
    emitted once."""
    store = FlakyStore()
    kafka.register("t1")
    loop = worker(kafka, store)
    await loop.own({0, 1}, 1)
    await until(lambda: not loop.starters, "the runners started")
    play(kafka, "t1", "N 1S, E 1H")
    fetched = await loop.fetcher.fetch(0.0)
    kafka.down = True
    async with loop.busy:
        await loop.process(fetched)
    shard = shard_of("t1", SHARDS)
    assert shard not in loop.runners and alert_ids(kafka) == []
    refused = kafka.refused  # the commit
    await until(lambda: kafka.refused > refused, "a first attempt to start again refused")
    kafka.down = False
    async with running(loop, {0, 1}, 2):
        await until(lambda: shard in loop.runners, "the runner started again")
        await until(lambda: len(alert_ids(kafka)) == 1, "the alert")
        await until(caught_up(kafka, store, "t1"), "t1 folded")
    assert len(alert_ids(kafka)) == 1


async def test_runners_stay_across_consecutive_generations_and_start_afresh_after_a_gap(
        kafka: MemoryKafka) -> None:
    """A rebalance this worker took part in keeps the runners it still owns (their tables do
    not stall); a generation it missed (paused, cut off) may have had another owner: those
    runners start afresh."""
    store = FlakyStore()
    async with running(worker(kafka, store), {0, 1}, 5) as loop:
        first = loop.runners[0]
        await loop.own({0}, 6)
        await until(lambda: not loop.starters, "settled")
        assert loop.runners == {0: first}
        await loop.own({0}, 8)
        await until(lambda: not loop.starters and 0 in loop.runners, "started afresh")
        assert loop.runners[0] is not first
        assert store.workers["w1"] == [0]


async def test_a_start_that_never_answers_is_given_up_and_tried_again(
        kafka: MemoryKafka, monkeypatch: pytest.MonkeyPatch) -> None:
    """A shard's log that never opens (aiokafka retries a transactional producer's start for as
    long as the coordinator says "concurrent transactions"), then a table's end asked while
    the loop waits that never comes: each attempt is given up after its bound and tried again,
    and the other shard goes on folding meanwhile."""
    monkeypatch.setattr(worker_loop, "PREPARE_TIMEOUT_S", 0.2)
    monkeypatch.setattr(worker_loop, "FOLLOW_TIMEOUT_S", 0.2)
    store = FlakyStore()
    tables = {shard_of(t, SHARDS): t for t in ("t1", "t2", "t3", "t4")}
    stuck, other = tables[0], tables[1]
    for table in (stuck, other):
        kafka.register(table)
    never = asyncio.Event()
    opens: list[int] = []
    ends: list[int] = []

    def shard_log(shard: int) -> MemoryShardLog:
        log_ = MemoryShardLog(kafka, shard)
        opened = log_.open

        async def open_() -> None:
            opens.append(shard)
            if shard == 0 and opens.count(0) == 1:
                await never.wait()  # the first attempt hangs at the producer's start
            await opened()
        log_.open = open_  # type: ignore[method-assign]
        return log_

    fetcher = MemoryFetcher(kafka)
    asked = fetcher.end_offsets

    async def end_offsets(partitions: Any) -> dict[Any, int]:
        wanted = list(partitions)
        if any(tp.topic == table_topic(stuck) for tp in wanted):
            ends.append(0)
            if len(ends) == 1:
                await never.wait()  # the second attempt hangs, the loop waiting
        return await asked(wanted)
    fetcher.end_offsets = end_offsets  # type: ignore[method-assign]
    loop = WorkerLoop(store, fetcher, shard_log, SHARDS, "w1", supervisor())
    loop.sweep_every = 0.05
    async with running(loop):
        play(kafka, other, "N 1S, E P")
        await until(caught_up(kafka, store, other), "the other shard folded")
        play(kafka, stuck, "N 1S, E 1H")
        await until(caught_up(kafka, store, stuck), "the stuck shard started at last")
    assert opens.count(0) >= 3 and len(ends) >= 2


async def test_a_tables_read_that_never_comes_back_is_started_again(
        kafka: MemoryKafka, caplog: pytest.LogCaptureFixture) -> None:
    """The fetcher loses a table's position once (a fetch that never comes back): the table
    stays behind its topic for a few sweeps, then its read is started again, and said so."""
    store = FlakyStore()
    kafka.register("t1")
    fetcher = MemoryFetcher(kafka)
    lost: list[str] = []
    fetch_from = fetcher.fetch_from

    def losing(tp: Any, position: int) -> None:
        if tp.topic == table_topic("t1") and not lost:
            lost.append(tp.topic)  # the first read of the table's topic goes nowhere
            return
        fetch_from(tp, position)
    fetcher.fetch_from = losing  # type: ignore[method-assign]
    loop = WorkerLoop(store, fetcher, lambda shard: MemoryShardLog(kafka, shard), SHARDS, "w1",
                      supervisor())
    loop.sweep_every = 0.05
    async with running(loop):
        play(kafka, "t1", "N 1S, E P", copies=False)  # only a sweep finds these
        await until(caught_up(kafka, store, "t1"), "t1 read again and folded")
    assert lost and "t1 stalled at offset -1" in caplog.text
