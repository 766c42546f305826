"""What the Table Manager host tells the director through Redis: the robot at each table's
seat, connected or gone, and since when the table has waited for its call or card
(`robot_key`: `{"label", "connected", "since", "awaited_since", "stalled"}`; `stalled` once
that wait is `TABLESERVER_TM_STALL` long). A connected robot's record is kept up every few
seconds and expires soon after the host stops (killed, its machine gone): the seat then shows
only what the director asked for. A robot that left is remembered as waiting for a while: it
may come back."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Protocol

from services.common.errors import StoreUnavailable
from services.common.names import robot_key
from services.common.redis_connect import AnyRedis
from services.common.redis_faults import store_faults
from shared.robot.seats import RobotPresence

log = logging.getLogger("tableserver.robots")
KEEP_UP_S = 5  # a connected robot's record written again this often
CONNECTED_TTL_S = 15  # and forgotten this long after the host last wrote it
LEFT_TTL_S = 600  # a robot that left: its seat waits for it, as the director sees, this long


class Presence(Protocol):
    async def seated(self, table: str, seat: str, label: str) -> None: ...

    async def left(self, table: str, seat: str, label: str) -> None: ...

    async def awaited(self, table: str, seat: str, since: int | None) -> None:
        """The table waits for the robot's call or card since `since` (ms since the epoch;
        None: it does not)."""


class NoPresence:
    """Tells no one (the host's unit tests)."""

    async def seated(self, table: str, seat: str, label: str) -> None:
        pass

    async def left(self, table: str, seat: str, label: str) -> None:
        pass

    async def awaited(self, table: str, seat: str, since: int | None) -> None:
        pass


class RedisPresence:
    def __init__(self, redis: AnyRedis, stall_s: float = 60,
                 clock: Callable[[], float] = time.time) -> None:
        self.redis, self.stall_s, self.clock = redis, stall_s, clock
        self.connected: dict[tuple[str, str], tuple[str, int]] = {}  # → label, since
        self.waits: dict[tuple[str, str], int] = {}  # → awaited since (ms)
        self.timers: dict[tuple[str, str], asyncio.TimerHandle] = {}  # → its stall, due
        self.writing: set[asyncio.Task[None]] = set()

    def _now(self) -> int:
        return int(self.clock() * 1000)

    async def _write(self, table: str, seat: str, label: str, connected: bool, since: int
                     ) -> None:
        awaited = self.waits.get((table, seat)) if connected else None
        stalled = awaited is not None and self._now() - awaited >= self.stall_s * 1000
        presence: RobotPresence = {"label": label, "connected": connected, "since": since,
                                   "awaited_since": awaited, "stalled": stalled}
        record = json.dumps(presence)
        try:
            with store_faults():
                await self.redis.set(robot_key(table, seat), record,
                                     ex=CONNECTED_TTL_S if connected else LEFT_TTL_S)
        except (StoreUnavailable, OSError) as error:  # the director sees it late, play goes on
            log.warning("robot at %s %s not recorded (%r)", table, seat, error)

    async def seated(self, table: str, seat: str, label: str) -> None:
        since = self._now()
        self.connected[(table, seat)] = (label, since)
        await self._write(table, seat, label, True, since)

    async def left(self, table: str, seat: str, label: str) -> None:
        self.connected.pop((table, seat), None)
        await self._write(table, seat, label, False, self._now())

    async def awaited(self, table: str, seat: str, since: int | None) -> None:
        """Recorded at once, and again when the wait becomes a stall (if it lasts)."""
        key = (table, seat)
        timer = self.timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        if since is None:
            self.waits.pop(key, None)
        else:
            self.waits[key] = since
            due = since / 1000 + self.stall_s - self.clock() + 0.01
            self.timers[key] = asyncio.get_running_loop().call_later(
                max(0.0, due), self._stalled, key, since)
        found = self.connected.get(key)
        if found is not None:
            await self._write(table, seat, found[0], True, found[1])

    def _stalled(self, key: tuple[str, str], since: int) -> None:
        self.timers.pop(key, None)
        found = self.connected.get(key)
        if found is None or self.waits.get(key) != since:
            return
        task = asyncio.create_task(self._write(*key, found[0], True, found[1]))
        self.writing.add(task)
        task.add_done_callback(self.writing.discard)

    async def keep_up(self) -> None:
        """Write every connected robot's record again, for ever (a task)."""
        while True:
            await asyncio.sleep(KEEP_UP_S)
            for (table, seat), (label, since) in list(self.connected.items()):
                await self._write(table, seat, label, True, since)
