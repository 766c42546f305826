"""What the gateway asks of Kafka and Redis, as protocols: the real adapters are wired in one
place (`bootstrap.py`), and tests give fakes (tests/fakes.py) through the same `Adapters`.

- the state store: `services.common.store.StateStore` (states, tables' records, overviews);
- an `Appender` appends events and records to topics (the idempotent producer, `acks=all`);
- `TopicReads` reads topics on demand, each read with a consumer of its own: a table's record
  in the registry (Redis lost its copy), a table's events (an alert looked for), many tables'
  at once (a tournament's export);
- a `Limit` counts a key's requests (a GCRA shared by the replicas, `limits.SharedLimit`);
- a `FeedReader` follows the tables' feeds (`fanout.FeedHub`), a `PublicReader` the same
  feeds as the public sees them, after the delay (`public_feeds.PublicFeeds`), an
  `AlertReader` the alerts' topic (`alert_feed.AlertFeed`); each has its long-lived reader,
  `run`;
- a `HealthProbe` says whether Kafka and Redis answer (`/healthz`, `/readyz`);
- a `TopicAdmin` creates, fences, describes and deletes tables' and tournaments' topics
  (`topic_admin.KafkaTopicAdmin`), a `Registry` writes tables' records as creation and closing
  do (`table_registry.TableRegistry`: Redis's copy, first writer wins, and the registry
  topic). Each raises its own error (`TopicsUnavailable`, `RegistryUnavailable`: a 503 with
  Retry-After), never Kafka's or Redis's: their adapters translate.
"""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from services.common.errors import Unavailable
from services.common.kafka.reader import Record
from services.common.registry import TableRecord
from services.gateway.feeds.alerts_view import ListedAlert, ListedPoison, Mark
from services.gateway.feeds.fanout import Feeds


class Delivery(Awaitable[object], Protocol):
    """A record sent without waiting: its outcome arrives later (awaited, or called back)."""

    def add_done_callback(self, callback: Any) -> None: ...


class Appended(Protocol):
    """Where Kafka put an acknowledged record."""

    @property
    def offset(self) -> int: ...


class Appender(Protocol):
    async def send_and_wait(self, topic: str, value: bytes, key: bytes | None = None,
                            partition: int | None = None) -> Appended:
        """Append `value` and wait until Kafka acknowledged it (all in-sync replicas)."""

    async def send(self, topic: str, value: bytes, key: bytes | None = None,
                   partition: int | None = None) -> Delivery:
        """Append `value` without waiting for Kafka's answer."""


class TopicReads(Protocol):
    """Each raises `KafkaUnavailable` when Kafka cannot answer."""

    async def registered(self, table: str) -> dict[str, Any] | None:
        """`table`'s record in the registry topic, or None when it was never registered."""

    async def table(self, table: str, until: int | None = None) -> list[Record]:
        """The records of `table`'s topic up to offset `until` (all when None), in order."""

    async def topics(self, topics: list[str], starts: Mapping[str, int] | None = None
                     ) -> dict[str, list[Record]]:
        """The records of many one-partition topics, by topic: each from its offset in
        `starts` (0 when not there)."""


class Limit(Protocol):
    async def allow(self, key: str, now: float) -> bool:
        """Whether `key` may make one more request at `now` (a monotonic clock's)."""


class FeedReader(Feeds, Protocol):
    async def run(self) -> None:
        """Follow every feed a socket follows, for the life of the gateway."""


class PublicReader(FeedReader, Protocol):
    async def shown(self, key: str, now_ms: int | None = None
                    ) -> tuple[str, dict[bytes, bytes]] | None:
        """The newest entry of stream `key` the public may see now (its id, its fields)."""


class AlertReader(FeedReader, Protocol):
    handled: dict[str, Mark]  # alert id → the director's mark
    robots: dict[str, list[str]]  # table → the seats the director gave our robots

    def latest(self, count: int) -> list[ListedAlert | ListedPoison]: ...

    def knows(self, alert_id: str) -> bool: ...


class HealthProbe(Protocol):
    async def kafka_reachable(self) -> bool: ...

    async def redis_reachable(self) -> bool: ...


class TopicsUnavailable(Unavailable):
    """Kafka did not create, fence, describe or delete topics (in time): retry."""


class RegistryUnavailable(Unavailable):
    """Redis or the registry topic did not take or give tables' records (in time): retry."""


@dataclass(frozen=True)
class TopicShape:
    """A topic as the broker describes it: its partitions, and whether it is fenced (it takes
    no more appends: a closed table's, or tournament's)."""

    partitions: int
    fenced: bool


class TopicAdmin(Protocol):
    """Tables' and tournaments' topics (`services.common.kafka.admin`). Each operation can be
    done again harmlessly; each raises `TopicsUnavailable` when Kafka does not answer."""

    async def create_table(self, table: str) -> None:
        """The table's topic (one partition, kept forever), unless it exists."""

    async def create_tournament(self, tournament: str, tables: list[str]) -> None:
        """The tournament's topic and its tables', those missing; once each has a leader."""

    async def fence(self, topics: list[str]) -> None:
        """The topics take no more appends (an append is refused), once the broker says so;
        a topic that does not exist is left alone."""

    async def delete(self, topics: list[str]) -> None:
        """The topics deleted, once the broker knows no more of them; a topic gone already is
        no error."""

    async def existing(self) -> set[str]:
        """The names of every topic there is."""

    async def describe(self, topics: list[str]) -> dict[str, TopicShape]:
        """Each of `topics` that exists, as the broker describes it."""


class Registry(Protocol):
    """Tables' records (`services.common.registry`) as creating and closing tables write them;
    they are read through the `StateStore`. Each raises `RegistryUnavailable` when Redis or
    Kafka does not answer (in time)."""

    async def claim(self, records: Mapping[str, TableRecord]) -> dict[str, TableRecord]:
        """Each record written to Redis unless its table has one there: the records that
        stand (those found, and the new ones)."""

    async def register(self, records: Mapping[str, TableRecord], timeout_s: float | None = None,
                       doing: str = "register the tables", then: str = "retry") -> None:
        """The records appended to the registry topic, the processor's copy (that lasts),
        once Kafka acknowledged them all; the message of `RegistryUnavailable` is `Kafka did
        not <doing> …; <then>`."""
