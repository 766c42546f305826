"""The gateway wired in one place: which store, producer, readers, limits, probe, topics' admin
and registry it uses.

`real_adapters` starts the Kafka and Redis clients (and stops them, in reverse, on leaving);
tests give fakes (tests/fakes.py) to the same `Gateway` through `create_app(adapters=…)`. The
gateway never creates a client itself. Its long-lived readers (`background`) are started by the
app's lifespan under the process's `Supervisor` (`services/common/supervision.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from services.common import registry
from services.common.kafka.admin import TOURNAMENT_RECORD_BYTES, ensure_core_topics
from services.common.kafka.reader import Record, read_table, read_topics
from services.common.kafka_faults import log_faults
from services.common.names import HISTORY_RATE, REGISTRY, SEAT_RATE
from services.common.redis_connect import redis_client, redis_lines
from services.common.settings import Settings
from services.common.store import RedisStore, StateStore
from services.gateway.feeds.alert_feed import AlertFeed
from services.gateway.feeds.fanout import FeedHub
from services.gateway.feeds.public_feeds import PublicFeeds
from services.gateway.http.limits import SharedLimit
from services.gateway.http.probes import ClientsProbe
from services.gateway.ports import (
    AlertReader,
    Appender,
    FeedReader,
    HealthProbe,
    Limit,
    PublicReader,
    Registry,
    TopicAdmin,
    TopicReads,
)
from services.gateway.tables.history_reads import HistoryReads
from services.gateway.tables.table_registry import TableRegistry
from services.gateway.tables.topic_admin import KafkaTopicAdmin
from services.replay.kafka_topics import KafkaTopics
from services.replay.topic_cache import TopicCache

REDIS_CONNECTIONS = 64  # the pool's bound, whatever the number of sockets
TOPICS_HELD = 32 * 1024 * 1024  # bytes of tables' records kept for the next /history read


@dataclass
class Adapters:
    store: StateStore
    producer: Appender
    reads: TopicReads  # topics read on demand
    hub: FeedReader  # the tables' feeds
    public: PublicReader  # the tables' feeds as the public sees them: after the delay
    alerts: AlertReader  # the alerts' topic, and the director's marks
    history: HistoryReads  # tables' and tournaments' topics, read for many readers at once
    seat_limit: Limit
    history_limit: Limit
    health: HealthProbe
    admin: TopicAdmin  # tables' and tournaments' topics: created, fenced, deleted
    registry: Registry  # tables' records as creating and closing write them


class KafkaReads:
    """The real `TopicReads` (`services.common.kafka.reader`): a consumer for each read."""

    def __init__(self, bootstrap: str, shards: int) -> None:
        self.bootstrap, self.shards = bootstrap, shards

    async def registered(self, table: str) -> dict[str, Any] | None:
        return await registry.registered(self.bootstrap, table, self.shards)

    async def table(self, table: str, until: int | None = None) -> list[Record]:
        return await read_table(self.bootstrap, table, until)

    async def topics(self, topics: list[str], starts: Mapping[str, int] | None = None
                     ) -> dict[str, list[Record]]:
        return await read_topics(self.bootstrap, topics, starts)


@asynccontextmanager
async def real_adapters(settings: Settings) -> AsyncIterator[Adapters]:
    """Every client started (the core topics made); if one cannot be, those already started
    are stopped. On leaving, all are stopped, in reverse."""
    async with AsyncExitStack() as stack:
        admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap)
        stack.push_async_callback(admin.close)
        with log_faults():  # Kafka's errors leave as ours (`LogUnavailable`), as below
            await admin.start()
        await ensure_core_topics(admin, settings.shards, settings.replication)
        producer = AIOKafkaProducer(bootstrap_servers=settings.kafka_bootstrap, acks="all",
                                    enable_idempotence=True, linger_ms=0,
                                    # a tournament's creation, with its batch's headers
                                    max_request_size=TOURNAMENT_RECORD_BYTES + 2**16)
        stack.push_async_callback(producer.stop)
        with log_faults():
            await producer.start()
        # Short commands share a bounded pool (a burst waits for a connection instead of
        # opening hundreds: `redis_client`); the feeds' hub reads with a connection of its own.
        # A command on a connection Redis dropped (a restart) is tried again once, at once,
        # on a new one: the pool's connections can all be stale after an outage (redis-py's
        # default here is no retry at all).
        redis = redis_client(settings, cluster_connections=REDIS_CONNECTIONS,
                             client_name="tableserver-gateway", socket_connect_timeout=2,
                             socket_timeout=5, retry=Retry(NoBackoff(), 1))
        stack.push_async_callback(redis.aclose)
        feeds_redis = redis_client(settings, socket_timeout=30,  # > its XREAD
                                   client_name="tableserver-gateway-feeds")
        stack.push_async_callback(feeds_redis.aclose)
        lines = redis_lines(settings, timeout_s=5, connect_timeout_s=2)
        stack.push_async_callback(lines.aclose)
        alerts = AlertFeed(settings.kafka_bootstrap)
        await alerts.start()
        stack.push_async_callback(alerts.stop)
        topics = KafkaTopics(settings.kafka_bootstrap, track=[REGISTRY])
        await topics.start()
        stack.push_async_callback(topics.stop)
        yield Adapters(
            store=RedisStore(redis, lines), producer=producer,
            reads=KafkaReads(settings.kafka_bootstrap, settings.shards),
            hub=FeedHub(feeds_redis, redis), alerts=alerts,
            public=PublicFeeds(redis, settings.spectator_delay_s * 1000),
            history=HistoryReads(TopicCache(topics, TOPICS_HELD), settings.history_reads),
            seat_limit=SharedLimit(lines, SEAT_RATE, settings.calls_per_second,
                                   settings.calls_per_second),
            history_limit=SharedLimit(lines, HISTORY_RATE, settings.history_per_second,
                                      5 * settings.history_per_second),
            health=ClientsProbe(redis, producer),
            admin=KafkaTopicAdmin(admin, settings.replication),
            registry=TableRegistry(redis, producer, settings.shards))


def background(adapters: Adapters) -> dict[str, Callable[[], Coroutine[Any, Any, None]]]:
    """The gateway's long-lived tasks, by name: each runs as long as the gateway."""
    return {"feeds' reader": adapters.hub.run, "alerts' reader": adapters.alerts.run,
            "the public's feeds": adapters.public.run}
