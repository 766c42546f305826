"""Offsets committed under a consumer group that has no member: Kafka's "simple" commits
(generation -1, no member id), accepted for a group no consumer has joined. A lag reader
(`kafka-consumer-groups.sh --describe`, KEDA's kafka scaler) compares them with the
partitions' ends. aiokafka's consumer commits only partitions assigned to it, so the request
is built here on its protocol classes (as `services/processor/fetch_session.py` does). Kafka's
errors leave it as ours, `LogUnavailable` (`services.common.kafka_faults`)."""

from __future__ import annotations

from aiokafka.client import AIOKafkaClient, ConnectionGroup, CoordinationType
from aiokafka.errors import for_code
from aiokafka.protocol.commit import OffsetCommitRequest
from aiokafka.structs import TopicPartition

from services.common.kafka_faults import translated

REQUEST_TIMEOUT_MS = 10_000


@translated
class GroupOffsets:
    """Commits offsets for consumer group `group` (no member of it needed)."""

    def __init__(self, bootstrap: str, group: str) -> None:
        self.bootstrap = bootstrap
        self.group = group
        self._client: AIOKafkaClient | None = None  # made in the running loop, at `start`

    @property
    def client(self) -> AIOKafkaClient:
        if self._client is None:
            raise RuntimeError("GroupOffsets used before its start")
        return self._client

    async def start(self) -> None:
        """Connects at its first commit: a worker starting while Kafka is away goes on."""
        self._client = AIOKafkaClient(bootstrap_servers=self.bootstrap,
                                      request_timeout_ms=REQUEST_TIMEOUT_MS)

    async def stop(self) -> None:
        if self._client is not None:
            await self._client.close()

    async def commit(self, offsets: dict[TopicPartition, int]) -> None:
        """Each partition's offset (the next one to read) committed for the group; raises
        `LogUnavailable` when the coordinator refuses one or cannot be found."""
        if not self.client.cluster.brokers():
            await self.client.bootstrap()
        node = await self.client.coordinator_lookup(CoordinationType.GROUP, self.group)
        topics: dict[str, list[tuple[int, int, str]]] = {}
        for tp, offset in sorted(offsets.items()):
            topics.setdefault(tp.topic, []).append((tp.partition, offset, ""))
        request = OffsetCommitRequest(self.group, OffsetCommitRequest.DEFAULT_GENERATION_ID,
                                      "", OffsetCommitRequest.DEFAULT_RETENTION_TIME,
                                      list(topics.items()))
        response = await self.client.send(node, request, group=ConnectionGroup.COORDINATION)
        for topic, partitions in response.topics:
            for partition, error in partitions:
                if error:
                    raise for_code(error)(f"{self.group}: {topic}[{partition}]")
