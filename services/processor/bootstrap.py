"""The processor wired in one place: which store, fetcher and shard logs a worker uses.

`real_adapters` gives Redis and Kafka; tests give fakes (tests/fakes.py) to the same
`WorkerLoop`, which never creates a client itself. Its long-lived tasks run under the
process's `Supervisor` (`services/common/supervision.py`), as the gateway's do
(`services/gateway/bootstrap.py`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from services.common.kafka.group_offsets import GroupOffsets
from services.common.names import LIVE_GROUP
from services.common.redis_connect import redis_client, redis_lines
from services.common.settings import Settings
from services.common.store import RedisStore, StateStore
from services.common.supervision import Supervisor
from services.processor.fetch_session import TableFetcher
from services.processor.kafka_shard_log import KafkaShardLog
from services.processor.live_marks import LiveMarks
from services.processor.ports import Fetcher, OffsetCommitter, ShardLog
from services.processor.worker_loop import WorkerLoop

REDIS_CONNECT_TIMEOUT_S = 2.0  # Redis away answers in bounded time: the loop goes on folding
REDIS_COMMAND_TIMEOUT_S = 5.0


@dataclass
class Adapters:
    store: StateStore
    fetcher: Fetcher
    shard_log: Callable[[int], ShardLog]
    live_offsets: OffsetCommitter | None = None  # the live topic's folded offsets (lag)


def real_adapters(settings: Settings) -> Adapters:
    bootstrap = settings.kafka_bootstrap
    # A command is retried once, at once (a connection dropped between two commands); with
    # Redis away, redis-py's default, ten retries with a growing backoff, held each write up
    # to seconds, and its return was seen that much later: `StoreSync` asks it at its pace.
    redis = redis_client(settings, socket_connect_timeout=REDIS_CONNECT_TIMEOUT_S,
                         socket_timeout=REDIS_COMMAND_TIMEOUT_S,  # connects on first use
                         retry=Retry(NoBackoff(), 1))
    # the states' writes on one pipelined connection (services/common/redis_lines.py)
    lines = redis_lines(settings, timeout_s=REDIS_COMMAND_TIMEOUT_S,
                        connect_timeout_s=REDIS_CONNECT_TIMEOUT_S)
    return Adapters(RedisStore(redis, lines),
                    TableFetcher(bootstrap, linger_ms=settings.fetch_linger_ms),
                    lambda shard: KafkaShardLog(bootstrap, shard),
                    GroupOffsets(bootstrap, LIVE_GROUP))


def worker_loop(adapters: Adapters, settings: Settings, worker: str,
                supervisor: Supervisor) -> WorkerLoop:
    marks = LiveMarks(adapters.live_offsets) if adapters.live_offsets is not None else None
    return WorkerLoop(adapters.store, adapters.fetcher, adapters.shard_log, settings.shards,
                      worker, supervisor, marks)
