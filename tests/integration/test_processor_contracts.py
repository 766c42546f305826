"""The processor's Kafka adapters and their fakes held to one contract (services/processor/
ports.py): `TableFetcher` and `MemoryFetcher`, `KafkaShardLog` and `MemoryShardLog`, on the
real broker and in memory. The unit tests of the processor's logic (tests/unit/test_worker_loop.py)
use the fakes; what is true of the fakes here is true of the real thing."""

from __future__ import annotations

import gc
import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from services.common.kafka.reader import read_partition
from services.common.names import CHECKPOINTS
from services.processor.fetch_session import TableFetcher
from services.processor.kafka_shard_log import KafkaShardLog
from services.processor.ports import Fenced, Fetcher, Record, ShardLog
from tests.fakes import MemoryFetcher, MemoryKafka, MemoryShardLog
from tests.helpers import wait_for_async
from tests.stack import Stack

Append = Callable[[str, bytes | None, bytes], Awaitable[None]]


@dataclass
class Side:
    """One implementation: a fetcher, shard logs, a way to append and to read records."""

    fetcher: Fetcher
    shard_log: Callable[[], ShardLog]  # a log of one shard, whose alerts go to `alerts`
    append: Append  # (topic, key, value): a record at the end of the topic's partition 0
    topic: Callable[[], Awaitable[str]]  # a new topic of one partition
    alerts: str
    read_alerts: Callable[[], Awaitable[list[bytes]]]


@pytest.fixture(params=["memory", "kafka"])
async def side(request: pytest.FixtureRequest, stack: Stack) -> AsyncIterator[Side]:
    if request.param == "memory":
        kafka = MemoryKafka(1)

        async def new_topic() -> str:
            name = f"contract-{uuid.uuid4().hex[:8]}"
            kafka.partitions[TopicPartition(name, 0)] = []
            return name

        async def append(topic: str, key: bytes | None, value: bytes) -> None:
            kafka.append(topic, key, value)

        async def memory_alerts() -> list[bytes]:
            return [value or b"" for _, value in kafka.records("tableserver.alerts")]

        yield Side(MemoryFetcher(kafka), lambda: MemoryShardLog(kafka, 0), append, new_topic,
                   "tableserver.alerts", memory_alerts)
        return
    admin = AIOKafkaAdminClient(bootstrap_servers=stack.bootstrap)
    producer = AIOKafkaProducer(bootstrap_servers=stack.bootstrap, acks="all")
    await admin.start()
    await producer.start()
    fetcher = TableFetcher(stack.bootstrap)
    await fetcher.start()
    owner = f"contract-{uuid.uuid4().hex[:8]}"

    async def create() -> str:
        name = f"contract-{uuid.uuid4().hex[:8]}"
        await admin.create_topics([NewTopic(name, 1, 1)])
        return name

    async def send(topic: str, key: bytes | None, value: bytes) -> None:
        await producer.send_and_wait(topic, value, key=key, partition=0)

    alerts, checkpoints = await create(), await create()

    async def kafka_alerts() -> list[bytes]:
        """Committed alerts only, as the gateway's alert feed reads them."""
        reader = AIOKafkaConsumer(bootstrap_servers=stack.bootstrap,
                                  isolation_level="read_committed", enable_auto_commit=False)
        await reader.start()
        try:
            return [record.value for record in
                    await read_partition(reader, TopicPartition(alerts, 0), None, None)]
        finally:
            await reader.stop()

    try:
        yield Side(fetcher, lambda: KafkaShardLog(stack.bootstrap, 0, alerts, checkpoints,
                                                  owner),
                   send, create, alerts, kafka_alerts)
    finally:
        await fetcher.stop()
        await producer.stop()
        await admin.close()


async def _end(fetcher: Fetcher, tp: TopicPartition) -> int:
    # {tp: its end} once the new topic's leader has been looked up; {} before
    ends = await wait_for_async(lambda: fetcher.end_offsets([tp]), 10, f"{tp}'s end")
    return int(ends[tp])


async def test_a_fetcher_reads_from_its_position_in_order_and_moves_on(side: Side) -> None:
    topic = await side.topic()
    for n in range(5):
        await side.append(topic, b"k", str(n).encode())
    tp = TopicPartition(topic, 0)
    side.fetcher.track([topic])
    assert await _end(side.fetcher, tp) == 5
    side.fetcher.fetch_from(tp, 2)
    first: list[Record] = []
    for _ in range(50):
        first += (await side.fetcher.fetch(0.2)).get(tp, [])
        if len(first) >= 3:
            break
    assert [(r.offset, r.value) for r in first] == [(2, b"2"), (3, b"3"), (4, b"4")]
    await side.append(topic, None, b"5")
    later: list[Record] = []
    for _ in range(50):
        later += (await side.fetcher.fetch(0.2)).get(tp, [])
        if later:
            break
    assert [(r.offset, r.key, r.value) for r in later] == [(5, None, b"5")]


async def test_a_dropped_partition_is_fetched_no_more(side: Side) -> None:
    topic = await side.topic()
    tp = TopicPartition(topic, 0)
    side.fetcher.track([topic])
    await _end(side.fetcher, tp)
    side.fetcher.fetch_from(tp, 0)
    side.fetcher.drop(tp)
    await side.append(topic, None, b"x")
    for _ in range(5):
        assert tp not in await side.fetcher.fetch(0.1)


async def test_a_commit_is_read_back_latest_value_per_key(side: Side) -> None:
    """Alerts and checkpoints of one commit are all visible; a key's latest value wins."""
    log = side.shard_log()
    await log.open()
    try:
        before = len(await side.read_alerts())
        alert = {"kind": "insufficient_bid", "table": "contract-t", "offset": 2}
        await log.commit([("contract-t:2:insufficient_bid", alert)], {"contract-t": 2})
        await log.commit([], {"contract-t": 7})
        alerts = [json.loads(a) for a in (await side.read_alerts())[before:]]
        assert alerts == [{"id": "contract-t:2:insufficient_bid", **alert}]
        checkpoints = await log.read(_checkpoints_of(log))
        assert checkpoints["contract-t"] == b"7"
    finally:
        await log.close()


async def test_opening_a_shards_log_fences_the_earlier_owner(side: Side) -> None:
    """Law of the processor, not of bridge: one writer per shard. A zombie's commit after a
    newer owner opened the log raises Fenced, and nothing of it is visible."""
    zombie, owner = side.shard_log(), side.shard_log()
    await zombie.open()
    await owner.open()
    try:
        before = len(await side.read_alerts())
        with pytest.raises(Fenced):
            await zombie.commit([("z:1:x", {"kind": "x", "table": "z"})], {"z": 1})
        await owner.commit([("o:1:x", {"kind": "x", "table": "o"})], {"o": 1})
        ids = [json.loads(a)["id"] for a in (await side.read_alerts())[before:]]
        assert ids == ["o:1:x"]
    finally:
        await zombie.close()
        await owner.close()
    # aiokafka leaves a failed batch's drain waiter with its error unretrieved
    # (message_accumulator.ProducerBatch.failure), and asyncio logs it once collected:
    # collected here, it is logged in this test, not in whichever test runs next
    del zombie, owner
    gc.collect()


def _checkpoints_of(log: ShardLog) -> str:
    return log.checkpoints if isinstance(log, KafkaShardLog) else CHECKPOINTS

