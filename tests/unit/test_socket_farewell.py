"""A socket the client closes before it authenticates is let go quietly (docs/api.md, sockets):
the gateway used to close it again, an error that uvicorn logged as a 5 kB traceback per
socket. Here the whole app (the guard, FastAPI, the feed's route) is driven as uvicorn drives it,
through ASGI, by a client that leaves: no I/O, no clients started (none is needed before a
token is checked)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from uvicorn.protocols.utils import ClientDisconnected

from services.common.settings import Settings
from services.gateway.app import create_app

PATHS = ["/api/tables/t1/feed", "/api/alerts/feed", "/api/tournaments/spring/live"]


class LeavingClient:
    """uvicorn's side of a socket whose client closes it before its first message: the app
    receives the connection, then its close; anything sent after that raises, as uvicorn's
    `send` does once the connection is gone."""

    def __init__(self) -> None:
        self.incoming: list[dict[str, Any]] = [
            {"type": "websocket.connect"}, {"type": "websocket.disconnect", "code": 1000}]
        self.sent: list[dict[str, Any]] = []
        self.gone = False

    async def receive(self) -> dict[str, Any]:
        message = self.incoming.pop(0)
        self.gone = self.gone or message["type"] == "websocket.disconnect"
        return message

    async def send(self, message: dict[str, Any]) -> None:
        if self.gone:
            raise ClientDisconnected()
        self.sent.append(message)


def _scope(path: str) -> dict[str, Any]:
    return {"type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.4"},
            "scheme": "ws", "http_version": "1.1", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "headers": [(b"host", b"testserver")],
            "client": ("127.0.0.1", 50000), "server": ("testserver", 80), "subprotocols": [],
            "state": {}}


@pytest.mark.parametrize("path", PATHS)
async def test_a_socket_closed_before_its_token_is_let_go_quietly(
        path: str, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(Settings(TABLESERVER_SIGNING_KEY="k" * 32,
                              TABLESERVER_DIRECTOR_TOKEN="d" * 32))
    client = LeavingClient()
    with caplog.at_level(logging.DEBUG):
        await app(_scope(path), client.receive, client.send)  # uvicorn logs what this raises
    assert [m["type"] for m in client.sent] == ["websocket.accept"]  # and no close after
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
