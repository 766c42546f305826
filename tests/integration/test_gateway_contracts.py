"""The gateway's Kafka adapters and their fakes held to one contract (services/gateway/ports.py):
the idempotent producer and `MemoryAppender` (an `Appender`), `bootstrap.KafkaReads` and
`MemoryReads` (`TopicReads`), `KafkaTopics` and `MemoryTopics` (the history reads' source, a
`TopicSource`), on the real broker and in memory. The gateway's unit tests
(tests/unit/test_event_doors.py, test_operator_units.py, test_alert_marks.py) use the fakes;
what is true of the fakes here is true of the real thing."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import pytest
from aiokafka import AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from services.common.kafka.admin import create_table_topic
from services.common.kafka.reader import NoTableError
from services.common.names import REGISTRY, shard_of, table_topic
from services.gateway.bootstrap import KafkaReads
from services.gateway.ports import Appender, TopicReads
from services.replay.kafka_topics import KafkaTopics
from services.replay.topic_cache import TopicCache, TopicSource
from tests.fakes import MemoryAppender, MemoryKafka, MemoryReads, MemoryTopics
from tests.stack import Stack

SHARDS = 4  # the test stack's (tests/conftest.py)


@dataclass
class Side:
    """One implementation: an appender, reads, and a way to make a table (its topic)."""

    appender: Appender
    reads: TopicReads
    new_table: Callable[[], Awaitable[str]]
    topics: TopicSource


def _name() -> str:
    return f"contract-{uuid.uuid4().hex[:8]}"


@pytest.fixture(params=["memory", "kafka"])
async def side(request: pytest.FixtureRequest, stack: Stack) -> AsyncIterator[Side]:
    if request.param == "memory":
        kafka = MemoryKafka(SHARDS)

        async def new_memory_table() -> str:
            name = _name()
            kafka.partitions[TopicPartition(table_topic(name), 0)] = []
            return name

        yield Side(MemoryAppender(kafka), MemoryReads(kafka), new_memory_table,
                   MemoryTopics(kafka))
        return
    admin = AIOKafkaAdminClient(bootstrap_servers=stack.bootstrap)
    producer = AIOKafkaProducer(bootstrap_servers=stack.bootstrap, acks="all",
                                enable_idempotence=True, linger_ms=0)
    topics = KafkaTopics(stack.bootstrap)
    await admin.start()
    await producer.start()
    await topics.start()

    async def new_kafka_table() -> str:
        name = _name()
        await create_table_topic(admin, name, 1)
        return name

    try:
        yield Side(producer, KafkaReads(stack.bootstrap, SHARDS), new_kafka_table, topics)
    finally:
        await topics.stop()
        await producer.stop()
        await admin.close()


async def test_appends_take_the_next_offsets_and_are_read_back(side: Side) -> None:
    table = await side.new_table()
    topic = table_topic(table)
    offsets = [(await side.appender.send_and_wait(topic, f"e{n}".encode())).offset
               for n in range(3)]
    delivery = await side.appender.send(topic, b"e3")
    delivery.add_done_callback(lambda _: None)  # as `services.common.live.send_copy` does
    assert offsets == [0, 1, 2]
    assert getattr(await delivery, "offset", None) == 3
    assert await side.reads.table(table) == [(0, b"e0"), (1, b"e1"), (2, b"e2"), (3, b"e3")]
    assert await side.reads.table(table, until=1) == [(0, b"e0"), (1, b"e1")]
    both = await side.reads.topics([topic, table_topic(await side.new_table())])
    assert [value for _, value in both[topic]] == [b"e0", b"e1", b"e2", b"e3"]
    assert list(both.values())[1] == []
    since = await side.reads.topics([topic, table_topic(await side.new_table())], {topic: 2})
    assert since[topic] == [(2, b"e2"), (3, b"e3")] and list(since.values())[1] == []
    assert await side.reads.topics([topic], {topic: 4}) == {topic: []}  # nothing new


async def test_a_table_with_no_topic_is_no_table(side: Side) -> None:
    with pytest.raises(NoTableError):
        await side.reads.table(_name())
    with pytest.raises(NoTableError):
        await side.topics.fetch(table_topic(_name()), 0)


async def test_a_topic_is_fetched_from_an_offset_on(side: Side) -> None:
    """What the history reads (and a retry's look into its table's log) fetch: the records
    from an offset on, the next offset, where the topic ends."""
    table = await side.new_table()
    topic = table_topic(table)
    for n in range(3):
        await side.appender.send_and_wait(topic, f"e{n}".encode())
    got = await side.topics.fetch(topic, 1)
    assert (got.records, got.next, got.end) == ([(1, b"e1"), (2, b"e2")], 3, 3)
    assert await TopicCache(side.topics, 1 << 20).read(topic) == [(0, b"e0"), (1, b"e1"),
                                                                  (2, b"e2")]


async def test_a_tables_record_is_its_last_in_its_shard_of_the_registry(side: Side) -> None:
    table = await side.new_table()
    assert await side.reads.registered(table) is None
    for ruleset in ("duplicate", "rubber"):  # registered again: the last record stands
        meta = {"table": table, "ruleset": ruleset, "created": 1}
        await side.appender.send_and_wait(REGISTRY, json.dumps(meta).encode(),
                                          key=table.encode(), partition=shard_of(table, SHARDS))
    assert await side.reads.registered(table) == meta
