"""The table registry (`services/common/registry.py`), the one module that reads and writes
tables' records: what it appends to the registry topic and reads back from a shard."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any, cast

import pytest
from aiokafka import AIOKafkaProducer, TopicPartition
from aiokafka.errors import KafkaConnectionError

from services.common import registry
from services.common.errors import Unavailable
from services.common.names import shard_of


class Producer:
    def __init__(self, error: Exception | None = None) -> None:
        self.error = error
        self.sent: list[tuple[str, bytes, bytes | None, int | None]] = []

    async def send(self, topic: str, value: bytes, key: bytes | None = None,
                   partition: int | None = None) -> asyncio.Future[Any]:
        self.sent.append((topic, value, key, partition))
        delivery: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.error is not None:
            delivery.set_exception(self.error)
        else:
            delivery.set_result(SimpleNamespace(offset=len(self.sent) - 1))
        return delivery


def test_a_record_as_made() -> None:
    assert registry.new_record("t1", "duplicate", created=5) == {
        "table": "t1", "ruleset": "duplicate", "created": 5}
    assert registry.new_record("t2", "rubber", "cup", 6) == {
        "table": "t2", "ruleset": "rubber", "created": 6, "tournament": "cup"}
    assert registry.new_record("t3", "duplicate")["created"] > 1_700_000_000_000


async def test_records_registered_in_their_tables_shards_and_read_back() -> None:
    producer = Producer()
    records = {t: registry.new_record(t, "duplicate", created=1) for t in ("a", "b", "c")}
    await registry.register(cast(AIOKafkaProducer, producer), records, shards=8)
    assert {key: partition for _, _, key, partition in producer.sent} == {
        t.encode(): shard_of(t, 8) for t in records}
    topics = {topic for topic, *_ in producer.sent}
    assert len(topics) == 1
    (topic,) = topics

    async def read(asked: str) -> dict[str, bytes]:  # a shard's partition, as ShardLog reads it
        assert asked == topic
        return {(key or b"").decode(): value for _, value, key, _ in producer.sent}

    assert await registry.shard_records(read) == records
    assert registry.parse(json.dumps(records["a"])) == records["a"]


async def test_a_registration_kafka_refuses_is_unavailable() -> None:
    producer = Producer(KafkaConnectionError())
    with pytest.raises(Unavailable, match="did not register the tables"):
        await registry.register(cast(AIOKafkaProducer, producer),
                                {"a": registry.new_record("a", "duplicate")}, shards=8)


async def test_the_shards_are_the_registrys_partitions_among_those_assigned() -> None:
    producer = Producer()
    await registry.register(cast(AIOKafkaProducer, producer),
                            {"a": registry.new_record("a", "duplicate")}, shards=8)
    topic = producer.sent[0][0]
    assigned = {TopicPartition(topic, 3), TopicPartition(topic, 5),
                TopicPartition("tableserver.checkpoints", 4)}
    assert registry.shards_in(assigned) == {3, 5}
