"""The fakes of the topics' admin and the registry (`tests.fakes.MemoryAdmin`,
`MemoryRegistry`) held to their contract (tests/topic_admin_contract.py), which the real
adapters pass on Kafka and Redis (tests/integration/test_admin_registry_contract.py); Kafka or
Redis away, the fakes' errors; and the real adapters' translation of Kafka's and Redis's
errors into the ports' own."""

from __future__ import annotations

from typing import Any, cast

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaConnectionError
from redis.asyncio import Redis

from services.common import registry
from services.gateway.ports import RegistryUnavailable, TopicsUnavailable
from services.gateway.tables.table_registry import TableRegistry
from services.gateway.tables.topic_admin import KafkaTopicAdmin
from tests.fakes import (
    FlakyStore,
    MemoryAdmin,
    MemoryAppender,
    MemoryKafka,
    MemoryReads,
    MemoryRegistry,
)
from tests.topic_admin_contract import (  # noqa: F401 (the contract's tests, run here)
    Side,
    test_a_claimed_record_stands_against_a_later_claim,
    test_a_deleted_topic_is_gone_and_deleting_again_is_no_error,
    test_a_fenced_topic_refuses_appends_and_keeps_its_records,
    test_a_tables_topic_is_made_once_with_one_partition,
    test_a_tournaments_topics_are_its_own_and_its_tables,
    test_registered_records_are_the_registry_topics_last,
)

SHARDS = 4


@pytest.fixture
def kafka() -> MemoryKafka:
    return MemoryKafka(SHARDS)


@pytest.fixture
def store() -> FlakyStore:
    return FlakyStore()


@pytest.fixture
def side(kafka: MemoryKafka, store: FlakyStore) -> Side:
    return Side(MemoryAdmin(kafka), MemoryRegistry(store, kafka), MemoryAppender(kafka),
                MemoryReads(kafka), store)


async def test_kafka_away_is_the_ports_own_error(side: Side, kafka: MemoryKafka) -> None:
    kafka.down = True
    for step in (side.admin.create_table("t"), side.admin.create_tournament("t", ["t-1"]),
                 side.admin.fence(["x"]), side.admin.delete(["x"]), side.admin.existing(),
                 side.admin.describe(["x"])):
        with pytest.raises(TopicsUnavailable):
            await step
    with pytest.raises(RegistryUnavailable, match="Kafka did not record the close"):
        await side.registry.register({"t": registry.new_record("t", "duplicate")},
                                     doing="record the close")


async def test_redis_away_is_the_registrys_own_error(side: Side, store: FlakyStore) -> None:
    store.down = True
    with pytest.raises(RegistryUnavailable, match="Redis"):
        await side.registry.claim({"t": registry.new_record("t", "duplicate")})
    assert store.tables == {}


class Unreachable:
    """Kafka's admin client as it answers with the broker away: every request fails."""

    def __getattr__(self, name: str) -> Any:
        async def fails(*_: Any, **__: Any) -> Any:
            raise KafkaConnectionError("Unable to bootstrap from [('127.0.0.1', 1)]")
        return fails


async def test_the_real_admin_translates_kafkas_errors() -> None:
    """`KafkaTopicAdmin` says `TopicsUnavailable` (a 503 with Retry-After), never Kafka's own
    error, for each of its operations."""
    admin = KafkaTopicAdmin(cast(AIOKafkaAdminClient, Unreachable()), 1)
    for step in (admin.create_table("t"), admin.create_tournament("t", ["t-1"]),
                 admin.fence(["x"]), admin.delete(["x"]), admin.existing(),
                 admin.describe(["x"])):
        with pytest.raises(TopicsUnavailable) as refused:
            await step
        assert refused.value.retry_after == 1


async def test_the_real_registry_translates_redis_and_kafka_errors() -> None:
    """`TableRegistry` over a Redis that does not answer (no server at its port) and a
    producer that cannot send says `RegistryUnavailable`, never Redis's or Kafka's error."""
    redis = Redis(port=1, socket_connect_timeout=1)
    producer = Unreachable()
    try:
        found = TableRegistry(redis, cast(AIOKafkaProducer, producer), SHARDS)
        with pytest.raises(RegistryUnavailable, match="Redis"):
            await found.claim({"t": registry.new_record("t", "duplicate")})
        with pytest.raises(RegistryUnavailable, match="Kafka did not record the close"):
            await found.register({"t": registry.new_record("t", "duplicate")},
                                 doing="record the close")
    finally:
        await redis.aclose()
