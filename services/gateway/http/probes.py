"""What the gateway depends on, checked cheaply for `/healthz` and `/readyz`: Redis answers a
PING, the producer can reach a broker (a connection to one it knows, not a metadata request
about every table's topic), and Kafka takes appends (`readiness.Appends`: the last append's
outcome, else a probe's)."""

from __future__ import annotations

import asyncio
import contextlib

from aiokafka import AIOKafkaProducer

from services.common.errors import StoreUnavailable
from services.common.redis_connect import AnyRedis
from services.common.redis_faults import store_faults
from services.gateway.ports import HealthProbe
from services.gateway.readiness import Appends

TIMEOUT_S = 2.0


async def redis_reachable(redis: AnyRedis) -> bool:
    try:
        with store_faults():
            return bool(await asyncio.wait_for(redis.ping(), TIMEOUT_S))
    except (StoreUnavailable, OSError, TimeoutError):
        return False


async def kafka_reachable(producer: AIOKafkaProducer) -> bool:
    client = producer.client
    for broker in client.cluster.brokers():
        with contextlib.suppress(Exception):  # any failure to connect is "not reachable"
            if await asyncio.wait_for(client.ready(broker.nodeId), TIMEOUT_S):
                return True
    return False


class ClientsProbe:
    """The gateway's `HealthProbe`: its own Redis client and producer asked."""

    def __init__(self, redis: AnyRedis, producer: AIOKafkaProducer) -> None:
        self.redis, self.producer = redis, producer

    async def kafka_reachable(self) -> bool:
        return await kafka_reachable(self.producer)

    async def redis_reachable(self) -> bool:
        return await redis_reachable(self.redis)


async def dependencies(probe: HealthProbe, appends: Appends) -> dict[str, str]:
    """Each dependency, "ok" or "unreachable"; Kafka reachable but taking no appends (too
    few in-sync replicas, no leader), "not writable"."""
    kafka, writable, store = await asyncio.gather(
        probe.kafka_reachable(), appends.writable(), probe.redis_reachable())
    return {"kafka": "unreachable" if not kafka else "ok" if writable else "not writable",
            "redis": "ok" if store else "unreachable"}
