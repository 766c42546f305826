"""`tableserver import`: a record's boards appended to a table's topic, once.

Each event of the record gets a deterministic id, `import:<board digest>:<n>:<i>`: the digest
of the board's events as the record gives them, `n` counting identical boards in the record,
`i` the event's place in the board. Before appending, the table's topic is read and every event
already there (its id, and the same event: its time stamp aside) is left out: importing the
same file twice adds nothing, and an import cut short (a crash) goes on where it stopped when
run again. What is left out is reported, board by board (`Imported.found`).

The `import:` ids are the importer's alone: the gateway refuses them from anyone
(`shared.ids.IMPORT_ID_PREFIX`), so no seat can make an import leave out its events by
posting their ids first. An id of the record found on the table on another event (one appended
before the gateway refused them, or by hand) does not count as the event: it is imported all
the same, and reported (`Imported.taken`).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaError, KafkaTimeoutError

from services.common.errors import StoreUnavailable, Unavailable
from services.common.kafka.admin import ensure_core_topics
from services.common.kafka.produce import acknowledged, send
from services.common.kafka.reader import KafkaUnavailable, Record, read_table
from services.common.names import table_topic
from services.common.redis_connect import redis_client
from services.common.redis_faults import unreachable
from services.common.registry import create_table
from services.common.settings import Settings
from shared.codec import DecodeError, encode, from_map, unpack
from shared.ids import IMPORT_ID_PREFIX

Board = list[dict[str, Any]]


CONNECT_TIMEOUT_MS = 10_000  # a broker that does not answer is given up after this


class NotBoards(ValueError):
    """A log whose first events come before any board."""


class RedisUnavailable(RuntimeError):
    """Redis could not be reached or answered with an error; the message says which, in one
    line."""

    @classmethod
    def of(cls, url: str, exc: StoreUnavailable) -> RedisUnavailable:
        if unreachable(exc):
            return cls(f"Redis at {url} is unreachable")
        return cls(f"Redis at {url} answered with an error: {exc.__cause__ or exc}")


def boards_of(events: list[dict[str, Any]]) -> list[Board]:
    """The events grouped by board (each group starts with its `board_started`)."""
    boards: list[Board] = []
    for event in events:
        if event.get("type") == "board_started":
            boards.append([])
        elif not boards:
            raise NotBoards(f"a {event.get('type')} event comes before any board_started")
        boards[-1].append(event)
    return boards


def with_ids(boards: list[Board]) -> list[Board]:
    """The boards with each event's import id (see the module's docstring)."""
    seen: dict[str, int] = {}
    out = []
    for board in boards:
        digest = hashlib.sha256(json.dumps(board, sort_keys=True).encode()).hexdigest()[:20]
        n = seen[digest] = seen.get(digest, -1) + 1
        out.append([{**event, "id": f"{IMPORT_ID_PREFIX}{digest}:{n}:{i}"}
                    for i, event in enumerate(board)])
    return out


UNSTAMPED = ("ts", "v")  # what differs between two appends of the same event


def _as_kept(event: dict[str, Any], ruleset: str) -> dict[str, Any]:
    """The event as the topic keeps it (encoded and read back), its stamp aside."""
    kept = unpack(encode(from_map(_stamped(event, 0, ruleset))))
    return {k: v for k, v in kept.items() if k not in UNSTAMPED}


def _on_table(records: list[Record]) -> dict[str, list[dict[str, Any]]]:
    """The events on the topic that carry an import id: id → those events (stamps aside);
    only the maps are read, no event is built."""
    found: dict[str, list[dict[str, Any]]] = {}
    for _, value in records:
        try:
            kept = unpack(value or b"")
        except DecodeError:
            continue
        event_id = kept.get("id")
        if isinstance(event_id, str) and event_id.startswith(IMPORT_ID_PREFIX):
            found.setdefault(event_id, []).append(
                {k: v for k, v in kept.items() if k not in UNSTAMPED})
    return found


def _stamped(event: dict[str, Any], now: int, ruleset: str) -> dict[str, Any]:
    """The event as appended: stamped with the time, a board with the table's ruleset unless
    the log names one."""
    stamped = {**event, "ts": now}
    if stamped["type"] == "board_started":
        stamped.setdefault("ruleset", ruleset)
    return stamped


@dataclass(frozen=True)
class Found:
    """A board of the record found on the table, whole or its first events: left out."""

    board: int  # its number
    ids: tuple[str, ...]  # the events left out
    events: int  # the board's events in the record

    @property
    def whole(self) -> bool:
        return len(self.ids) == self.events


@dataclass(frozen=True)
class Plan:
    todo: list[Board]  # what to append: boards, or what the table lacks of them
    found: list[Found]
    taken: list[str]  # the record's ids on the table on other events: appended all the same


def plan(boards: list[Board], records: list[Record], ruleset: str) -> Plan:
    """What of `boards` (see `with_ids`) the table, whose topic holds `records`, lacks: an
    event counts as there when its id is on the table on the same event (its stamp aside)."""
    on_table = _on_table(records)
    todo: list[Board] = []
    found: list[Found] = []
    taken: list[str] = []
    for board in boards:
        missing, there = [], []
        for event in board:
            same = on_table.get(event["id"])
            if same is None:
                missing.append(event)
            elif _as_kept(event, ruleset) in same:
                there.append(event["id"])
            else:
                missing.append(event)
                taken.append(event["id"])
        if there:
            found.append(Found(int(board[0].get("board", 0)), tuple(there), len(board)))
        if missing:
            todo.append(missing)
    return Plan(todo, found, taken)


@dataclass(frozen=True)
class Imported:
    boards: int  # boards appended (whole or their missing end)
    already: int  # boards found whole on the table
    events: int  # events appended
    first_offset: int | None
    last_offset: int | None
    found: tuple[Found, ...] = ()  # what was left out, found on the table, board by board
    taken: tuple[str, ...] = ()  # ids of the record on the table on other events


async def import_boards(settings: Settings, table: str, ruleset: str, boards: list[Board],
                        progress: Callable[[int, int], None] = lambda done, total: None
                        ) -> Imported:
    """Append `boards` (see `with_ids`) to `table`, creating the table if needed. A broker or
    a Redis that cannot be reached raises `KafkaUnavailable` or `RedisUnavailable`, after
    closing what was opened."""
    try:
        return await _import_boards(settings, table, ruleset, boards, progress)
    except KafkaError as exc:
        raise KafkaUnavailable.of(settings.kafka_bootstrap, exc) from None
    except StoreUnavailable as exc:  # (before its parent, Kafka's `Unavailable`)
        raise RedisUnavailable.of(settings.redis_url, exc) from None
    except Unavailable as exc:  # an append (services.common.kafka.produce): its cause
        cause = exc.__cause__
        raise KafkaUnavailable.of(settings.kafka_bootstrap, cause if isinstance(
            cause, KafkaError) else KafkaTimeoutError()) from None


async def _import_boards(settings: Settings, table: str, ruleset: str, boards: list[Board],
                         progress: Callable[[int, int], None]) -> Imported:
    admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap,
                                request_timeout_ms=CONNECT_TIMEOUT_MS)
    producer = AIOKafkaProducer(bootstrap_servers=settings.kafka_bootstrap, acks="all",
                                enable_idempotence=True, linger_ms=5)
    redis = redis_client(settings)
    try:
        await admin.start()
        await producer.start()
        await ensure_core_topics(admin, settings.shards, settings.replication)
        meta = await create_table(admin, producer, redis, table, ruleset, settings.replication,
                                  settings.shards)
        planned = plan(boards, await read_table(settings.kafka_bootstrap, table),
                       meta["ruleset"])
        todo = planned.todo
        now = int(time.time() * 1000)
        encoded = [[encode(from_map(_stamped(event, now, meta["ruleset"]))) for event in board]
                   for board in todo]  # every event checked before the first is sent
        sent = []  # per board, the producer's futures: all sent at once, acknowledged in order
        for values in encoded:
            sent.append([await send(producer, table_topic(table), value) for value in values])
        offsets: list[int] = []
        for done, futures in enumerate(sent, start=1):
            offsets += await acknowledged(futures)
            progress(done, len(todo))
        return Imported(len(todo), sum(1 for f in planned.found if f.whole), len(offsets),
                        min(offsets, default=None), max(offsets, default=None),
                        tuple(planned.found), tuple(planned.taken))
    finally:
        await producer.stop()
        await admin.close()
        await redis.aclose()
