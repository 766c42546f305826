"""What the Table Manager host tells the director through Redis: the robot at each table's
seat, connected or gone (`robot_key`: `{"label", "connected", "since"}`). A connected robot's
record is kept up every few seconds and expires soon after the host stops (killed, its
machine gone): the seat then shows only what the director asked for. A robot that left is
remembered as waiting for a while: it may come back."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Protocol

from redis.exceptions import RedisError

from services.common.names import robot_key
from services.common.redis_connect import AnyRedis

log = logging.getLogger("tableserver.robots")
KEEP_UP_S = 5  # a connected robot's record written again this often
CONNECTED_TTL_S = 15  # and forgotten this long after the host last wrote it
LEFT_TTL_S = 600  # a robot that left: its seat waits for it, as the director sees, this long


class Presence(Protocol):
    async def seated(self, table: str, seat: str, label: str) -> None: ...

    async def left(self, table: str, seat: str, label: str) -> None: ...


class NoPresence:
    """Tells no one (the host's unit tests)."""

    async def seated(self, table: str, seat: str, label: str) -> None:
        pass

    async def left(self, table: str, seat: str, label: str) -> None:
        pass


class RedisPresence:
    def __init__(self, redis: AnyRedis) -> None:
        self.redis = redis
        self.connected: dict[tuple[str, str], tuple[str, int]] = {}  # → label, since

    async def _write(self, table: str, seat: str, label: str, connected: bool, since: int
                     ) -> None:
        record = json.dumps({"label": label, "connected": connected, "since": since})
        try:
            await self.redis.set(robot_key(table, seat), record,
                                 ex=CONNECTED_TTL_S if connected else LEFT_TTL_S)
        except (RedisError, OSError) as error:  # the director sees it late, play goes on
            log.warning("robot at %s %s not recorded (%r)", table, seat, error)

    async def seated(self, table: str, seat: str, label: str) -> None:
        since = int(time.time() * 1000)
        self.connected[(table, seat)] = (label, since)
        await self._write(table, seat, label, True, since)

    async def left(self, table: str, seat: str, label: str) -> None:
        self.connected.pop((table, seat), None)
        await self._write(table, seat, label, False, int(time.time() * 1000))

    async def keep_up(self) -> None:
        """Write every connected robot's record again, for ever (a task)."""
        while True:
            await asyncio.sleep(KEEP_UP_S)
            for (table, seat), (label, since) in list(self.connected.items()):
                await self._write(table, seat, label, True, since)
