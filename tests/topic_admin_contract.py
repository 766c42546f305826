"""The contract of the topics' admin and the registry (services/gateway/ports.py: `TopicAdmin`,
`Registry`), one set of tests held against two sides: the fakes (`tests.fakes.MemoryAdmin`,
`MemoryRegistry`: tests/unit/test_admin_registry_fakes.py) and the real adapters
(`topic_admin.KafkaTopicAdmin`, `table_registry.TableRegistry`: on the stack's Kafka and Redis,
tests/integration/test_admin_registry_contract.py). Each module imports these tests and gives
the `side` fixture. The gateway's unit tests of creating and closing tables and tournaments
use the fakes; what is true of them here is true of the real thing."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from services.common import registry
from services.common.errors import Unavailable
from services.common.kafka.produce import append
from services.common.names import table_topic, tournament_topic
from services.common.store import StateStore
from services.gateway.ports import Appender, Registry, TopicAdmin, TopicReads, TopicShape


@dataclass
class Side:
    """One implementation: the admin and the registry, with what shows their work (the
    producer, the topics' reads, the store: each held to its own contract already)."""

    admin: TopicAdmin
    registry: Registry
    appender: Appender
    reads: TopicReads
    store: StateStore


def name() -> str:
    return f"adm-{uuid.uuid4().hex[:10]}"  # Kafka and Redis are shared with other tests


async def test_a_tables_topic_is_made_once_with_one_partition(side: Side) -> None:
    table = name()
    topic = table_topic(table)
    assert await side.admin.describe([topic]) == {}
    assert topic not in await side.admin.existing()
    await side.admin.create_table(table)
    offset = await append(side.appender, topic, b"first", timeout_s=10)
    await side.admin.create_table(table)  # again: harmless, its records kept
    assert await side.admin.describe([topic]) == {topic: TopicShape(1, False)}
    assert topic in await side.admin.existing()
    assert [value for _, value in await side.reads.table(table)] == [b"first"]
    assert offset == 0


async def test_a_tournaments_topics_are_its_own_and_its_tables(side: Side) -> None:
    tournament = name()
    tables = [f"{tournament}-1", f"{tournament}-2"]
    topics = [tournament_topic(tournament), *map(table_topic, tables)]
    await side.admin.create_table(tables[0])  # one exists already: kept
    await append(side.appender, topics[1], b"kept", timeout_s=10)
    await side.admin.create_tournament(tournament, tables)
    await side.admin.create_tournament(tournament, tables)  # again: harmless
    assert await side.admin.describe(topics) == {t: TopicShape(1, False) for t in topics}
    assert [value for _, value in await side.reads.table(tables[0])] == [b"kept"]


async def test_a_fenced_topic_refuses_appends_and_keeps_its_records(side: Side) -> None:
    table, other = name(), name()
    topic = table_topic(table)
    await side.admin.create_table(table)
    await side.admin.create_table(other)
    await append(side.appender, topic, b"before", timeout_s=10)
    await side.admin.fence([topic, table_topic(name())])  # one that does not exist: left alone
    assert await side.admin.describe([topic, table_topic(other)]) == {
        topic: TopicShape(1, True), table_topic(other): TopicShape(1, False)}
    with pytest.raises(Unavailable):
        await append(side.appender, topic, b"after", timeout_s=10)
    await side.admin.fence([topic])  # again: harmless
    assert [value for _, value in await side.reads.table(table)] == [b"before"]
    assert await append(side.appender, table_topic(other), b"open", timeout_s=10) == 0


async def test_a_deleted_topic_is_gone_and_deleting_again_is_no_error(side: Side) -> None:
    table, kept = name(), name()
    await side.admin.create_table(table)
    await side.admin.create_table(kept)
    await side.admin.fence([table_topic(table)])
    await side.admin.delete([table_topic(table), table_topic(name())])
    await side.admin.delete([table_topic(table)])
    assert table_topic(table) not in await side.admin.existing()
    assert await side.admin.describe([table_topic(table), table_topic(kept)]) == {
        table_topic(kept): TopicShape(1, False)}


async def test_a_claimed_record_stands_against_a_later_claim(side: Side) -> None:
    """The first writer's record stands (two gateways creating the same table at once): the
    later claim answers the standing one, and the store reads it."""
    table, fresh = name(), name()
    first = registry.new_record(table, "duplicate", created=1)
    assert await side.registry.claim({table: first}) == {table: first}
    later = registry.new_record(table, "rubber", created=2)
    assert await side.registry.claim({table: later, fresh: later}) == {table: first,
                                                                       fresh: later}
    assert await side.store.table_record(table) == first
    assert await side.registry.claim({}) == {}


async def test_registered_records_are_the_registry_topics_last(side: Side) -> None:
    table = name()
    assert await side.reads.registered(table) is None
    first = registry.new_record(table, "duplicate", created=1)
    await side.registry.register({table: first}, timeout_s=10)
    # a later record (not a close: a closed table without a topic would be a close cut short,
    # which every gateway started after this test would try to finish, `resume_closes`)
    later = registry.new_record(table, "rubber", created=2)
    await side.registry.register({table: later}, doing="record the table again")
    assert await side.reads.registered(table) == later
    assert await side.store.table_record(table) is None  # the topic's copy, not Redis's
