"""`tableserver import`: a record's boards appended to a table's topic, once.

Each event of the record gets a deterministic id, `import:<board digest>:<n>:<i>`: the digest
of the board's events as the record gives them, `n` counting identical boards in the record,
`i` the event's place in the board. Before appending, the table's topic is read and every event
whose id is already there is left out: importing the same file twice adds nothing, and an
import cut short (a crash) goes on where it stopped when run again.
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
from aiokafka.errors import KafkaError
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from services.kafka_admin import ensure_core_topics
from services.names import table_topic
from services.replay.reader import KafkaUnavailable, read_table
from services.settings import Settings
from services.tables import create_table
from shared.codec import DecodeError, encode, from_map, unpack

Board = list[dict[str, Any]]


CONNECT_TIMEOUT_MS = 10_000  # a broker that does not answer is given up after this


class NotBoards(ValueError):
    """A log whose first events come before any board."""


class RedisUnavailable(RuntimeError):
    """Redis could not be reached or answered with an error; the message says which, in one
    line."""

    @classmethod
    def of(cls, url: str, exc: RedisError) -> RedisUnavailable:
        if isinstance(exc, RedisConnectionError | RedisTimeoutError):
            return cls(f"Redis at {url} is unreachable")
        return cls(f"Redis at {url} answered with an error: {exc}")


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
        out.append([{**event, "id": f"import:{digest}:{n}:{i}"}
                    for i, event in enumerate(board)])
    return out


def _id_of(value: bytes | None) -> Any:
    """The `id` an event on the topic was appended with (None if none, or not an event): only
    the map is read, the event is not built."""
    try:
        return unpack(value or b"").get("id")
    except DecodeError:
        return None


def _stamped(event: dict[str, Any], now: int, ruleset: str) -> dict[str, Any]:
    """The event as appended: stamped with the time, a board with the table's ruleset unless
    the log names one."""
    stamped = {**event, "ts": now}
    if stamped["type"] == "board_started":
        stamped.setdefault("ruleset", ruleset)
    return stamped


@dataclass(frozen=True)
class Imported:
    boards: int  # boards appended (whole or their missing end)
    already: int  # boards found whole on the table
    events: int  # events appended
    first_offset: int | None
    last_offset: int | None


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
    except RedisError as exc:
        raise RedisUnavailable.of(settings.redis_url, exc) from None


async def _import_boards(settings: Settings, table: str, ruleset: str, boards: list[Board],
                         progress: Callable[[int, int], None]) -> Imported:
    admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap,
                                request_timeout_ms=CONNECT_TIMEOUT_MS)
    producer = AIOKafkaProducer(bootstrap_servers=settings.kafka_bootstrap, acks="all",
                                enable_idempotence=True, linger_ms=5)
    redis = Redis.from_url(settings.redis_url)
    try:
        await admin.start()
        await producer.start()
        await ensure_core_topics(admin, settings.shards, settings.replication)
        meta = await create_table(admin, producer, redis, table, ruleset, settings.replication,
                                  settings.shards)
        present = {_id_of(value) for _, value in await read_table(settings.kafka_bootstrap,
                                                                  table)}
        todo = [[e for e in board if e["id"] not in present] for board in boards]
        already = sum(1 for board in todo if not board)
        todo = [board for board in todo if board]
        now = int(time.time() * 1000)
        encoded = [[encode(from_map(_stamped(event, now, meta["ruleset"]))) for event in board]
                   for board in todo]  # every event checked before the first is sent
        sent = []  # per board, the producer's futures: all sent at once, acknowledged in order
        for values in encoded:
            sent.append([await producer.send(table_topic(table), value) for value in values])
        offsets: list[int] = []
        for done, futures in enumerate(sent, start=1):
            offsets += [(await future).offset for future in futures]
            progress(done, len(todo))
        return Imported(len(todo), already, len(offsets), min(offsets, default=None),
                        max(offsets, default=None))
    finally:
        await producer.stop()
        await admin.close()
        await redis.aclose()
