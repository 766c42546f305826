"""Live copies of the events the gateway appends (`tableserver.live`, see
`services/common/names.py`).

A copy is the event's bytes with its table (the record's key) and its offset in the table's
topic, in the partition of the table's shard. The runner of a shard reads that one partition
to learn what is new at its tables; it reads a table's own topic only when a copy is missing
or out of order (a gap in the offsets), and in a sweep every few seconds, which finds the
events no copy announced (a gateway that died between its append and its copy, an import).
"""

from __future__ import annotations

import asyncio
import logging

import msgpack
from aiokafka import AIOKafkaProducer

from services.common.errors import LogUnavailable
from services.common.kafka_faults import log_faults
from services.common.names import LIVE, shard_of

log = logging.getLogger("tableserver.live")


async def send_copy(producer: AIOKafkaProducer, table: str, offset: int, value: bytes,
                    shards: int) -> None:
    """Send the copy of the event at `offset` without waiting for Kafka's answer: the event
    itself is acknowledged already, and a copy that is lost only sends the runner to the
    table's topic."""
    try:
        with log_faults():
            delivery = await producer.send(LIVE, msgpack.packb([offset, value]),
                                           key=table.encode(), partition=shard_of(table, shards))
    except LogUnavailable as exc:
        log.warning("no live copy of %s@%d: %r", table, offset, exc.__cause__)
        return
    delivery.add_done_callback(_check)


def _check(delivery: asyncio.Future[object]) -> None:
    if not delivery.cancelled() and delivery.exception() is not None:
        log.warning("a live copy was lost: %r", delivery.exception())


def read_copy(key: bytes | None, value: bytes | None) -> tuple[str, int, bytes] | None:
    """(table, offset, event bytes) of a copy; None for a record that is not one."""
    try:
        offset, event = msgpack.unpackb(value or b"")
        table = (key or b"").decode()
    except (ValueError, TypeError, UnicodeDecodeError):
        return None
    if not table or not isinstance(offset, int) or not isinstance(event, bytes):
        return None
    return table, offset, event
