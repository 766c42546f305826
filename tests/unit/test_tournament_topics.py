"""A tournament's topics created in one request to the controller
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


async def test_a_tournament_of_two_thousand_tables_is_one_creation_request() -> None:
    admin = RecordingAdmin()
    tables = [f"night-{i}" for i in range(1, 2001)]
    await topics.create_tournament_topics(cast(AIOKafkaAdminClient, admin), "night", tables, 1)
    assert len(admin.requests) == 1
    assert admin.requests[0] == [tournament_topic("night"), *map(table_topic, tables)]


async def test_more_topics_than_a_request_takes_go_in_several() -> None:
    admin = RecordingAdmin()
    tables = [f"big-{i}" for i in range(topics.TOPICS_A_CREATION + 10)]
    await topics.create_tournament_topics(cast(AIOKafkaAdminClient, admin), "big", tables, 1)
    assert [len(r) for r in admin.requests] == [topics.TOPICS_A_CREATION, 11]
    assert admin.made == {tournament_topic("big"), *map(table_topic, tables)}
