"""Kafka in memory, for fast tests of the processor's logic: `MemoryKafka` holds the topics,
`MemoryFetcher` and `MemoryShardLog` read and write them as the real adapters
(`fetch_session.TableFetcher`, `kafka_shard_log.KafkaShardLog`) read and write Kafka's; the
contract tests in tests/integration/test_processor_contracts.py hold each pair to the same
behaviour. `MemoryStore` is the state store in memory (tests/integration/test_store_contract.py
holds it to `RedisStore`'s behaviour), `FlakyStore` the same with an off switch (Redis away).
The gateway's adapters in memory: `gateway_adapters`; among them `MemoryAdmin` (the topics'
admin) and `MemoryRegistry` (tables' records as creation and closing write them), held to
`topic_admin.KafkaTopicAdmin`'s and `table_registry.TableRegistry`'s behaviour by
tests/topic_admin_contract.py."""

from __future__ import annotations

import asyncio
import copy
import json
import time
from collections.abc import AsyncIterator, Callable, Hashable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
import msgpack
from aiokafka.errors import KafkaConnectionError, MessageSizeTooLargeError
from aiokafka.structs import TopicPartition

from services.common import registry
from services.common.errors import StoreUnavailable
from services.common.kafka.reader import KafkaUnavailable, NoTableError
from services.common.kafka_faults import translated
from services.common.names import (
    ALERTS,
    CHECKPOINTS,
    LIVE,
    REGISTRY,
    shard_of,
    table_topic,
    tournament_topic,
)
from services.common.settings import Settings
from services.common.store import States, board_of
from services.common.supervision import Supervisor
from services.gateway.bootstrap import Adapters
from services.gateway.feeds.alerts_view import ListedAlert, ListedPoison, Mark
from services.gateway.feeds.fanout import Render, Subscription
from services.gateway.ports import (
    RegistryUnavailable,
    TopicShape,
    TopicsUnavailable,
)
from services.gateway.refusals import REDIS_DOWN
from services.gateway.tables.history_reads import HistoryReads
from services.gateway.tables.service import Gateway
from services.processor.ports import Alerts, Fenced, Record
from services.replay.kafka_topics import Fetched, OffsetGone
from services.replay.topic_cache import TopicCache
from services.robots.hand_records import hand_record
from shared.robot.seats import RobotPresence
from shared.table.board_view import BoardView
from shared.table.table_summary import StoredSummary
from tests import solved_records

Log = list[tuple[bytes | None, bytes | None]]  # a partition: (key, value) by offset
T = TypeVar("T")
DIRECTOR = "d" * 32  # the director's token of `director_gateway`


class MemoryKafka:
    """The core topics (`shards` partitions each, one for the alerts) and tables' topics, as
    `ensure_core_topics` and table creation make them."""

    def __init__(self, shards: int) -> None:
        self.shards = shards
        self.partitions: dict[TopicPartition, Log] = {
            TopicPartition(topic, p): [] for topic in (LIVE, REGISTRY, CHECKPOINTS)
            for p in range(shards)}
        self.partitions[TopicPartition(ALERTS, 0)] = []
        self.writers: dict[int, MemoryShardLog] = {}  # each shard's open log (the newest)
        self.down = False  # Kafka away: every request fails
        self.refused = 0  # requests refused while down
        self.fenced: set[str] = set()  # topics that take no more appends (`MemoryAdmin.fence`)

    def check(self) -> None:
        if self.down:
            self.refused += 1
            raise KafkaConnectionError("Kafka is away (a test said so)")

    def append(self, topic: str, key: bytes | None, value: bytes | None,
               partition: int = 0) -> int:
        """Append a record; its offset."""
        log = self.partitions[TopicPartition(topic, partition)]  # KeyError: no such topic
        log.append((key, value))
        return len(log) - 1

    def records(self, topic: str, partition: int = 0) -> Log:
        return list(self.partitions.get(TopicPartition(topic, partition), []))

    # What the gateway does, for tests of the processor:

    def register(self, table: str, ruleset: str = "duplicate") -> None:
        """Create the table's topic, and its record in the registry."""
        meta = {"table": table, "ruleset": ruleset, "created": 1}
        self.partitions.setdefault(TopicPartition(table_topic(table), 0), [])
        self.append(REGISTRY, table.encode(), json.dumps(meta).encode(),
                    shard_of(table, self.shards))

    def call(self, table: str, value: bytes, copy: bool = True) -> int:
        """Append an event to its table's topic and (unless `copy` is False: a gateway that
        died in between) its live copy; the event's offset."""
        offset = self.append(table_topic(table), None, value)
        if copy:
            self.append(LIVE, table.encode(), msgpack.packb([offset, value]),
                        shard_of(table, self.shards))
        return offset


