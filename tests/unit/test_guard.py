"""The gateway's guard (`services.gateway.http.asgi.Guard`) and a request's body (docs/api.md, 413):
the sender is known before a byte of the body is read, and the bytes are counted as they come,
whatever the framing. The real gateway: tests/integration/test_bodies.py."""

from __future__ import annotations

from typing import Any

import pytest

from services.gateway.http.asgi import Answer, Guard, send_json

CHUNK = b"x" * 1000


class Client:
    """A client sending chunks without end (no length: `Transfer-Encoding: chunked`)."""

    def __init__(self) -> None:
        self.read = 0  # bytes the guard received
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        self.read += len(CHUNK)
        return {"type": "http.request", "body": CHUNK, "more_body": True}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"])


async def app(scope: Any, receive: Any, send: Any) -> None:
    raise AssertionError("the route is never reached")


def scope(path: str, token: str | None = None) -> dict[str, Any]:
    headers = [(b"transfer-encoding", b"chunked")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return {"type": "http", "method": "POST", "path": path, "headers": headers}


def admit(authorization: str | None, upload: bool) -> Answer | None:
    if authorization not in ("Bearer seat", "Bearer director"):
        return 401, {"error": "missing token"}, {}
    if upload and authorization != "Bearer director":
        return 403, {"error": "only the director may do this"}, {}
    return None


@pytest.mark.parametrize(("path", "token", "status", "read"), [
    ("/api/tables/t/players", None, 401, 0),
    ("/api/tables/t/events", None, 401, 0),
    ("/api/tournaments", "seat", 403, 0),
    ("/api/tables/t/players", "director", 413, 5000),  # counted as it came: 4,096 passed
    ("/api/tables/t/events", "seat", 413, 5000),
    ("/api/tournaments", "director", 413, 100_000),
])
async def test_a_body_is_read_only_from_a_known_sender_and_no_further_than_its_limit(
        path: str, token: str | None, status: int, read: int) -> None:
    async def events(table: str, authorization: str | None, body: bytes) -> Answer:
        raise AssertionError("the call path is never reached")

    client = Client()
    guard = Guard(app, max_body=4096, origins=set(), events=events, max_upload=99_500,
                  admit=admit)
    await guard(scope(path, token), client.receive, client.send)
    assert client.status == status
    assert client.read == read


async def test_a_body_within_its_limit_reaches_the_route_as_sent() -> None:
    chunks = [b'{"players": ', b'{"N": "Ann"}}']
    received: list[dict[str, Any]] = []

    async def route(scope: Any, receive: Any, send: Any) -> None:
        received.append(await receive())
        await send_json(send, 202, {})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": chunks.pop(0), "more_body": bool(chunks)}

    client = Client()
    guard = Guard(route, max_body=4096, origins=set(), admit=admit)
    await guard(scope("/api/tables/t/players", "director"), receive, client.send)
    assert client.status == 202
    assert received == [{"type": "http.request", "body": b'{"players": {"N": "Ann"}}',
                         "more_body": False}]
