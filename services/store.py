"""Redis as the cache of table states and the feed of their changes.

A state is written with the Kafka offset it reflects as its version, by a Lua script that
never replaces a newer state by an older one; each accepted write is appended to the table's
feed (a Redis stream), so a client can resume from the last entry it saw. Alerts are kept once
each (by id) and appended to the alerts stream.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError

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


_WRITE_STATE_SHA = hashlib.sha1(_WRITE_STATE.encode()).hexdigest()
_ADD_ALERT_SHA = hashlib.sha1(_ADD_ALERT.encode()).hexdigest()


class StateStore:
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
                    pipe.evalsha(_ADD_ALERT_SHA, 2, "tableserver:alert-ids", ALERTS_STREAM,
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

    async def remember_table(self, table: str, meta: dict[str, Any]) -> None:
        await self.redis.hset(TABLES_SET, table, json.dumps(meta))