@translated  # Kafka away: `LogUnavailable`, as the real adapters raise it
class MemoryFetcher:
    def __init__(self, kafka: MemoryKafka) -> None:
        self.kafka = kafka
        self.positions: dict[TopicPartition, int] = {}

    async def start(self) -> None:
        self.kafka.check()

    async def stop(self) -> None:
        pass

    def track(self, topics: Iterable[str]) -> None:
        pass

    def untrack(self, topic: str) -> None:
        self.positions = {tp: p for tp, p in self.positions.items() if tp.topic != topic}

    def fetch_from(self, tp: TopicPartition, position: int) -> None:
        self.positions[tp] = position

    def drop(self, tp: TopicPartition) -> None:
        self.positions.pop(tp, None)

    def describe(self, tp: TopicPartition) -> str:
        return f"position {self.positions.get(tp)}"

    async def end_offsets(self, partitions: Iterable[TopicPartition]
                          ) -> dict[TopicPartition, int]:
        self.kafka.check()
        return {tp: len(self.kafka.partitions[tp]) for tp in partitions
                if tp in self.kafka.partitions}

    async def fetch(self, timeout: float) -> dict[TopicPartition, list[Record]]:
        self.kafka.check()
        found: dict[TopicPartition, list[Record]] = {}
        for tp, position in list(self.positions.items()):
            log = self.kafka.partitions.get(tp, [])
            if position < len(log):
                found[tp] = [Record(offset, *log[offset])
                             for offset in range(position, len(log))]
                self.positions[tp] = len(log)
        if not found:  # not a wait for a condition: a fetch that finds nothing waits, as
            await asyncio.sleep(min(timeout, 0.001))  # Kafka's does (shortened: fast tests)
        return found


@translated
class MemoryShardLog:
    def __init__(self, kafka: MemoryKafka, shard: int) -> None:
        self.kafka = kafka
        self.shard = shard

    async def open(self) -> None:
        self.kafka.check()
        self.kafka.writers[self.shard] = self  # the earlier writer is fenced

    async def read(self, topic: str) -> dict[str, bytes]:
        self.kafka.check()
        return {key.decode(): value for key, value in self.kafka.records(topic, self.shard)
                if key is not None and value is not None}

    async def commit(self, alerts: Alerts, checkpoints: dict[str, int]) -> None:
        if self.kafka.writers.get(self.shard) is not self:
            raise Fenced(f"shard {self.shard}: a newer owner opened the log")
        self.kafka.check()
        for alert_id, alert in alerts:
            self.kafka.append(ALERTS, alert["table"].encode(),
                              json.dumps({"id": alert_id, **alert}).encode())
        for table, offset in checkpoints.items():
            self.kafka.append(CHECKPOINTS, table.encode(), str(offset).encode(), self.shard)

    async def close(self) -> None:
        pass


