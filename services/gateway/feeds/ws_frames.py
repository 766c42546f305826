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
from typing import Any

log = logging.getLogger("tableserver.ws_frames")

SINK = "tableserver.frame_sink"  # the scope's extension: the connection's ConnectionSink


class ConnectionSink:
    """`fanout.FrameSink` on one uvicorn WebSocket connection."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol

    def _open(self) -> bool:
        p = self._protocol
        return p.handshake_complete and not (p.close_sent or p.disconnected
                                             or p.transport.is_closing())

    def ready(self) -> bool:
        return self._protocol.writable.is_set() and self._open()

    def write(self, frame: bytes) -> None:
        self._protocol.transport.write(frame)

    async def send(self, frame: bytes) -> None:
        await self._protocol.writable.wait()  # the transport's send buffer under its mark
        if not self._open():
            raise ConnectionResetError("the socket is closed")
        self._protocol.transport.write(frame)


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
