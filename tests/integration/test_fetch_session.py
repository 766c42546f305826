"""The processor's session fetcher (services/processor/fetch_session.py) on the real broker:
a position the broker no longer has is found again (issue 16, point 6)."""

from __future__ import annotations

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.records_to_delete import RecordsToDelete
from aiokafka.structs import TopicPartition

from services.processor.fetch_session import TableFetcher
from tests.integration.conftest import Stack, run

pytestmark = pytest.mark.integration


async def _topic_with_its_first_records_deleted(bootstrap: str, topic: str) -> TopicPartition:
    """A topic of 10 records whose first 5 are gone, as the live copies' after an hour."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
    await producer.start()
    tp = TopicPartition(topic, 0)
    try:
        await admin.create_topics([NewTopic(topic, 1, 1)])
        for n in range(10):
            await producer.send_and_wait(topic, str(n).encode(), partition=0)
        await admin.delete_records({tp: RecordsToDelete(5)}, timeout_ms=10_000)
    finally:
        await producer.stop()
        await admin.close()
    return tp


def test_a_position_deleted_by_retention_is_read_on_from_the_first_record(stack: Stack
                                                                          ) -> None:
    """Before, the fetcher asked for offset 0 again and again (error 1, "out of range")."""
    async def scenario() -> list[int]:
        tp = await _topic_with_its_first_records_deleted(stack.bootstrap, "fetch-retention")
        fetcher = TableFetcher(stack.bootstrap)
        await fetcher.start()
        try:
            fetcher.fetch_from(tp, 0)
            offsets: list[int] = []
            for _ in range(50):
                offsets += [r.offset for r in (await fetcher.fetch(0.2)).get(tp, [])]
                if len(offsets) >= 5:
                    break
            return offsets
        finally:
            await fetcher.stop()

    assert run(scenario()) == [5, 6, 7, 8, 9]