class MemoryStore:
    """The store in memory, for fast tests of what uses it; `lose` is Redis losing its data."""

    def __init__(self) -> None:
        self.lose()

    def lose(self) -> None:
        """Everything gone, as when Redis restarts without persistence."""
        self.states: dict[str, tuple[int, BoardView]] = {}
        self.feeds: dict[str, list[int]] = {}
        self.tables: dict[str, dict[str, Any]] = {}
        self.tournaments: dict[str, dict[str, Any]] = {}  # closed tournaments' records
        self.clocks: dict[str, int] = {}  # timed rounds: tournament → when its round ends
        self.lines: dict[str, dict[str, Any]] = {}  # table → its overview line
        self.alive: set[int] = set()
        self.workers: dict[str, list[int]] = {}
        self.robots: dict[str, dict[str, dict[str, Any]]] = {}  # table → seat → presence
        self.hand: dict[str, dict[int, dict[str, Any]]] = {}  # tournament → board → record
        self.pages: dict[str, dict[str, int]] = {}  # table → "<seat>|<gateway>" → ms
        self.substitutes: dict[str, int] = {}  # tournament → its time before a substitute
        self.once: dict[str, int] = {}  # a step taken → until when (ms, monotonic-free)

    async def write_batch(self, states: States) -> None:
        for w in states:
            current = self.states.get(w.table)
            if current is None or w.version > current[0]:
                self.states[w.table] = (w.version, board_of(json.dumps(w.board)))
                self.feeds.setdefault(w.table, []).append(w.version)
                if w.line is not None:
                    self.lines[w.table] = json.loads(json.dumps(w.line))

    async def read_state(self, table: str) -> tuple[int, BoardView] | None:
        return self.states.get(table)

    async def overview(self, tables: list[str]) -> dict[str, StoredSummary]:
        return {t: cast(StoredSummary, dict(self.lines[t])) for t in tables if t in self.lines}

    async def feed_versions(self, table: str) -> list[int]:
        return list(self.feeds.get(table, []))

    async def remember_tables(self, records: dict[str, dict[str, Any]]) -> None:
        self.tables.update({table: dict(meta) for table, meta in records.items()})

    async def table_record(self, table: str) -> dict[str, Any] | None:
        return self.tables.get(table)

    async def table_records(self) -> dict[str, dict[str, Any]]:
        return {table: dict(meta) for table, meta in self.tables.items()}

    async def remember_tournament(self, tournament: str, record: dict[str, Any]) -> None:
        self.tournaments[tournament] = dict(record)

    async def tournament_record(self, tournament: str) -> dict[str, Any] | None:
        found = self.tournaments.get(tournament)
        return None if found is None else dict(found)

    async def tournament_records(self) -> dict[str, dict[str, Any]]:
        return {t: dict(record) for t, record in self.tournaments.items()}

    async def set_clock(self, tournament: str, ends_at: int) -> None:
        self.clocks[tournament] = ends_at

    async def drop_clock(self, tournament: str) -> bool:
        return self.clocks.pop(tournament, None) is not None

    async def clocks_due(self, now: int) -> list[str]:
        return [t for t, at in sorted(self.clocks.items(), key=lambda c: (c[1], c[0]))
                if at <= now]

    async def clock_of(self, tournament: str) -> int | None:
        return self.clocks.get(tournament)

    async def take_clock(self, tournament: str, now: int) -> bool:
        if self.clocks.get(tournament, now + 1) > now:
            return False
        del self.clocks[tournament]
        return True

    async def remember_hand_records(self, tournament: str, records: dict[int, dict[str, Any]]
                                    ) -> None:
        self.hand.setdefault(tournament, {}).update(json.loads(json.dumps(records)).items())

    async def hand_records(self, tournament: str) -> dict[int, dict[str, Any]]:
        return {int(b): dict(r) for b, r in self.hand.get(tournament, {}).items()}

    async def robots_present(self, tables: list[str]) -> dict[str, dict[str, RobotPresence]]:
        return {t: cast(dict[str, RobotPresence], dict(self.robots[t])) for t in tables
                if self.robots.get(t)}

    async def mark_pages(self, gateway: str, pages: list[tuple[str, str]], now: int) -> None:
        for table, seat in pages:
            self.pages.setdefault(table, {})[f"{seat}|{gateway}"] = now

    async def unmark_page(self, gateway: str, table: str, seat: str) -> None:
        self.pages.get(table, {}).pop(f"{seat}|{gateway}", None)

    async def pages_open(self, tables: list[str]) -> dict[str, dict[str, list[int]]]:
        found: dict[str, dict[str, list[int]]] = {}
        for table in tables:
            for name, ts in self.pages.get(table, {}).items():
                found.setdefault(table, {}).setdefault(name.split("|")[0], []).append(ts)
        return found

    async def set_substitutes(self, tournament: str, after_s: int | None) -> None:
        if after_s is None:
            self.substitutes.pop(tournament, None)
        else:
            self.substitutes[tournament] = after_s

    async def substitutes_after(self) -> dict[str, int]:
        return dict(self.substitutes)

    async def take_once(self, name: str, ttl_ms: int) -> bool:
        now = int(time.time() * 1000)
        if self.once.get(name, 0) > now:
            return False
        self.once[name] = now + ttl_ms
        return True

    async def records_of(self, tables: list[str]) -> dict[str, dict[str, Any]]:
        return {table: dict(self.tables[table]) for table in tables if table in self.tables}

    async def mark_alive(self, shard: int) -> None:
        self.alive.add(shard)

    async def is_alive(self, shard: int) -> bool:
        return shard in self.alive

    async def announce_worker(self, worker: str, shards: list[int], ttl_s: int) -> None:
        self.workers[worker] = sorted(shards)

    async def ping(self) -> None:
        pass


