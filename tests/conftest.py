"""The tests' fixtures and markers. Each test is marked by its folder:

- `tests/unit` (`-m unit`): no service, no network; seconds.
- `tests/integration` (`-m integration`): the real Kafka and Redis (and the services), started
  once per session by the `stack` fixture (tests/stack.py).
- `tests/browser` (`-m browser`): pages in Debian's Chromium driven by Playwright, on the same
  stack.

Helpers the tests share are in tests/helpers.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes import MemoryAppender, Switch
from tests.helpers import GATEWAY_PORT, KAFKA_PORT, REDIS_CLUSTER_PORT, REDIS_PORT
from tests.redis_cluster import RedisClusterNodes, redis_cluster
from tests.stack import Stack, running_stack

LAYERS = ("unit", "integration", "browser")

def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its folder's layer."""
    for item in items:
        layer = Path(str(item.fspath)).parent.name
        if layer in LAYERS:
            item.add_marker(getattr(pytest.mark, layer))


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    data = tmp_path_factory.mktemp("tableserver-data")
    with running_stack(data, KAFKA_PORT, REDIS_PORT, GATEWAY_PORT, workers=1,
                       extra_env={"TABLESERVER_SHARDS": "4",
                                  "TABLESERVER_CALLS_PER_SECOND": "20",
                                  "TABLESERVER_ORIGINS": "https://club.example"}) as running:
        yield running


@pytest.fixture(scope="module")
def redis_cluster_nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisClusterNodes]:
    """A Redis Cluster of three primaries for the test module (tests/redis_cluster.py); its
    `url` is the startup node's."""
    with redis_cluster(tmp_path_factory.mktemp("redis-cluster"), REDIS_CLUSTER_PORT) as nodes:
        yield nodes


@pytest.fixture
def producer() -> MemoryAppender:
    """The gateway's appender in memory (unit tests of the gateway's doors and commands)."""
    return MemoryAppender()


@pytest.fixture
def limit() -> Switch:
    """A seat's rate limit that a test opens or closes."""
    return Switch()
