"""What the gateway depends on, checked cheaply for `/healthz` and `/readyz`: Redis answers a
PING, and the producer can reach a broker (a connection to one it knows, not a metadata
request about every table's topic)."""

from __future__ import annotations

import asyncio
import contextlib

from aiokafka import AIOKafkaProducer
from redis.asyncio import Redis
from redis.exceptions import RedisError

TIMEOUT_S = 2.0


async def redis_reachable(redis: Redis) -> bool:
    try:
        return bool(await asyncio.wait_for(redis.ping(), TIMEOUT_S))
    except (RedisError, OSError, TimeoutError):
        return False


async def kafka_reachable(producer: AIOKafkaProducer) -> bool:
    client = producer.client
    for broker in client.cluster.brokers():
        with contextlib.suppress(Exception):  # any failure to connect is "not reachable"
            if await asyncio.wait_for(client.ready(broker.nodeId), TIMEOUT_S):
                return True
    return False


async def dependencies(redis: Redis, producer: AIOKafkaProducer) -> dict[str, str]:
    """Each dependency, "ok" or "unreachable"."""
    kafka, store = await asyncio.gather(kafka_reachable(producer), redis_reachable(redis))
    return {"kafka": "ok" if kafka else "unreachable", "redis": "ok" if store else "unreachable"}
