"""The services' redis-py client on one real Redis (services/common/redis_connect.py): more
commands at once than it has connections wait for one, none is refused."""

from __future__ import annotations

import asyncio

from services.common import redis_connect
from services.common.settings import Settings
from tests.stack import Stack

AT_ONCE = 3 * redis_connect.CONNECTIONS  # the robots' leases of a busy evening: 300 at once
HOLD_MS = 50  # each command holds its connection this long


async def test_more_commands_than_connections_wait_and_all_succeed(stack: Stack) -> None:
    settings = Settings(TABLESERVER_REDIS_PORT=stack.redis_port)
    redis = redis_connect.redis_client(settings, client_name="tableserver-test-many")
    try:
        # BLPOP on a list nobody fills holds its connection until its timeout: the command
        # in flight on a connection of its own, as a lease's script is while Redis is busy
        keys = [f"test:many:{i}" for i in range(AT_ONCE)]
        got = await asyncio.gather(*(redis.blpop([key], timeout=HOLD_MS / 1000)
                                     for key in keys))
        assert got == [None] * AT_ONCE  # every command answered, none refused
        clients = await redis.client_list()
        ours = [c for c in clients if c.get("name") == "tableserver-test-many"]
        assert 0 < len(ours) <= redis_connect.CONNECTIONS
    finally:
        await redis.aclose()
