"""Redis as the cache of table states and the feed of their changes.

A state is written with the Kafka offset it reflects as its version, by a Lua script that
never replaces a newer state by an older one; each accepted write is appended to the table's
feed (a Redis stream), so a client can resume from the last entry it saw. Alerts are kept once
each (by id) and appended to the alerts stream.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol, cast

from redis.asyncio import Redis
from redis.exceptions import NoScriptError

from services.names import (
    ALERT_IDS,
    ALERTS_STREAM,
    TABLES_SET,
    feed_key,
    shard_alive_key,
    state_key,
    worker_key,
)

FEED_LENGTH = 1000  # entries kept per table feed (about the last few boards)
ALERTS_LENGTH = 100_000

# KEYS: state hash, feed stream. ARGV: version, board JSON, feed length.
_WRITE_STATE = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[1]) <= current then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'board', ARGV[2])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'version', ARGV[1], 'board', ARGV[2])
return 1
"""

# KEYS: ids hash, alerts stream. ARGV: id, alert JSON, stream length.
_ADD_ALERT = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'id', ARGV[1], 'alert', ARGV[2])
return 1
"""


_WRITE_STATE_SHA = hashlib.sha1(_WRITE_STATE.encode()).hexdigest()
_ADD_ALERT_SHA = hashlib.sha1(_ADD_ALERT.encode()).hexdigest()


States = list[tuple[str, int, dict[str, Any]]]  # (table, version, board)
Alerts = list[tuple[str, dict[str, Any]]]  # (alert id, alert)


class StateStore(Protocol):
    """Where tables' states, records and alerts are kept for the gateway, and the processor's
    marks: Redis (`RedisStore`), or memory in tests (`MemoryStore`); one contract test,
    tests/integration/test_store_contract.py, holds both to the same behaviour."""

    async def write_batch(self, states: States, alerts: Alerts) -> None:
        """Each state unless a newer version of its table is there (appended to the table's
        feed when written); each alert unless stored before."""

    async def read_state(self, table: str) -> tuple[int, dict[str, Any]] | None: ...

    async def feed_versions(self, table: str) -> list[int]:
        """The versions appended to the table's feed, oldest first."""

    async def alert_ids(self) -> list[str]:
        """The ids of the alerts stored, in the order they were."""

    async def remember_table(self, table: str, meta: dict[str, Any]) -> None: ...

    async def table_record(self, table: str) -> dict[str, Any] | None: ...

    async def mark_alive(self, shard: int) -> None:
        """The shard's runner has written its tables here (`is_alive` false: data lost)."""

    async def is_alive(self, shard: int) -> bool: ...

    async def announce_worker(self, worker: str, shards: list[int], ttl_s: int) -> None:
        """The shards a worker runs, forgotten `ttl_s` after its last announcement."""


class RedisStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def write_batch(self, states: list[tuple[str, int, dict[str, Any]]],
                          alerts: list[tuple[str, dict[str, Any]]]) -> None:
        """Store each board as its table's state at that version, unless a newer one is there,
        and each alert not stored before; in one round trip (a pipeline). The scripts are
        called by their digest: loaded once, and again only when Redis has forgotten them
        (a restart); redis-py's own script objects ask Redis whether it knows them at every
        pipeline, a second round trip."""
        for attempt in (1, 2):
            async with self.redis.pipeline(transaction=False) as pipe:
                for table, version, board in states:
                    pipe.evalsha(_WRITE_STATE_SHA, 2, state_key(table), feed_key(table),
                                 version, json.dumps(board, separators=(",", ":")),
                                 FEED_LENGTH)
                for alert_id, alert in alerts:
                    pipe.evalsha(_ADD_ALERT_SHA, 2, ALERT_IDS, ALERTS_STREAM,
                                 alert_id, json.dumps(alert), ALERTS_LENGTH)
                try:
                    await pipe.execute()
                    return
                except NoScriptError:  # each write is idempotent: doing all again is safe
                    if attempt == 2:
                        raise
            for script in (_WRITE_STATE, _ADD_ALERT):
                await self.redis.script_load(script)

    async def read_state(self, table: str) -> tuple[int, dict[str, Any]] | None:
        raw = await self.redis.hmget(state_key(table), "version", "board")
        if raw[0] is None or raw[1] is None:
            return None
        return int(raw[0]), json.loads(raw[1])

    async def feed_versions(self, table: str) -> list[int]:
        return [int(fields[b"version"]) for _, fields in await self._entries(feed_key(table))]

    async def alert_ids(self) -> list[str]:
        return [fields[b"id"].decode() for _, fields in await self._entries(ALERTS_STREAM)]

    async def _entries(self, stream: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        return cast(list[tuple[bytes, dict[bytes, bytes]]], await self.redis.xrange(stream))

    async def remember_table(self, table: str, meta: dict[str, Any]) -> None:
        await self.redis.hset(TABLES_SET, table, json.dumps(meta))

    async def table_record(self, table: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(TABLES_SET, table)
        return None if raw is None else dict(json.loads(raw))

    async def mark_alive(self, shard: int) -> None:
        await self.redis.set(shard_alive_key(shard), "1")

    async def is_alive(self, shard: int) -> bool:
        return bool(await self.redis.exists(shard_alive_key(shard)))

    async def announce_worker(self, worker: str, shards: list[int], ttl_s: int) -> None:
        await self.redis.set(worker_key(worker), json.dumps(sorted(shards)), ex=ttl_s)


class MemoryStore:
    """The store in memory, for fast tests of what uses it; `lose` is Redis losing its data."""

    def __init__(self) -> None:
        self.lose()

    def lose(self) -> None:
        """Everything gone, as when Redis restarts without persistence."""
        self.states: dict[str, tuple[int, dict[str, Any]]] = {}
        self.feeds: dict[str, list[int]] = {}
        self.alerts: dict[str, dict[str, Any]] = {}  # in the order stored
        self.tables: dict[str, dict[str, Any]] = {}
        self.alive: set[int] = set()
        self.workers: dict[str, list[int]] = {}

    async def write_batch(self, states: States, alerts: Alerts) -> None:
        for table, version, board in states:
            current = self.states.get(table)
            if current is None or version > current[0]:
                self.states[table] = (version, json.loads(json.dumps(board)))
                self.feeds.setdefault(table, []).append(version)
        for alert_id, alert in alerts:
            self.alerts.setdefault(alert_id, alert)

    async def read_state(self, table: str) -> tuple[int, dict[str, Any]] | None:
        return self.states.get(table)

    async def feed_versions(self, table: str) -> list[int]:
        return list(self.feeds.get(table, []))

    async def alert_ids(self) -> list[str]:
        return list(self.alerts)

    async def remember_table(self, table: str, meta: dict[str, Any]) -> None:
        self.tables[table] = dict(meta)

    async def table_record(self, table: str) -> dict[str, Any] | None:
        return self.tables.get(table)

    async def mark_alive(self, shard: int) -> None:
        self.alive.add(shard)

    async def is_alive(self, shard: int) -> bool:
        return shard in self.alive

    async def announce_worker(self, worker: str, shards: list[int], ttl_s: int) -> None:
        self.workers[worker] = sorted(shards)
