"""Which robot pool holds which seat, when several pools (on this machine or others) follow
the same requests (`tableserver.robots`): a lease a seat in Redis (`robot_lease_key`), so that
each seat asked for is held by one pool only, and its robot sits once.

A pool takes a seat's lease when no pool holds it (a script: `SET PX` its holder's id, for
`TABLESERVER_ROBOT_LEASE` seconds, if the key is not there), renews it every third of that
while its robot sits, and gives it up when the seat is taken away or the pool stops. A pool
that dies (killed, its machine gone) renews nothing: its leases lapse, and another pool,
which asks every third of a lease for the seats it does not hold, takes them and seats its
robots, told the board from its start. A pool that cannot renew in time (Redis away for two
thirds of a lease) takes its robot away: another may hold the seat. Redis restarted and the
lease gone, its holder writes it again at its next renewal.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from typing import Protocol

from services.common.names import robot_lease_key
from services.common.redis_connect import AnyRedis

log = logging.getLogger("tableserver.robots.leases")

# ours: PEXPIRE; no one's (never taken, lapsed, or Redis restarted): SET PX, ours; another's
_TAKE_OR_RENEW = """
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if not held then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
"""
_GIVE_UP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def holder_id() -> str:
    """This pool's id in its leases: its machine, its process, and a part of its own."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class SeatLeases(Protocol):
    lease_s: float

    async def take(self, table: str, seat: str) -> bool:
        """The seat's lease is this pool's now (False: another's)."""

    async def renew(self, table: str, seat: str) -> bool:
        """Still this pool's, for another lease (False: another pool's)."""

    async def give_up(self, table: str, seat: str) -> None: ...


class RedisLeases:
    def __init__(self, redis: AnyRedis, lease_s: float, holder: str | None = None) -> None:
        self.redis, self.lease_s = redis, lease_s
        self.holder = holder or holder_id()
        self.lease_ms = max(1, int(lease_s * 1000))

    async def take(self, table: str, seat: str) -> bool:
        return await self.renew(table, seat)  # no one's, or this pool's already: its own

    async def renew(self, table: str, seat: str) -> bool:
        return bool(await self.redis.eval(
            _TAKE_OR_RENEW, 1, robot_lease_key(table, seat), self.holder, self.lease_ms))

    async def give_up(self, table: str, seat: str) -> None:
        await self.redis.eval(
            _GIVE_UP, 1, robot_lease_key(table, seat), self.holder)
