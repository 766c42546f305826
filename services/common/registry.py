"""Creating a table: its topic, its record in Redis (for the gateway) and in the registry (for
the processor). Used by the gateway and by `tableserver import`."""

from __future__ import annotations

import json
import time
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from redis.asyncio import Redis

from services.common.kafka.admin import create_table_topic
from services.common.kafka.produce import append
from services.common.names import REGISTRY, TABLES_SET, shard_of


async def create_table(admin: AIOKafkaAdminClient, producer: AIOKafkaProducer, redis: Redis,
                       table: str, ruleset: str, replication: int, shards: int
                       ) -> dict[str, Any]:
    """Create `table`, or find it: its record (`table`, `ruleset`, `created`). A table that
    exists keeps its record; registering it again is harmless (the processor knows it)."""
    meta = {"table": table, "ruleset": ruleset, "created": int(time.time() * 1000)}
    await create_table_topic(admin, table, replication)
    if not await redis.hsetnx(TABLES_SET, table, json.dumps(meta)):
        found = await redis.hget(TABLES_SET, table)
        meta = json.loads(found) if found is not None else meta  # gone since: ours stands
    await append(producer, REGISTRY, json.dumps(meta).encode(), key=table.encode(),
                 partition=shard_of(table, shards), doing="register the table")
    return meta

