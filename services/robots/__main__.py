"""`python -m services.robots`: the Table Manager host on TABLESERVER_TM_PORT."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

from services.common.redis_connect import redis_client
from services.common.settings import Settings
from services.common.stack_dump import install as install_stack_dump
from services.robots.host import HostLimits, TableManagerHost
from services.robots.presence import RedisPresence
from services.robots.round_ends import RedisRoundEnds


async def run(settings: Settings) -> None:
    host = os.environ.get("TABLESERVER_HOST", "127.0.0.1")
    redis = redis_client(settings, socket_connect_timeout=2, socket_timeout=5,
                         client_name="tableserver-robots")
    presence = RedisPresence(redis, stall_s=settings.tm_stall_s)
    limits = HostLimits.of(settings)
    tm_host = TableManagerHost(settings.gateway_url, presence=presence, limits=limits,
                               round_ends=RedisRoundEnds(redis))
    try:
        server = await tm_host.serve(host, settings.tm_port)
    except OSError as error:
        sys.exit(f"the Table Manager host cannot listen on port {settings.tm_port} ({error}): "
                 "stop what uses it or set TABLESERVER_TM_PORT")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    logging.getLogger("tableserver.robots").info(
        "Table Manager host on %s:%d, for the gateway at %s (idle %d s, %d connections an "
        "address, stalled after %d s)", host, settings.tm_port, settings.gateway_url,
        limits.idle_s, limits.per_address, settings.tm_stall_s)
    keep_up = asyncio.create_task(presence.keep_up(), name="robots' presence")
    async with server:
        await stop.wait()
    keep_up.cancel()
    await tm_host.close()
    await redis.aclose()


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    install_stack_dump()  # kill -USR1: what the process waits for, in its log
    asyncio.run(run(Settings()))


if __name__ == "__main__":
    main()
