"""A Redis Cluster of its own for the tests: started and stopped by the deploy scripts
(deploy/redis/start.sh with TABLESERVER_REDIS_CLUSTER, as `make up` would start it)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.stack import _deploy


@dataclass(frozen=True)
class RedisClusterNodes:
    env: dict[str, str]  # the deploy scripts' settings for this cluster
    ports: tuple[int, ...]  # node i on ports[i - 1]; its bus on ports[-1] + i

    @property
    def url(self) -> str:
        """The startup node's URL: a cluster client finds the other nodes from it."""
        return f"redis://127.0.0.1:{self.ports[0]}"

    def start(self) -> None:
        _deploy("redis/start.sh", self.env)

    def stop(self) -> None:
        _deploy("redis/stop.sh", self.env)


@contextmanager
def redis_cluster(data: Path, port: int, primaries: int = 3) -> Iterator[RedisClusterNodes]:
    """`primaries` Redis Cluster nodes on ports `port`… (their cluster buses on the ports just
    after), files in `data`; stopped on exit."""
    env = {**os.environ, "TABLESERVER_DATA": str(data), "TABLESERVER_REDIS_PORT": str(port),
           "TABLESERVER_REDIS_CLUSTER": str(primaries), "TABLESERVER_REDIS_BUS_PORT": ""}
    nodes = RedisClusterNodes(env, tuple(range(port, port + primaries)))
    try:
        nodes.start()
        yield nodes
    finally:
        nodes.stop()
