"""Redis as the cache of table states and the feed of their changes.

A state is written with the Kafka offset it reflects as its version, by a Lua script that
never replaces a newer state by an older one; each accepted write is appended to the table's
feed (a Redis stream), so a client can resume from the last entry it saw. Alerts are kept once
each (by id) and appended to the alerts stream.
"""

from __future__ import annotations

import json
from typing import Any

from redis.asyncio import Redis

from services.names import ALERTS_STREAM, TABLES_SET, feed_key, state_key

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


class StateStore:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._write_state = redis.register_script(_WRITE_STATE)
        self._add_alert = redis.register_script(_ADD_ALERT)

    async def write_batch(self, states: list[tuple[str, int, dict[str, Any]]],
                          alerts: list[tuple[str, dict[str, Any]]]) -> None:
        """Store each board as its table's state at that version, unless a newer one is there,
        and each alert not stored before; in one round trip (a pipeline)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table, version, board in states:
                await self._write_state(
                    keys=[state_key(table), feed_key(table)],
                    args=[version, json.dumps(board, separators=(",", ":")), FEED_LENGTH],
                    client=pipe)
            for alert_id, alert in alerts:
                await self._add_alert(keys=["tableserver:alert-ids", ALERTS_STREAM],
                                      args=[alert_id, json.dumps(alert), ALERTS_LENGTH],
                                      client=pipe)
            await pipe.execute()

    async def read_state(self, table: str) -> tuple[int, dict[str, Any]] | None:
        raw = await self.redis.hmget(state_key(table), "version", "board")
        if raw[0] is None or raw[1] is None:
            return None
        return int(raw[0]), json.loads(raw[1])

    async def remember_table(self, table: str, meta: dict[str, Any]) -> None:
        await self.redis.hset(TABLES_SET, table, json.dumps(meta))
