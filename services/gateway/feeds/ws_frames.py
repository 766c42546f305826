"""A feed socket's frames written straight to its connection.

Sent through Starlette's `WebSocket` and uvicorn's protocol, each message to each socket
cost about 47 µs of the gateway's CPU (ASGI messages, the websockets library's framing), so an
update of a table 10,000 sockets follow took half a second of CPU (docs/performance.md, "The
live feeds"). A server's frames are not masked: a message's frame is the same bytes for every
socket (`fanout.Message`), so the hub writes it to each connection's transport itself.

`FrameProtocol` is uvicorn's own WebSocket protocol (websockets' sans-I/O implementation)
that puts a `ConnectionSink` for its connection in the ASGI scope's extensions (`SINK`); the
feed sockets use it when it is there (`sockets.serve_feed`), and go through Starlette
otherwise (another server, a test client). uvicorn's protocol classes are not its public API:
`protocol_class()` gives None (uvicorn then picks its own) when the module or the attributes
the sink reads are not there.

Keep-alive pings go only to a socket its feed has not moved since the last one was due
(`ConnectionSink.fed`): uvicorn pings each connection every 20 s and parses its pong in
Python, about 10 µs a socket a second, half the CPU of a hot table's 5,000 sockets between two
updates (docs/performance.md, "The live feeds"). A socket whose feed moves has traffic that
keeps proxies' idle timers open, and a peer that is gone stops acknowledging it: its send
buffer fills, its queue overflows and the socket is closed with 1013 (`fanout`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Generator, Hashable
from typing import Any

log = logging.getLogger("tableserver.ws_frames")

SINK = "tableserver.frame_sink"  # the scope's extension: the connection's ConnectionSink


class ConnectionSink:
    """`fanout.FrameSink` on one uvicorn WebSocket connection. `write` is the transport's own
    (no Python between the hub and uvloop); `ready` reads the protocol's state, the transport
    kept at hand."""

    __slots__ = ("_protocol", "_seen", "_stopped", "_transport", "progress", "write")

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol
        self._transport = protocol.transport
        self.write: Callable[[bytes], None] = protocol.transport.write
        # where the socket's feed stands (its last entry sent), set by the feed that follows
        # it; None: a socket with no feed, pinged as uvicorn does
        self.progress: Callable[[], Hashable] | None = None
        self._seen: Hashable = None
        self._stopped: Callable[[], None] | None = None

    def watch(self, stopped: Callable[[], None]) -> bool:
        """`stopped` to be called when the connection stops taking frames at once (`stop`):
        its send buffer over the mark, a close sent or begun, the connection lost. Only
        `FrameProtocol` says so: a sink on another protocol is not watched (False)."""
        if not isinstance(self._protocol, Watched):
            return False
        self._stopped = stopped
        return True

    def stop(self) -> None:
        """The connection no longer takes frames at once: its watcher told."""
        stopped = self._stopped
        if stopped is not None:
            stopped()

    def let_go(self) -> None:
        """The connection is lost: its watcher and its feed's progress let go (each holds the
        feed's subscription, which holds this sink: a cycle that only a full collection
        would free)."""
        self._stopped = None
        self.progress = None

    def fed(self) -> bool:
        """Whether the socket's feed moved since this was last asked (the keep-alive's look:
        a moving feed needs no ping)."""
        if self.progress is None:
            return False
        now = self.progress()
        moved = now is not None and now != self._seen
        self._seen = now
        return moved

    def ready(self) -> bool:
        p = self._protocol
        return p.writable.is_set() and p.handshake_complete and not (
            p.close_sent or p.disconnected or self._transport.is_closing())

    async def send(self, frame: bytes) -> None:
        p = self._protocol
        await p.writable.wait()  # the transport's send buffer under its mark
        if not p.handshake_complete or p.close_sent or p.disconnected \
                or self._transport.is_closing():
            raise ConnectionResetError("the socket is closed")
        self._transport.write(frame)


class Watched:
    """A protocol that calls its sink's `stop` whenever the connection stops taking frames at
    once (`FrameProtocol`)."""


def protocol_class() -> type[asyncio.Protocol] | None:
    """uvicorn's WebSocket protocol with the sink in the scope, or None where this uvicorn
    has not the protocol it extends."""
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
    except ImportError:
        log.warning("uvicorn without its sans-I/O WebSocket protocol: feeds sent through "
                    "Starlette")
        return None
    names = ("handshake_complete", "close_sent", "disconnected", "writable", "transport")

    class FrameProtocol(WebSocketsSansIOProtocol, Watched):
        """Its sink told (`ConnectionSink.stop`) at each turn after which it must not be
        written at once: the send buffer over its mark, a close frame sent (`close_sent`
        set), the peer's close answered, the server's shutdown, the connection lost."""

        sink: ConnectionSink | None = None
        _closing_sent = False

        @property
        def close_sent(self) -> bool:
            return self._closing_sent

        @close_sent.setter
        def close_sent(self, value: bool) -> None:
            self._closing_sent = value
            if value and self.sink is not None:
                self.sink.stop()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self.sink is not None:
                self.sink.stop()

        def connection_lost(self, exc: Exception | None) -> None:
            sink = self.sink
            if sink is not None:
                sink.stop()
            super().connection_lost(exc)
            self._let_go(sink)

        def _let_go(self, sink: ConnectionSink | None) -> None:
            """The reference cycles through the lost connection broken, so that its memory
            is freed by its counts once its handler ends: the sink and the protocol (and the
            scope) no longer hold each other, and websockets' parser (a generator that holds
            its protocol) is closed. Kept, each closed socket's objects waited for a sweep
            of the whole heap (`services.common.gc_settle`)."""
            self.sink = None
            scope = getattr(self, "scope", None)
            if scope is not None:
                scope.get("extensions", {}).pop(SINK, None)
            if sink is not None:
                sink.let_go()
            parser = getattr(getattr(self, "conn", None), "parser", None)
            if isinstance(parser, Generator):
                parser.close()

        def handle_close(self, event: Any) -> None:
            if self.sink is not None:
                self.sink.stop()
            super().handle_close(event)

        def shutdown(self) -> None:
            if self.sink is not None:
                self.sink.stop()
            super().shutdown()

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)  # the scope made; the app not yet running
            scope = getattr(self, "scope", None)
            if scope is not None and all(hasattr(self, name) for name in names):
                self.sink = scope["extensions"][SINK] = ConnectionSink(self)

        def send_keepalive_ping(self) -> None:
            """uvicorn's ping, unless the socket's feed moved since the last one was due:
            then none, and the next due after the interval."""
            if self.sink is not None and self.sink.fed() and hasattr(self, "schedule_ping"):
                self.ping_timer = None
                if not (self.close_sent or self.transport.is_closing()):
                    self.schedule_ping()
                return
            super().send_keepalive_ping()

    return FrameProtocol
