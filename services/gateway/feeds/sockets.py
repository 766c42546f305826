"""A feed socket's life: follow a stream through the hub, send what it offers, listen to the
client, and close with a code that says why.

Close codes: 1003 a binary frame (the feeds speak JSON text), 1008 a message the feed does not
know, a bad `since`, 1009 a message over the limit, 1011 Redis or Kafka unreachable (retry), 1013 a
socket too slow for its updates (reconnect with `since` = the last id it read).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from services.common.errors import LogUnavailable, StoreUnavailable
from services.gateway.feeds.fanout import BadSince, Feeds, Render, Subscription
from services.gateway.feeds.ws_frames import SINK, ConnectionSink

MAX_MESSAGE = 4096
PONG = '{"type":"pong"}'
# (the message as sent, as parsed) → the reply to send, or None for a message not taken
Answer = Callable[[str, dict[str, Any]], Awaitable[str | None]]


async def serve_feed(websocket: WebSocket, hub: Feeds, key: str, view: Hashable,
                     render: Render, default_since: str | None = None,
                     answer: Answer | None = None) -> None:
    """Accept `websocket` and push it each entry of stream `key` as `render` makes it, from
    the query's `since` (see `FeedHub.subscribe`), until either side goes. What the client
    sends, other than a ping, goes to `answer`, whose reply is sent back in turn with the
    updates (None: a message the socket does not take)."""
    if websocket.client_state is WebSocketState.CONNECTING:  # else accepted for its token
        await websocket.accept()
    try:
        sub = await hub.subscribe(key, websocket.query_params.get("since", default_since),
                                  view, render)
    except (StoreUnavailable, LogUnavailable):  # the adapters' own: Redis's, Kafka's
        await close_quietly(websocket, 1011, "the feed is unavailable; retry")
        return
    except BadSince as exc:
        await close_quietly(websocket, 1008, str(exc))
        return
    sink = websocket.scope.get("extensions", {}).get(SINK)  # None: through Starlette
    if isinstance(sink, ConnectionSink):
        sink.progress = lambda: sub.sent_id  # a feed that moves needs no keep-alive ping
    sub.sink = sink
    tasks = {asyncio.create_task(_pump(websocket, sub)),
             asyncio.create_task(_listen(websocket, sub, answer)),
             asyncio.create_task(sub.overflowed.wait())}
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        hub.unsubscribe(sub)
        for task in tasks:
            task.cancel()
    if sub.overflowed.is_set():
        resume = f"; resume with since={sub.sent_id}" if sub.sent_id else ""
        await close_quietly(websocket, 1013, "too slow for this feed" + resume)
        return
    for task in done:
        reason = task.result() if not task.cancelled() and task.exception() is None else None
        if isinstance(reason, tuple):
            await close_quietly(websocket, *reason)


async def _pump(websocket: WebSocket, sub: Subscription) -> None:
    """Send what waits in the socket's queue, in order: its frame to the connection's sink,
    or its text through Starlette."""
    sink = sub.sink
    try:
        while True:
            entry_id, message = await sub.queue.get()
            sub.sending = True
            if sink is not None:
                await sink.send(message.frame)
            else:
                await websocket.send_text(message.text)
            sub.sending = False
            sub.written()
            if entry_id is not None:
                sub.sent_id = entry_id
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


async def _listen(websocket: WebSocket, sub: Subscription, answer: Answer | None
                  ) -> tuple[int, str] | None:
    """Read what the client sends until it goes; a close code and reason for what the socket
    does not take. `{"type":"ping"}` is answered `{"type":"pong"}`; other messages go to
    `answer`, one at a time, in the order sent."""
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError, OSError):
            return None
        if message["type"] == "websocket.disconnect":
            return None
        if message.get("bytes") is not None:
            return 1003, "binary frames are not accepted: send JSON text"
        text = message.get("text") or ""
        if len(text) > MAX_MESSAGE:
            return 1009, f"message over {MAX_MESSAGE} bytes"
        try:
            body = json.loads(text)
            kind = body.get("type")
        except (ValueError, AttributeError, RecursionError):
            return 1008, "not a JSON object"
        reply = PONG if kind == "ping" else \
            await answer(text, body) if answer is not None else None
        if reply is None:
            return 1008, f"unknown message type {kind!r}"
        sub.offer(None, reply)  # a socket whose queue is full is too slow: it is closed


async def close_quietly(websocket: WebSocket, code: int, reason: str = "") -> None:
    """Close the socket with `code`, unless the client has gone already (then there is no one
    to tell, and nothing to log: a client may leave at any time)."""
    if websocket.client_state is WebSocketState.DISCONNECTED:
        return
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.close(code=code, reason=reason[:120])
