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
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("tableserver.ws_frames")

SINK = "tableserver.frame_sink"  # the scope's extension: the connection's ConnectionSink


class ConnectionSink:
    """`fanout.FrameSink` on one uvicorn WebSocket connection. `write` is the transport's own
    (no Python between the hub and uvloop); `ready` reads the protocol's state, the transport
    kept at hand."""

    __slots__ = ("_protocol", "_transport", "write")

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol
        self._transport = protocol.transport
        self.write: Callable[[bytes], None] = protocol.transport.write

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

    class FrameProtocol(WebSocketsSansIOProtocol):
        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)  # the scope made; the app not yet running
            scope = getattr(self, "scope", None)
            if scope is not None and all(hasattr(self, name) for name in names):
                scope["extensions"][SINK] = ConnectionSink(self)

    return FrameProtocol
