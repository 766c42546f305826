"""What the routes' unit tests share: the fakes' Kafka, and the Director's client of the
gateway's app on the fakes, in process (a module with fixtures of these names uses its own)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, settings

from tests.fakes import FlakyStore, MemoryKafka, director_client, director_gateway

# Hypothesis's examples drawn as slowly as the machine allows: a shared machine's load made
# its "input generation is slow" health check fail a property that holds (test_feed_frames)
settings.register_profile("tableserver", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tableserver")


@pytest.fixture
def kafka() -> MemoryKafka:
    return MemoryKafka(shards=8)


@pytest.fixture
async def http(tmp_path: Path, kafka: MemoryKafka) -> AsyncIterator[httpx.AsyncClient]:
    """The Director's client of a gateway app on the fakes (`kafka`, a store that can fail)."""
    async with director_client(director_gateway(tmp_path, kafka, FlakyStore())) as client:
        yield client
