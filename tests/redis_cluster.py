"""A Redis Cluster of its own for the tests: started and stopped by the deploy scripts
(deploy/redis/start.sh with TABLESERVER_REDIS_CLUSTER, as `make up` would start it)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.stack import ROOT, _deploy


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

    def start_refused(self, primaries: str) -> subprocess.CompletedProcess[str]:
        """deploy/redis/start.sh run with TABLESERVER_REDIS_CLUSTER=`primaries` (and failing,
        the caller expects)."""
        return subprocess.run([str(ROOT / "deploy/redis/start.sh")],
                              env={**self.env, "TABLESERVER_REDIS_CLUSTER": primaries},
                              capture_output=True, text=True, check=False)


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
