"""The gateway's clients of Kafka and Redis, started and stopped in one place."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import AsyncExitStack
from dataclasses import dataclass

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from redis.asyncio import BlockingConnectionPool, Redis

from services.common.kafka.admin import TOURNAMENT_RECORD_BYTES, ensure_core_topics
from services.common.names import HISTORY_RATE, REGISTRY, SEAT_RATE
from services.common.settings import Settings
from services.common.store import RedisStore, StateStore
from services.gateway.alert_feed import AlertFeed
from services.gateway.fanout import FeedHub
from services.gateway.history_reads import HistoryReads
from services.gateway.limits import SharedLimit
from services.replay.kafka_topics import KafkaTopics
from services.replay.topic_cache import TopicCache

log = logging.getLogger("tableserver.gateway")
REDIS_CONNECTIONS = 64  # the pool's bound, whatever the number of sockets
TOPICS_HELD = 32 * 1024 * 1024  # bytes of tables' records kept for the next /history read


@dataclass
class Clients:
    admin: AIOKafkaAdminClient
    producer: AIOKafkaProducer
    redis: Redis  # short commands, on a bounded pool
    feeds_redis: Redis  # the feeds' hub's one blocking reader
    store: StateStore
    hub: FeedHub
    alerts: AlertFeed
    history: HistoryReads  # tables' and tournaments' topics, read for many readers at once
    seat_limit: SharedLimit
    history_limit: SharedLimit
    stack: AsyncExitStack  # closes, in reverse, everything that was started

    @staticmethod
    async def start(settings: Settings) -> Clients:
        """Every client started; if one cannot be, those already started are stopped."""
        async with AsyncExitStack() as stack:
            admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap)
            stack.push_async_callback(admin.close)
            await admin.start()
            await ensure_core_topics(admin, settings.shards, settings.replication)
            producer = AIOKafkaProducer(bootstrap_servers=settings.kafka_bootstrap, acks="all",
                                        enable_idempotence=True, linger_ms=0,
                                        # a tournament's creation, with its batch's headers
                                        max_request_size=TOURNAMENT_RECORD_BYTES + 2**16)
            stack.push_async_callback(producer.stop)
            await producer.start()
            # Short commands share a bounded pool (a burst waits for a connection instead of
            # opening hundreds); the feeds' hub reads with a connection of its own.
            redis = Redis(connection_pool=BlockingConnectionPool.from_url(
                settings.redis_url, max_connections=REDIS_CONNECTIONS, timeout=5,
                client_name="tableserver-gateway", socket_connect_timeout=2,
                socket_timeout=5))
            stack.push_async_callback(redis.aclose)
            feeds_redis = Redis.from_url(settings.redis_url, socket_timeout=30,  # > its XREAD
                                         client_name="tableserver-gateway-feeds")
            stack.push_async_callback(feeds_redis.aclose)
            alerts = AlertFeed(settings.kafka_bootstrap)
            await alerts.start()
            stack.push_async_callback(alerts.stop)
            topics = KafkaTopics(settings.kafka_bootstrap, track=[REGISTRY])
            await topics.start()
            stack.push_async_callback(topics.stop)
            history = HistoryReads(TopicCache(topics, TOPICS_HELD), settings.history_reads)
            hub = FeedHub(feeds_redis, redis)
            for task in (asyncio.create_task(hub.run()), asyncio.create_task(alerts.run())):
                task.add_done_callback(_report)
                stack.push_async_callback(_cancel, task)
            clients = Clients(
                admin, producer, redis, feeds_redis, RedisStore(redis), hub, alerts, history,
                SharedLimit(redis, SEAT_RATE, settings.calls_per_second,
                            settings.calls_per_second),
                SharedLimit(redis, HISTORY_RATE, settings.history_per_second,
                            5 * settings.history_per_second),
                stack.pop_all())
        return clients

    async def stop(self) -> None:
        await self.stack.aclose()


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def _report(task: asyncio.Task[None]) -> None:
    """A feed's reader that ends other than by cancellation: said loudly, since its sockets
    would go quiet."""
    if not task.cancelled() and task.exception() is not None:
        log.error("a feed's reader stopped: %r", task.exception())
