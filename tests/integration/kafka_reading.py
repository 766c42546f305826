"""Reading topics back, to compare what the services did with the pure fold."""

from __future__ import annotations

import json
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition

from services.common.names import ALERTS, table_topic
from shared.codec import decode
from shared.table.engine import TableState, fold


async def read_all(bootstrap: str, topic: str, isolation: str = "read_uncommitted"
                   ) -> list[Any]:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                isolation_level=isolation)
    await consumer.start()
    try:
        partitions = consumer.partitions_for_topic(topic) or {0}
        tps = [TopicPartition(topic, p) for p in sorted(partitions)]
        consumer.assign(tps)
        await consumer.seek_to_beginning(*tps)
        ends = await consumer.end_offsets(tps)
        records: list[Any] = []
        while [tp for tp in tps if await consumer.position(tp) < ends[tp]]:
            batch = await consumer.getmany(timeout_ms=500)
            for items in batch.values():
                records.extend(items)
        return records
    finally:
        await consumer.stop()


async def replay(bootstrap: str, table: str) -> tuple[TableState, int]:
    """The pure fold of a table's topic, and its last offset."""
    records = await read_all(bootstrap, table_topic(table))
    return fold(decode(r.value) for r in records), records[-1].offset


async def committed_alerts(bootstrap: str) -> list[dict[str, Any]]:
    return [json.loads(r.value) for r in await read_all(bootstrap, ALERTS, "read_committed")]
