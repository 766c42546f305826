"""The services' Redis clients, for one Redis or a Redis Cluster (`TABLESERVER_REDIS_CLUSTER`):
redis-py's client (`redis_client`) and the hot paths' pipelined connections (`redis_lines`).

On a cluster every key of a table shares its slot (`names.tag`); redis-py's `RedisCluster`
sends each command to its slot's primary and follows redirections, and `ClusterLines` does the
same for the pipelined paths. What reads many tables at once splits itself by slot: a pipeline
(redis-py's cluster pipeline), the robots' `MGET` (`mget_nonatomic`), the feeds' `XREAD`
(`services.gateway.feeds.fanout`: a reader a primary).
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster

from services.common.cluster_lines import ClusterLines
from services.common.redis_lines import RedisLines
from services.common.settings import Settings

AnyRedis = Redis | RedisCluster
Lines = RedisLines | ClusterLines
CONNECTIONS = 64  # a client's connections to one Redis at most; a command past them waits
CONNECTION_WAIT_S = 5.0  # for one to come free, then fails (`ConnectionError`: retryable)


def redis_client(settings: Settings, cluster_connections: int | None = None,
                 **options: Any) -> AnyRedis:
    """redis-py's client for the settings' Redis, with `options` (timeouts, retry, name). On
    one Redis, its commands share `CONNECTIONS` connections and wait for one to come free:
    redis-py 8's own pool refuses the 101st command at once (`MaxConnectionsError`), which
    cost 248 of the robots' seat leases on a busy evening. A cluster's client bounds its
    connections a primary only when given `cluster_connections` (and refuses one more)."""
    if settings.redis_cluster:
        if cluster_connections is not None:
            options["max_connections"] = cluster_connections
        return RedisCluster.from_url(settings.redis_url, **options)
    return Redis.from_pool(BlockingConnectionPool.from_url(  # the client closes its pool
        settings.redis_url, max_connections=CONNECTIONS, timeout=CONNECTION_WAIT_S, **options))


def redis_lines(settings: Settings, timeout_s: float, connect_timeout_s: float) -> Lines:
    """The pipelined connection (one Redis) or connections (a cluster: one a primary)."""
    kind = ClusterLines if settings.redis_cluster else RedisLines
    return kind(settings.redis_url, timeout_s, connect_timeout_s)
