"""Appending to Kafka: a record sent, its acknowledgement awaited, and a Kafka that fails or
does not answer in time raised as `LogUnavailable` (ours, `services.common.kafka_faults`;
its cause chained: a 503 at the gateway's edge; the importer
tells its user). One way for the gateway's events, a table's and a tournament's records, and
the importer's events.

`append` is one record; `send` and `acknowledged` are the two halves, for many records sent
at once (each `send` only queues it, in order) and acknowledged together; `append_all` the
two in one bound (one produce round trip for the records of one partition: the producer has
one batch of a partition in flight at a time, so they land in the order sent).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaError

from services.common.errors import LogUnavailable

Delivery = asyncio.Future[Any]  # of a record sent: its RecordMetadata once acknowledged
RETRY_AFTER_S = 1


def unavailable(exc: BaseException, doing: str, then: str) -> LogUnavailable:
    """`Kafka did not <doing> in time; <then>` for a timeout, `… (<exc>); <then>` else."""
    how = "in time" if isinstance(exc, TimeoutError) else f"({exc})"
    return LogUnavailable(f"Kafka did not {doing} {how}; {then}", retry_after=RETRY_AFTER_S)


async def send(producer: AIOKafkaProducer, topic: str, value: bytes, key: bytes | None = None,
               partition: int | None = None, doing: str = "take the record",
               then: str = "retry") -> Delivery:
    """`value` queued for `topic` (in order after those queued before): its delivery."""
    try:
        delivery: Delivery = await producer.send(topic, value, key=key, partition=partition)
    except KafkaError as exc:
        raise unavailable(exc, doing, then) from exc
    return delivery


async def acknowledged(deliveries: Sequence[Delivery], timeout_s: float | None = None,
                       doing: str = "acknowledge the records", then: str = "retry"
                       ) -> list[int]:
    """The offsets of records sent, once Kafka acknowledged them all (within `timeout_s`
    when given)."""
    try:
        metadata = await asyncio.wait_for(asyncio.gather(*deliveries), timeout_s)
    except (KafkaError, TimeoutError) as exc:
        raise unavailable(exc, doing, then) from exc
    return [int(m.offset) for m in metadata]


async def append(producer: AIOKafkaProducer, topic: str, value: bytes, key: bytes | None = None,
                 partition: int | None = None, timeout_s: float | None = None,
                 doing: str = "acknowledge the record", then: str = "retry") -> int:
    """`value` appended to `topic`: its offset once Kafka acknowledged it (within `timeout_s`
    when given); `LogUnavailable` (`Kafka did not <doing> …; <then>`) when it did not."""
    try:
        metadata = await asyncio.wait_for(
            producer.send_and_wait(topic, value, key=key, partition=partition), timeout_s)
    except (KafkaError, TimeoutError) as exc:
        raise unavailable(exc, doing, then) from exc
    return int(metadata.offset)


async def append_all(producer: AIOKafkaProducer, topic: str, values: Sequence[bytes],
                     timeout_s: float | None = None, doing: str = "acknowledge the records",
                     then: str = "retry") -> list[int]:
    """`values` appended in order to `topic` (of one partition: a table's, a tournament's),
    sent at once and acknowledged
    together: their offsets (within `timeout_s` when given, the sending too);
    `LogUnavailable` (`Kafka did not <doing> …; <then>`) when any was not. One value (a
    seat's event: the hot path) goes as `append` sends it, with no gathering."""
    if len(values) == 1:
        return [await append(producer, topic, values[0], timeout_s=timeout_s, doing=doing,
                             then=then)]
    try:
        async with asyncio.timeout(timeout_s):
            deliveries = [await send(producer, topic, value, doing=doing, then=then)
                          for value in values]
            return await acknowledged(deliveries, doing=doing, then=then)
    except TimeoutError as exc:
        raise unavailable(exc, doing, then) from exc
