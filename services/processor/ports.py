"""What the processor asks of Kafka, as protocols: the real adapters are wired in one place
(`bootstrap.py`), and the runner's and the loop's logic is unit-tested with fakes
(tests/fakes.py) that pass the same contract tests as the real adapters
(tests/integration/test_processor_contracts.py).

- a `Fetcher` reads partitions from positions it is given (the live copies, tables' topics);
- a `ShardLog` is a shard's part of the rest: fencing earlier owners, the shard's registry and
  checkpoints partitions, and committing alerts with checkpoints in one transaction.

Each raises ours, `LogUnavailable` (`services.common.kafka_faults`), for Kafka's errors.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from aiokafka.structs import TopicPartition

from services.common.kafka.batches import Record as Record  # the fetcher's records
from shared.table.alert_record import Raised

Alerts = Raised  # (alert id, alert): `shared.table.alert_record`


class Fenced(Exception):
    """A newer owner of the shard opened its log: this one may write no more."""


class Fetcher(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def track(self, topics: Iterable[str]) -> None:
        """`topics`' partitions may be fetched at any time: keep their leaders known."""

    def untrack(self, topic: str) -> None:
        """Forget `topic` (deleted: a closed table's), and fetch it no more."""

    def fetch_from(self, tp: TopicPartition, position: int) -> None:
        """Fetch `tp` from `position` on."""

    def drop(self, tp: TopicPartition) -> None:
        """Fetch `tp` no more."""

    def describe(self, tp: TopicPartition) -> str:
        """What the fetcher knows of `tp` (its position, its leader), for a log line."""

    async def end_offsets(self, partitions: Iterable[TopicPartition]
                          ) -> dict[TopicPartition, int]:
        """Where each partition ends now (one not known yet is left out); raises
        `LogUnavailable` when Kafka cannot say."""

    async def fetch(self, timeout: float) -> dict[TopicPartition, list[Record]]:
        """The records that arrive within `timeout` seconds, by partition (none: empty);
        a partition's records in order, from its position, which moves past them."""


class OffsetCommitter(Protocol):
    """Commits offsets under a consumer group of its own (`GroupOffsets`)."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def commit(self, offsets: dict[TopicPartition, int]) -> None:
        """Raises `LogUnavailable` when the offsets are not committed."""


class ShardLog(Protocol):
    """One shard's partitions of the registry and checkpoints topics, and its transactions."""

    async def open(self) -> None:
        """Become the shard's only writer: an earlier owner still alive is fenced, and its
        open transaction aborted."""

    async def read(self, topic: str) -> dict[str, bytes]:
        """The latest committed value of each key in the shard's partition of `topic`."""

    async def commit(self, alerts: Alerts, checkpoints: dict[str, int]) -> None:
        """The alerts, and each table's checkpoint, in one transaction: all visible or none.
        Raises `Fenced` when a newer owner opened the shard's log, and `LogUnavailable` (or
        TimeoutError) when the transaction's fate is not known."""

    async def close(self) -> None: ...