class FlakyStore(MemoryStore):
    """The in-memory store, which can be made unreachable (`down`) as Redis can."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.refused = 0  # requests refused while down

    def _check(self) -> None:
        if self.down:
            self.refused += 1
            raise StoreUnavailable()  # as `RedisStore` does when Redis is away

    async def write_batch(self, states: States) -> None:
        self._check()
        await super().write_batch(states)

    async def is_alive(self, shard: int) -> bool:
        self._check()
        return await super().is_alive(shard)

    async def remember_tables(self, records: dict[str, dict[str, Any]]) -> None:
        self._check()
        await super().remember_tables(records)

    async def mark_alive(self, shard: int) -> None:
        self._check()
        await super().mark_alive(shard)

    async def announce_worker(self, worker: str, shards: list[int], ttl_s: int) -> None:
        self._check()
        await super().announce_worker(worker, shards, ttl_s)

    async def hand_records(self, tournament: str) -> dict[int, dict[str, Any]]:
        self._check()
        return await super().hand_records(tournament)

    async def ping(self) -> None:
        self._check()


# --- the gateway's adapters (services/gateway/ports.py) -------------------------------------


@dataclass(frozen=True)
class Appended:
    offset: int


class MemoryAppender:
    """The producer, appending to `MemoryKafka` (a topic not there yet is made: the fake is
    lenient where the broker would time out). tests/integration/test_gateway_contracts.py
    holds it to the producer's behaviour. `sent`: (topic, key, value, partition), in order."""

    def __init__(self, kafka: MemoryKafka | None = None) -> None:
        self.kafka = kafka or MemoryKafka(shards=8)
        self.sent: list[tuple[str, bytes | None, bytes, int]] = []

    async def send_and_wait(self, topic: str, value: bytes, key: bytes | None = None,
                            partition: int | None = None) -> Appended:
        self.kafka.check()
        if topic in self.kafka.fenced:  # the broker's answer to a batch over the topic's limit
            raise MessageSizeTooLargeError(f"{topic} takes no more appends (fenced)")
        self.kafka.partitions.setdefault(TopicPartition(topic, partition or 0), [])
        self.sent.append((topic, key, value, partition or 0))
        return Appended(self.kafka.append(topic, key, value, partition or 0))

    async def send(self, topic: str, value: bytes, key: bytes | None = None,
                   partition: int | None = None) -> asyncio.Future[Appended]:
        delivery: asyncio.Future[Appended] = asyncio.get_running_loop().create_future()
        delivery.set_result(await self.send_and_wait(topic, value, key, partition))
        return delivery


