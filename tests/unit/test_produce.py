"""Appending to Kafka (`services/common/kafka/produce.py`): an acknowledged record's offset;
a Kafka that fails or does not answer in time is `Unavailable`, with its reason."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaConnectionError, NotLeaderForPartitionError

from services.common.errors import ServiceError, Unavailable
from services.common.kafka.produce import acknowledged, append, send


class FakeProducer:
    """Acknowledges each record at the next offset, fails with `error`, or never answers."""

    def __init__(self, error: Exception | None = None, hang: bool = False,
                 fail_send: bool = False) -> None:
        self.error, self.hang, self.fail_send = error, hang, fail_send
        self.sent: list[tuple[str, bytes, bytes | None, int | None]] = []

    async def send(self, topic: str, value: bytes, key: bytes | None = None,
                   partition: int | None = None) -> asyncio.Future[Any]:
        if self.fail_send and self.error is not None:
            raise self.error
        self.sent.append((topic, value, key, partition))
        delivery: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.error is not None:
            delivery.set_exception(self.error)
        elif not self.hang:
            delivery.set_result(SimpleNamespace(offset=len(self.sent) - 1))
        return delivery

    async def send_and_wait(self, topic: str, value: bytes, key: bytes | None = None,
                            partition: int | None = None) -> Any:
        return await (await self.send(topic, value, key, partition))


def producer(**kwargs: Any) -> AIOKafkaProducer:
    return cast(AIOKafkaProducer, FakeProducer(**kwargs))


async def test_an_acknowledged_record_gives_its_offset() -> None:
    fake = producer()
    assert await append(fake, "t", b"a") == 0
    assert await append(fake, "t", b"b", key=b"k", partition=3, timeout_s=1.0) == 1
    assert cast(FakeProducer, fake).sent[1] == ("t", b"b", b"k", 3)


async def test_a_kafka_error_is_unavailable_naming_it() -> None:
    with pytest.raises(Unavailable) as raised:
        await append(producer(error=NotLeaderForPartitionError()), "t", b"a",
                     doing="acknowledge the event", then="retry with the same client_seq")
    assert raised.value.retry_after == 1
    assert raised.value.reason.startswith("Kafka did not acknowledge the event (")
    assert raised.value.reason.endswith("); retry with the same client_seq")
    assert "NotLeaderForPartition" in raised.value.reason
    assert isinstance(raised.value, ServiceError)
    assert isinstance(raised.value.__cause__, NotLeaderForPartitionError)


async def test_no_answer_in_time_is_unavailable() -> None:
    with pytest.raises(Unavailable) as raised:
        await append(producer(hang=True), "t", b"a", timeout_s=0.01, doing="record the round",
                     then="retry")
    assert raised.value.reason == "Kafka did not record the round in time; retry"


async def test_many_sent_then_acknowledged_together() -> None:
    fake = producer()
    sent = [await send(fake, "t", bytes([i])) for i in range(3)]
    assert await acknowledged(sent, 1.0) == [0, 1, 2]


async def test_a_send_refused_or_a_delivery_failed_is_unavailable() -> None:
    with pytest.raises(Unavailable, match=r"did not take the record \("):
        await send(producer(error=KafkaConnectionError(), fail_send=True), "t", b"a")
    failed = [await send(producer(error=KafkaConnectionError()), "t", b"a")]
    with pytest.raises(Unavailable, match=r"did not acknowledge the records \("):
        await acknowledged(failed)
    hanging = [await send(producer(hang=True), "t", b"a")]
    with pytest.raises(Unavailable, match="did not register the tables in time; retry"):
        await acknowledged(hanging, 0.01, doing="register the tables")
