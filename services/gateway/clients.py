"""The gateway's clients of Kafka and Redis, started and stopped in one place."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from redis.asyncio import BlockingConnectionPool, Redis

from services.gateway.alert_feed import AlertFeed
from services.gateway.fanout import FeedHub
from services.gateway.limits import SharedLimit
from services.kafka_admin import ensure_core_topics
from services.replay.reader import TableReader
from services.settings import Settings
from services.store import StateStore

REDIS_CONNECTIONS = 64  # the pool's bound, whatever the number of sockets
HISTORY_READERS = 2  # long-lived consumers that read tables' topics for /history


@dataclass
class Clients:
    admin: AIOKafkaAdminClient
    producer: AIOKafkaProducer
    redis: Redis  # short commands, on a bounded pool
    feeds_redis: Redis  # the feeds' hub's one blocking reader
    store: StateStore
    hub: FeedHub
    alerts: AlertFeed
    readers: asyncio.Queue[TableReader]
    seat_limit: SharedLimit
    history_limit: SharedLimit
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @staticmethod
    async def start(settings: Settings) -> Clients:
        admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap)
        await admin.start()
        await ensure_core_topics(admin, settings.shards, settings.replication)
        producer = AIOKafkaProducer(bootstrap_servers=settings.kafka_bootstrap, acks="all",
                                    enable_idempotence=True, linger_ms=0)
        await producer.start()
        # Short commands share a bounded pool (a burst waits for a connection instead of
        # opening hundreds); the feeds' hub reads with a connection of its own.
        redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=REDIS_CONNECTIONS, timeout=5,
            client_name="tableserver-gateway", socket_connect_timeout=2, socket_timeout=5))
        feeds_redis = Redis.from_url(settings.redis_url, socket_timeout=30,  # > its XREAD BLOCK
                                     client_name="tableserver-gateway-feeds")
        alerts = AlertFeed(settings.kafka_bootstrap)
        await alerts.start()
        readers: asyncio.Queue[TableReader] = asyncio.Queue()
        for _ in range(HISTORY_READERS):
            reader = TableReader(settings.kafka_bootstrap)
            await reader.start()
            readers.put_nowait(reader)
        clients = Clients(
            admin, producer, redis, feeds_redis, StateStore(redis), FeedHub(feeds_redis, redis),
            alerts, readers,
            SharedLimit(redis, "tableserver:rate:seat:", settings.calls_per_second,
                        settings.calls_per_second),
            SharedLimit(redis, "tableserver:rate:history:", settings.history_per_second,
                        5 * settings.history_per_second))
        clients.tasks = [asyncio.create_task(clients.hub.run()),
                         asyncio.create_task(alerts.run())]
        return clients

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await self.alerts.stop()
        while not self.readers.empty():
            await self.readers.get_nowait().stop()
        await self.producer.stop()
        await self.admin.close()
        await self.redis.aclose()
        await self.feeds_redis.aclose()
