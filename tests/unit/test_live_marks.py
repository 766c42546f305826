"""The live topic's folded offsets, committed for lag readers (`services/processor/
live_marks.py`): what moved is committed at its pace, a commit Kafka failed is sent again, a
shard gone is not committed, a bug stops the worker; and the worker's loop marks what it has
folded (its fakes: tests/fakes.py)."""

from __future__ import annotations

import asyncio

import pytest
from aiokafka.errors import KafkaConnectionError
from aiokafka.structs import TopicPartition

from services.common.kafka_faults import translated
from services.common.names import LIVE, shard_of
from services.processor.live_marks import LiveMarks
from services.processor.worker_loop import WorkerLoop
from tests.fakes import FlakyStore, MemoryFetcher, MemoryKafka, MemoryShardLog, supervisor
from tests.unit.test_worker_loop import SHARDS, caught_up, events, running, until


@translated  # as `GroupOffsets`: Kafka's errors raised as ours
class Committer:
    """Records each commit; fails the next ones with `failures` while it holds some."""

    def __init__(self) -> None:
        self.commits: list[dict[TopicPartition, int]] = []
        self.failures: list[Exception] = []

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def commit(self, offsets: dict[TopicPartition, int]) -> None:
        if self.failures:
            raise self.failures.pop(0)
        self.commits.append(dict(offsets))


async def settled(marks: LiveMarks) -> None:
    if marks.task is not None:
        await asyncio.gather(marks.task, return_exceptions=True)


async def test_the_marks_that_moved_are_committed_at_most_once_a_period() -> None:
    committer = Committer()
    marks = LiveMarks(committer, every_s=1.0)
    marks.folded(0, 10)
    marks.folded(1, 4)
    marks.tick(100.0)
    await settled(marks)
    marks.folded(0, 12)
    marks.folded(0, 11)  # never back
    marks.tick(100.5)  # not due yet
    await settled(marks)
    marks.tick(101.0)
    await settled(marks)
    marks.tick(105.0)  # nothing moved: nothing sent
    await settled(marks)
    assert committer.commits == [{TopicPartition(LIVE, 0): 10, TopicPartition(LIVE, 1): 4},
                                 {TopicPartition(LIVE, 0): 12}]


async def test_a_commit_kafka_failed_is_sent_again_and_a_shard_gone_is_not() -> None:
    committer = Committer()
    committer.failures.append(KafkaConnectionError("broker away"))
    marks = LiveMarks(committer, every_s=1.0)
    marks.folded(0, 10)
    marks.folded(1, 4)
    marks.tick(100.0)
    await settled(marks)
    marks.forget(1)  # the group moved shard 1 elsewhere
    marks.tick(101.0)
    await settled(marks)
    assert committer.commits == [{TopicPartition(LIVE, 0): 10}]


async def test_a_commit_that_died_of_a_bug_raises_in_the_loop() -> None:
    committer = Committer()
    committer.failures.append(TypeError("a bug"))
    marks = LiveMarks(committer, every_s=1.0)
    marks.folded(0, 10)
    marks.tick(100.0)
    await settled(marks)
    with pytest.raises(TypeError, match="a bug"):
        marks.tick(101.0)


async def test_the_worker_marks_each_shards_live_offset_after_its_last_fold() -> None:
    kafka = MemoryKafka(SHARDS)
    store = FlakyStore()
    kafka.register("t1")
    committer = Committer()
    marks = LiveMarks(committer, every_s=0.01)
    loop = WorkerLoop(store, MemoryFetcher(kafka), lambda shard: MemoryShardLog(kafka, shard),
                      SHARDS, "w1", supervisor(), marks)
    shard = shard_of("t1", SHARDS)
    async with running(loop):
        for value in events("N 1S, E P, S P"):
            kafka.call("t1", value)
        await until(caught_up(kafka, store, "t1"), "t1 folded")
        end = len(kafka.records(LIVE, shard))
        assert end >= 3  # our calls' copies (and any the board's start made)
        await until(lambda: any(c.get(TopicPartition(LIVE, shard)) == end
                                for c in committer.commits), "the live end committed")
    assert all(tp.topic == LIVE and offset <= end for c in committer.commits
               for tp, offset in c.items())
