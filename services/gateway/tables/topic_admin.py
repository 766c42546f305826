"""The real `TopicAdmin` (services/gateway/ports.py): Kafka's admin client, through
`services.common.kafka.admin`, its errors (ours: `LogUnavailable`, `services.common.kafka_faults`)
and time-outs translated into `TopicsUnavailable`
(tests/fakes.py's `MemoryAdmin` is held to the same contract: tests/topic_admin_contract.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType

from services.common.errors import LogUnavailable
from services.common.kafka import admin as topics
from services.common.kafka_faults import log_faults
from services.gateway.ports import TopicShape, TopicsUnavailable

FENCED_BYTES = topics.FENCED["max.message.bytes"]


@asynccontextmanager
async def translated(doing: str) -> AsyncIterator[None]:
    """Kafka's errors and time-outs inside as `TopicsUnavailable` (`Kafka did not <doing>`)."""
    try:
        with log_faults():  # the admin client's own calls, below
            yield
    except (LogUnavailable, TimeoutError, OSError) as exc:
        cause = exc.__cause__ if isinstance(exc, LogUnavailable) else exc
        raise TopicsUnavailable(f"Kafka did not {doing} ({cause!r}); retry (doing it twice is "
                                "harmless)", retry_after=1) from exc


class KafkaTopicAdmin:
    def __init__(self, admin: AIOKafkaAdminClient, replication: int) -> None:
        self.admin, self.replication = admin, replication

    async def create_table(self, table: str) -> None:
        async with translated("create the table's topic"):
            await topics.create_table_topic(self.admin, table, self.replication)

    async def create_tournament(self, tournament: str, tables: list[str]) -> None:
        async with translated("create the tournament's topics"):
            await topics.create_tournament_topics(self.admin, tournament, tables,
                                                  self.replication)

    async def fence(self, names: list[str]) -> None:
        async with translated("fence the topics"):
            await topics.fence_topics(self.admin, names)

    async def delete(self, names: list[str]) -> None:
        async with translated("delete the topics"):
            await topics.delete_topics(self.admin, names)

    async def existing(self) -> set[str]:
        async with translated("list the topics"):
            return set(await self.admin.list_topics())

    async def describe(self, names: list[str]) -> dict[str, TopicShape]:
        found: dict[str, TopicShape] = {}
        async with translated("describe the topics"):
            for start in range(0, len(names), topics.TOPICS_A_REQUEST):
                part = names[start:start + topics.TOPICS_A_REQUEST]
                partitions = {t["topic"]: len(t["partitions"])
                              for t in await self.admin.describe_topics(part)
                              if t["error_code"] == 0}
                if not partitions:
                    continue
                configs = await self.admin.describe_configs(
                    [ConfigResource(ConfigResourceType.TOPIC, t,
                                    configs={"max.message.bytes": None})
                     for t in part if t in partitions])
                for response in configs:
                    for code, _message, _kind, name, entries in response.resources:
                        if code == topics.UNKNOWN_TOPIC or name not in partitions:
                            continue
                        values = {entry[0]: entry[1] for entry in entries}
                        found[name] = TopicShape(
                            partitions[name], values.get("max.message.bytes") == FENCED_BYTES)
        return found
