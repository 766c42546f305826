"""The real topics' admin and registry (`topic_admin.KafkaTopicAdmin`,
`table_registry.TableRegistry`) held to their contract (tests/topic_admin_contract.py) on the
stack's Kafka and Redis, as their fakes are in tests/unit/test_admin_registry_fakes.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from redis.asyncio import Redis

from services.common.store import RedisStore
from services.gateway.bootstrap import KafkaReads
from services.gateway.tables.table_registry import TableRegistry
from services.gateway.tables.topic_admin import KafkaTopicAdmin
from tests.stack import Stack
from tests.topic_admin_contract import (  # noqa: F401 (the contract's tests, run here)
    Side,
    test_a_claimed_record_stands_against_a_later_claim,
    test_a_deleted_topic_is_gone_and_deleting_again_is_no_error,
    test_a_fenced_topic_refuses_appends_and_keeps_its_records,
    test_a_tables_topic_is_made_once_with_one_partition,
    test_a_tournaments_topics_are_its_own_and_its_tables,
    test_registered_records_are_the_registry_topics_last,
)

SHARDS = 4  # the test stack's (tests/conftest.py)


@pytest.fixture
async def side(stack: Stack) -> AsyncIterator[Side]:
    admin = AIOKafkaAdminClient(bootstrap_servers=stack.bootstrap)
    producer = AIOKafkaProducer(bootstrap_servers=stack.bootstrap, acks="all",
                                enable_idempotence=True, linger_ms=0)
    redis = Redis(port=stack.redis_port)
    await admin.start()
    await producer.start()
    try:
        yield Side(KafkaTopicAdmin(admin, 1), TableRegistry(redis, producer, SHARDS), producer,
                   KafkaReads(stack.bootstrap, SHARDS), RedisStore(redis))
    finally:
        await producer.stop()
        await admin.close()
        await redis.aclose()
