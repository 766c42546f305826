"""A socket closed before it authenticates logs nothing (docs/api.md, sockets): 500 such sockets
used to write 2.7 MB of tracebacks. The gateway's app under a real uvicorn, in this process
(its log records caught as they are made), on real TCP sockets; no Kafka or Redis is needed
before a token is checked, so its clients are not started (lifespan off)."""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from collections.abc import Iterator

import pytest
import uvicorn
from websockets.asyncio.client import connect

from services.common.settings import Settings
from services.gateway.app import create_app
from tests.helpers import wait_for

SOCKETS = 50


@pytest.fixture
def gateway_server() -> Iterator[uvicorn.Server]:
    app = create_app(Settings(TABLESERVER_SIGNING_KEY="k" * 32,
                              TABLESERVER_DIRECTOR_TOKEN="d" * 32))
    # as services/gateway/__main__.py runs it; log_config None: uvicorn's records reach
    # the root logger, and pytest's capture
    server = uvicorn.Server(uvicorn.Config(
        app, host="127.0.0.1", port=0, lifespan="off", log_level="warning", log_config=None,
        ws_max_size=4096, ws_per_message_deflate=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, 10, "uvicorn started")
    try:
        yield server
    finally:
        server.should_exit = True
        thread.join(10)


def test_sockets_closed_before_their_token_log_nothing(
        gateway_server: uvicorn.Server, caplog: pytest.LogCaptureFixture) -> None:
    port = gateway_server.servers[0].sockets[0].getsockname()[1]
    paths = ["/api/tables/t1/feed", "/api/alerts/feed", "/api/tournaments/spring/live"]

    async def come_and_go() -> None:
        for n in range(SOCKETS):
            async with connect(f"ws://127.0.0.1:{port}{paths[n % len(paths)]}",
                               open_timeout=10):
                pass  # closed at once, before any message

    gc.collect()  # earlier tests' garbage logs its own errors now, not in this test's records
    with caplog.at_level(logging.INFO):
        asyncio.run(come_and_go())
        state = gateway_server.server_state
        wait_for(lambda: not state.tasks and not state.connections, 10,
                 "every socket's handler done")
    told = [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    assert told == [], f"{len(told)} records, e.g. {told[0].getMessage()!r}"