class MemoryReads:
    """Topics read on demand, from `MemoryKafka` (tests/integration/test_gateway_contracts.py
    holds it to `bootstrap.KafkaReads`'s behaviour)."""

    def __init__(self, kafka: MemoryKafka) -> None:
        self.kafka = kafka
        self.tables_read: list[tuple[str, int | None]] = []  # (table, until) of each read
        self.topics_read: list[dict[str, int]] = []  # each read of many: topic → its start

    async def registered(self, table: str) -> dict[str, Any] | None:
        mine = [value for key, value in self.kafka.records(
            REGISTRY, shard_of(table, self.kafka.shards)) if key == table.encode() and value]
        return dict(json.loads(mine[-1])) if mine else None

    async def table(self, table: str, until: int | None = None) -> list[tuple[int, bytes | None]]:
        self.tables_read.append((table, until))
        tp = TopicPartition(table_topic(table), 0)
        if tp not in self.kafka.partitions:
            raise NoTableError(f"no topic {tp.topic}")
        return [(offset, value) for offset, (_, value) in enumerate(self.kafka.partitions[tp])
                if until is None or offset <= until]

    async def topics(self, topics: list[str], starts: Mapping[str, int] | None = None
                     ) -> dict[str, list[tuple[int, bytes | None]]]:
        self.topics_read.append(dict.fromkeys(topics, 0) | dict(starts or {}))
        return {topic: [(offset, value) for offset, (_, value) in
                        enumerate(self.kafka.records(topic))
                        if offset >= (starts or {}).get(topic, 0)] for topic in topics}


class MemoryTopics:
    """Topics fetched from `MemoryKafka` as `services.replay.kafka_topics.KafkaTopics` fetches
    them (tests/integration/test_gateway_contracts.py holds the two to one contract): the
    source of a `TopicCache`, such as the gateway's history reads' (`memory_history`)."""

    def __init__(self, kafka: MemoryKafka) -> None:
        self.kafka = kafka

    async def fetch(self, topic: str, start: int) -> Fetched:
        if self.kafka.down:
            self.kafka.refused += 1
            raise KafkaUnavailable("Kafka is away (a test said so)")
        tp = TopicPartition(topic, 0)
        if tp not in self.kafka.partitions:
            raise NoTableError(f"no topic {topic}")
        log = self.kafka.partitions[tp]
        if start > len(log):
            raise OffsetGone(f"{topic} has no offset {start} (it ends at {len(log)})")
        return Fetched([(offset, value) for offset, (_, value) in enumerate(log[start:], start)],
                       len(log), len(log))


def memory_history(kafka: MemoryKafka, reads: int = 8) -> HistoryReads:
    """The gateway's history reads (`adapters.history`) over `MemoryKafka`."""
    return HistoryReads(TopicCache(MemoryTopics(kafka), 1 << 20), reads)


class Switch:
    """A rate limit that allows everything while `open` (and refuses everything when not),
    counting the keys it is asked about."""

    def __init__(self) -> None:
        self.open = True
        self.keys: list[str] = []

    async def allow(self, key: str, now: float) -> bool:
        self.keys.append(key)
        return self.open


