"""The gateway's plain ASGI layer, in front of FastAPI (outside it: uvicorn calls `Guard`).

- `Guard` refuses, before any route runs, a body announced larger than its limit (413), a
  browser request from an origin not allowed (403), and a body from a request whose token does
  not verify (401; an upload's larger limit is the director's alone, 403): a body is read only
  once its sender is known. It then reads the body itself, whatever its framing (a length, or
  chunks that announce none), counting the bytes as they come: past the limit it answers 413
  at once, and the rest is never kept (uvicorn drops what the client still sends). The routes
  get the body as it was read, held in full only when within the limit.
- It also serves the call path, `POST /api/tables/{table}/events`, itself: under load, half of
  the gateway's CPU went to the framework's routing, dependency and middleware layers around
  that one route (py-spy). `events` reads the body as the FastAPI route does (which stays for
  OpenAPI) and gives it to the same command (`services.gateway.http.doors`); a test holds that both
  answer alike.

Plain ASGI: Starlette's BaseHTTPMiddleware would cost every request a task and a stream copy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.gateway.http.errors import Answer, answer_of
from services.gateway.refusals import too_large

EVENTS_PATH = re.compile(r"/api/tables/([^/]+)/events")
# a deals file (a creation, entries opened), a movement, a results file imported
UPLOAD_PATH = re.compile(r"/api/tournaments(?:/[^/]+/(?:rounds|entries/open|results/import))?")
DISCARD_LIMIT = 8 * 2**20  # bytes of an oversized body read and dropped before the 413
# (table, Authorization header, body) → the answer
EventHandler = Callable[[str, str | None, bytes], Awaitable[Answer]]
# (Authorization header, whether the body is an upload) → a refusal, or None: read the body
BodyAdmission = Callable[[str | None, bool], Answer | None]


async def send_json(send: Send, status: int, payload: dict[str, Any],
                    headers: dict[str, str] | None = None) -> None:
    data = json.dumps(payload).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode()),
                            *((k.lower().encode(), v.encode())
                              for k, v in (headers or {}).items())]})
    await send({"type": "http.response.body", "body": data})


def origin_allowed(origin: str, host: str, allowed: set[str]) -> bool:
    """A browser's `Origin` (none: not a browser request) is allowed when no list is set, when
    the list has it, or when it is the gateway's own (its host is the request's `Host`): the
    gateway's own pages (`/seat`) call back to where they came from."""
    if not origin or not allowed or origin in allowed:
        return True
    return bool(host) and origin.partition("://")[2] == host


def replaying(body: bytes, receive: Receive) -> Receive:
    """`receive` for the app behind the guard: the body already read, then the client's own
    messages (its disconnection)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again


class Guard:
    def __init__(self, app: ASGIApp, max_body: int, origins: set[str],
                 events: EventHandler | None = None, max_upload: int | None = None,
                 admit: BodyAdmission | None = None) -> None:
        self.app, self.max_body, self.origins, self.events = app, max_body, origins, events
        self.max_upload = max_body if max_upload is None else max_upload
        self.admit = admit  # None: any sender's body is read (tests of the limits alone)

    async def too_large(self, receive: Receive, send: Send, unread: int,
                        limit: int | None = None) -> None:
        """413. A client that writes its whole body before it reads would find the connection
        closed under it (a broken pipe, not the answer): when what is left `unread` is up to
        `DISCARD_LIMIT` bytes, it is read and dropped first; past that the connection is
        closed after the 413."""
        if 0 < unread <= DISCARD_LIMIT:
            read, more = 0, True
            while more and read <= DISCARD_LIMIT:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went
                read += len(message.get("body", b""))
                more = message.get("more_body", False)
        await send_json(send, *answer_of(too_large(limit or self.max_body)))

    async def read_body(self, receive: Receive, send: Send, limit: int) -> bytes | None:
        """The body, counted as it comes; None once answered 413 (as soon as it passes
        `limit`, without reading the rest) or when the client went."""
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return None  # the client went
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:  # sent without a length, or a false one
                await self.too_large(receive, send, 0, limit)
                return None
            chunks.append(chunk)
            more = message.get("more_body", False)
        return b"".join(chunks)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        length = headers.get(b"content-length", b"")
        origin = headers.get(b"origin", b"").decode()
        upload = scope["method"] == "POST" and UPLOAD_PATH.fullmatch(scope["path"]) is not None
        limit = self.max_upload if upload else self.max_body
        if length.isdigit() and int(length) > limit:
            await self.too_large(receive, send, int(length), limit)
            return
        if not origin_allowed(origin, headers.get(b"host", b"").decode(), self.origins):
            await send_json(send, 403, {"error": f"origin {origin} not allowed"})
            return
        match = EVENTS_PATH.fullmatch(scope["path"])
        events = match is not None and scope["method"] == "POST" and self.events is not None
        has_body = (length.isdigit() and int(length) > 0) or b"transfer-encoding" in headers
        if not (events or has_body):
            await self.app(scope, receive, send)
            return
        authorization = headers.get(b"authorization")
        given = authorization.decode("latin-1") if authorization else None
        refused = self.admit(given, upload) if self.admit is not None else None
        if refused is not None:  # answered before a byte of the body is read
            await send_json(send, *refused)
            return
        body = await self.read_body(receive, send, limit)
        if body is None:
            return
        if not events or match is None or self.events is None:
            await self.app(scope, replaying(body, receive), send)
            return
        status, payload, extra = await self.events(match.group(1), given, body)
        await send_json(send, status, payload, extra)
