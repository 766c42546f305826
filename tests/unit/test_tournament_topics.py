"""A tournament's topics created in as few requests to the controller as KRaft takes
(services/common/kafka/admin.py `create_tournament_topics`): in requests of 250 the brokers
elected the new partitions' leaders seconds later than after one (docs/performance.md, "The
Funbridge night"). On a recording stand-in for Kafka's admin client; the real broker's side:
tests/integration/test_tournaments.py."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from services.common.kafka import admin as topics
from services.common.names import table_topic, tournament_topic


class RecordingAdmin:
    """Creates every topic asked, each led at once; keeps each creation request's topics."""

    def __init__(self) -> None:
        self.requests: list[list[str]] = []
        self.made: set[str] = set()

    async def create_topics(self, new: list[NewTopic], timeout_ms: int) -> Any:
        self.requests.append([topic.name for topic in new])
        self.made |= {topic.name for topic in new}
        return SimpleNamespace(topic_errors=[(topic.name, 0) for topic in new])

    async def describe_topics(self, names: list[str]) -> list[dict[str, Any]]:
        return [{"topic": name, "error_code": 0, "partitions": [{"leader": 1}]}
                for name in names if name in self.made]


def records(requests: list[list[NewTopic]]) -> list[int]:
    return [sum(1 + t.num_partitions + len(t.topic_configs) for t in r) for r in requests]


async def test_a_tournament_of_a_thousand_tables_is_one_creation_request() -> None:
    admin = RecordingAdmin()
    tables = [f"night-{i}" for i in range(1, 1001)]
    await topics.create_tournament_topics(cast(AIOKafkaAdminClient, admin), "night", tables, 1)
    assert len(admin.requests) == 1
    assert admin.requests[0] == [tournament_topic("night"), *map(table_topic, tables)]


async def test_two_thousand_tables_go_in_requests_kraft_takes() -> None:
    """KRaft refuses a request of more than 10,000 metadata records; 2,000 tables' topics and
    the tournament's are 10,005 (a night's first tournament was refused so, 503 for ever)."""
    admin = RecordingAdmin()
    tables = [f"big-{i}" for i in range(2000)]
    await topics.create_tournament_topics(cast(AIOKafkaAdminClient, admin), "big", tables, 1)
    assert len(admin.requests) == 2
    assert admin.made == {tournament_topic("big"), *map(table_topic, tables)}
    made = [tournament_topic("big"), *map(table_topic, tables)]
    assert [name for request in admin.requests for name in request] == made


def test_no_creation_request_holds_more_records_than_kraft_takes() -> None:
    new = [NewTopic(table_topic(f"t{i}"), 1, 1, topic_configs=topics.TABLE)
           for i in range(5000)]
    requests = topics.creations(new)
    assert max(records(requests)) <= topics.RECORDS_A_CREATION < 10_000
    assert [t for r in requests for t in r] == new