class QuietFeeds:
    """Feeds that never have an entry (a socket hears only its own acks); `run` reads nothing
    until cancelled, or dies at once with `dies` (a bug in a reader)."""

    def __init__(self, dies: BaseException | None = None) -> None:
        self.dies = dies
        self.handled: dict[str, Mark] = {}
        self.robots: dict[str, list[str]] = {}

    async def subscribe(self, key: str, since: str | None, view: Hashable, render: Render
                        ) -> Subscription:
        return Subscription(key, view, render)

    def unsubscribe(self, sub: Subscription) -> None:
        pass

    async def run(self) -> None:
        if self.dies is not None:
            raise self.dies
        await asyncio.Event().wait()

    def latest(self, count: int) -> list[ListedAlert | ListedPoison]:
        return []

    async def shown(self, key: str, now_ms: int | None = None
                    ) -> tuple[str, dict[bytes, bytes]] | None:
        return None

    def knows(self, alert_id: str) -> bool:
        return False


class Healthy:
    async def kafka_reachable(self) -> bool:
        return True

    async def redis_reachable(self) -> bool:
        return True


class Untouched:
    """A client a test's path never uses (creating tables, reading histories): any use fails
    the test."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"{self.what} used ({name}) where the test expects no use")


class MemoryAdmin:
    """The topics' admin on `MemoryKafka` (`ports.TopicAdmin`): tables' and tournaments' topics
    made (one partition each), fenced (`MemoryAppender` refuses their appends, as the broker
    does) and deleted; `TopicsUnavailable` while Kafka is `down`."""

    def __init__(self, kafka: MemoryKafka) -> None:
        self.kafka = kafka

    def _check(self) -> None:
        try:
            self.kafka.check()
        except KafkaConnectionError as exc:
            raise TopicsUnavailable(f"Kafka did not answer ({exc!r}); retry",
                                    retry_after=1) from exc

    def _topics(self) -> set[str]:
        return {tp.topic for tp in self.kafka.partitions}

    async def create_table(self, table: str) -> None:
        self._check()
        self.kafka.partitions.setdefault(TopicPartition(table_topic(table), 0), [])

    async def create_tournament(self, tournament: str, tables: list[str]) -> None:
        self._check()
        for topic in (tournament_topic(tournament), *map(table_topic, tables)):
            self.kafka.partitions.setdefault(TopicPartition(topic, 0), [])

    async def fence(self, topics: list[str]) -> None:
        self._check()
        self.kafka.fenced |= set(topics) & self._topics()

    async def delete(self, topics: list[str]) -> None:
        self._check()
        gone = set(topics)
        self.kafka.partitions = {tp: log for tp, log in self.kafka.partitions.items()
                                 if tp.topic not in gone}
        self.kafka.fenced -= gone

    async def existing(self) -> set[str]:
        self._check()
        return self._topics()

    async def describe(self, topics: list[str]) -> dict[str, TopicShape]:
        self._check()
        counts: dict[str, int] = {}
        for tp in self.kafka.partitions:
            counts[tp.topic] = counts.get(tp.topic, 0) + 1
        return {t: TopicShape(counts[t], t in self.kafka.fenced) for t in topics if t in counts}


class MemoryRegistry:
    """Tables' records written as creation and closing write them (`ports.Registry`): claimed
    in `store`'s tables (a `MemoryStore`'s; `RegistryUnavailable` while a `FlakyStore` is
    `down`), registered on `kafka`'s registry topic (`RegistryUnavailable` while it is
    `down`)."""

    def __init__(self, store: MemoryStore, kafka: MemoryKafka) -> None:
        self.store, self.kafka = store, kafka

    async def claim(self, records: Mapping[str, registry.TableRecord]
                    ) -> dict[str, registry.TableRecord]:
        if getattr(self.store, "down", False):
            raise RegistryUnavailable(REDIS_DOWN, retry_after=2)
        for table, record in records.items():
            self.store.tables.setdefault(table, dict(record))
        return {table: dict(self.store.tables[table]) for table in records}

    async def register(self, records: Mapping[str, registry.TableRecord],
                       timeout_s: float | None = None, doing: str = "register the tables",
                       then: str = "retry") -> None:
        if self.kafka.down:
            self.kafka.refused += 1
            raise RegistryUnavailable(f"Kafka did not {doing} (Kafka is away); {then}",
                                      retry_after=1)
        for table, record in records.items():
            self.kafka.append(REGISTRY, table.encode(), json.dumps(record).encode(),
                              shard_of(table, self.kafka.shards))


def gateway_adapters(kafka: MemoryKafka | None = None, **given: Any) -> Adapters:
    """The gateway's adapters in memory: the store, the producer, the topics' reads and admin
    and the registry (on `kafka`, and on the store), limits that allow all, quiet feeds, a
    healthy probe; `given` replaces any."""
    kafka = kafka or MemoryKafka(shards=8)
    adapters: dict[str, Any] = dict(
        store=MemoryStore(), producer=MemoryAppender(kafka), reads=MemoryReads(kafka),
        hub=QuietFeeds(), public=QuietFeeds(),
        alerts=QuietFeeds(), history=Untouched("the history reads"), seat_limit=Switch(),
        history_limit=Switch(), health=Healthy(), admin=MemoryAdmin(kafka))
    adapters.update(given)
    adapters.setdefault("registry", MemoryRegistry(adapters["store"], kafka))
    return Adapters(**adapters)


# A deal's hand record as the solver made it, by its deal: DDS takes 0.5 s a deal, and the
# unit tests' tournaments deal the same boards again and again (those of tests/data/deals-32.pbn
# kept solved: `tests.solved_records`; any other solved once a session)
_SOLVED: dict[str, dict[str, Any]] = solved_records.kept()


class InProcess:
    """The gateway's off-loop work (`off_loop.OffLoop`) done at once in the test's process: no
    worker process to start. A board's hand record (`services.robots.hand_records`) is solved
    once for each deal, each caller given its copy (a solver a test puts in its place is
    called every time)."""

    async def run(self, work: Callable[..., T], *args: object) -> T:
        if work is not hand_record:
            return work(*args)
        board, fields = args
        key = solved_records.key_of(cast(int, board), cast(Mapping[str, Any], fields))
        if key not in _SOLVED:
            _SOLVED[key] = hand_record(cast(int, board), cast(Mapping[str, Any], fields))
        return cast(T, copy.deepcopy(_SOLVED[key]))

    def stop(self) -> None:
        pass


def director_gateway(data: Path, kafka: MemoryKafka | None = None,
                     store: MemoryStore | None = None, **given: Any) -> Gateway:
    """A gateway on the fakes for what the director does (tables and tournaments created,
    closed, their histories read, robots asked for): its adapters `gateway_adapters`' with the
    history reads on `kafka` too, its off-loop work in process; `given` replaces adapters."""
    kafka = kafka or MemoryKafka(shards=8)
    store = store or MemoryStore()
    gw = Gateway(Settings(TABLESERVER_DATA=data, TABLESERVER_SIGNING_KEY="k" * 32,
                          TABLESERVER_DIRECTOR_TOKEN=DIRECTOR),
                 gateway_adapters(kafka, store=store, history=memory_history(kafka), **given))
    gw.off_loop = gw.background = InProcess()  # type: ignore[assignment]
    return gw


@asynccontextmanager
async def director_client(gw: Gateway, base_url: str = "http://gw"
                          ) -> AsyncIterator[httpx.AsyncClient]:
    """The director's client of `gw`'s app, in process (httpx's ASGI transport on the app
    `create_app` makes of `gw`'s settings and adapters; its off-loop work in process)."""
    from services.gateway.app import create_app  # the whole app: only for the tests of routes

    app = create_app(gw.settings, gw.adapters)
    app.app.state.gateway.off_loop = InProcess()  # type: ignore[attr-defined]
    app.app.state.gateway.background = InProcess()  # type: ignore[attr-defined]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url=base_url,
                                 headers={"Authorization": f"Bearer {DIRECTOR}"}) as client:
        yield client


def supervisor() -> Supervisor:
    """A supervisor that stops no process: what died is in its `died`."""
    return Supervisor(stop=lambda: None)
