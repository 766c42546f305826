"""A feed's frames written straight to each connection (`fanout.Message`, `Subscription.sink`,
`services/gateway/feeds/ws_frames.py`): the frame is the websockets library's own for the text; a
socket whose connection is ready is written at once, one that is not has its messages queued
and sent in order by its own sender; the queue stays bounded (a slow reader overflows, and is
closed with 1013 by its socket)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.frames import Frame, Opcode

from services.gateway.feeds.fanout import QUEUE, Message, Subscription, fan_out
from services.gateway.feeds.sockets import _pump
from services.gateway.feeds.ws_frames import ConnectionSink, protocol_class
from tests.helpers import run, wait_for_async


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_messages_frame_is_the_websocket_librarys(size: int) -> None:
    text = ("é" * size)[:size] if size % 2 else "x" * size  # multi-byte UTF-8 too
    expected = Frame(Opcode.TEXT, text.encode()).serialize(mask=False)
    message = Message(text)
    assert message.frame == expected
    assert message.frame is message.frame  # encoded once


class FakeSink:
    def __init__(self) -> None:
        self.open = True
        self.writable = asyncio.Event()
        self.writable.set()
        self.written: list[bytes] = []

    def ready(self) -> bool:
        return self.open and self.writable.is_set()

    def write(self, frame: bytes) -> None:
        self.written.append(frame)

    async def send(self, frame: bytes) -> None:
        await self.writable.wait()
        if not self.open:
            raise ConnectionResetError("closed")
        self.written.append(frame)


def _sub(sink: FakeSink | None) -> Subscription:
    sub = Subscription("k", "v", lambda entry, fields: f"{entry}:{fields[b'n'].decode()}")
    sub.sink = sink
    return sub


def test_a_ready_connection_is_written_at_once_and_its_resume_id_kept() -> None:
    async def scenario() -> None:
        sink = FakeSink()
        sub = _sub(sink)
        fan_out([sub], "1-0", (1, 0), {b"n": b"a"})
        assert sink.written == [Message("1-0:a").frame]
        assert sub.queue.empty() and sub.sent_id == "1-0"

    run(scenario())


def test_the_views_share_one_frame_and_each_socket_gets_its_views() -> None:
    async def scenario() -> None:
        sinks = [FakeSink() for _ in range(4)]
        subs = [_sub(s) for s in sinks]
        subs[1].view = subs[3].view = "other"
        subs[1].render = subs[3].render = lambda entry, fields: "other"
        fan_out(subs, "1-0", (1, 0), {b"n": b"a"})
        assert [s.written for s in sinks] == [[Message(t).frame] for t in
                                              ("1-0:a", "other", "1-0:a", "other")]
        assert sinks[0].written[0] is sinks[2].written[0]  # the same bytes, encoded once

    run(scenario())


def test_a_connection_not_ready_queues_and_its_sender_keeps_the_order() -> None:
    async def scenario() -> None:
        sink = FakeSink()
        sub = _sub(sink)
        sink.writable.clear()  # the send buffer over its mark: a slow reader
        for n in range(3):
            sub.offer(f"{n}-0", f"m{n}")
        sink.writable.set()
        sub.offer("3-0", "m3")  # ready again, but three wait before it: queued
        assert sink.written == [] and sub.queue.qsize() == 4
        pump = asyncio.create_task(_pump(Any, sub))  # type: ignore[arg-type]
        await wait_for_async(lambda: sub.queue.empty() and not sub.sending, 5,
                             "the sender has sent what waited")
        sub.offer("4-0", "m4")  # nothing waits: at once
        assert sink.written == [Message(f"m{n}").frame for n in range(5)]
        assert sub.sent_id == "4-0"
        pump.cancel()

    run(scenario())


def overflowed(sink: FakeSink) -> Subscription:
    """A subscription offered one message more than its queue holds while its sink is full."""
    sub = _sub(sink)
    sink.writable.clear()
    for n in range(QUEUE + 1):
        sub.offer(f"{n}-0", "m")
    return sub


def test_a_reader_too_slow_overflows_its_bounded_queue() -> None:
    async def scenario() -> None:
        sink = FakeSink()
        sub = overflowed(sink)
        assert sub.overflowed.is_set() and sub.queue.qsize() == QUEUE and sink.written == []

    run(scenario())


def test_a_closed_connection_ends_the_sender() -> None:
    async def scenario() -> None:
        sink = FakeSink()
        sub = _sub(sink)
        sink.open = False
        sub.offer("1-0", "m")
        assert sub.queue.qsize() == 1  # not ready: queued
        await asyncio.wait_for(_pump(Any, sub), 5)  # type: ignore[arg-type]
        assert sink.written == [] and sub.sent_id is None

    run(scenario())


class BrokenSink(FakeSink):
    def write(self, frame: bytes) -> None:
        raise ConnectionResetError("reset by peer")


def test_a_write_that_fails_leaves_the_message_to_the_sender_and_the_others_get_theirs() -> None:
    async def scenario() -> None:
        broken, fine = BrokenSink(), FakeSink()
        subs = [_sub(broken), _sub(fine)]
        fan_out(subs, "1-0", (1, 0), {b"n": b"a"})
        assert fine.written == [Message("1-0:a").frame] and subs[1].sent_id == "1-0"
        assert subs[0].queue.qsize() == 1 and subs[0].sent_id is None

    run(scenario())


class FakeTransport:
    def __init__(self) -> None:
        self.closing = False
        self.written: list[bytes] = []

    def is_closing(self) -> bool:
        return self.closing

    def write(self, data: bytes) -> None:
        self.written.append(data)


class FakeProtocol:
    def __init__(self) -> None:
        self.handshake_complete = True
        self.close_sent = self.disconnected = False
        self.writable = asyncio.Event()
        self.writable.set()
        self.transport = FakeTransport()


@pytest.mark.parametrize("state", ["handshake", "close_sent", "disconnected", "closing",
                                   "paused"])
def test_the_sink_takes_frames_only_while_its_connection_is_open(state: str) -> None:
    async def scenario() -> None:
        protocol = FakeProtocol()
        sink = ConnectionSink(protocol)
        assert sink.ready()
        await sink.send(b"a")
        if state == "handshake":
            protocol.handshake_complete = False
        elif state == "closing":
            protocol.transport.closing = True
        elif state == "paused":
            protocol.writable.clear()
        else:
            setattr(protocol, state, True)
        assert not sink.ready()
        if state != "paused":
            with pytest.raises(ConnectionResetError):
                await sink.send(b"b")
        assert protocol.transport.written == [b"a"]

    run(scenario())


def test_uvicorn_has_the_protocol_the_sink_extends() -> None:
    """The installed uvicorn: its sans-I/O protocol is there, so the feeds' fast path is on
    (test_feeds's sockets then go through it, on the real gateway)."""
    cls = protocol_class()
    assert cls is not None and cls.__name__ == "FrameProtocol"


def test_the_sink_writes_with_the_transports_own_write() -> None:
    """The hot path (a table 10,000 sockets follow, docs/performance.md "The live feeds"): the
    hub's write is uvloop's, with no Python method between; the frame still reaches it."""
    protocol = FakeProtocol()
    sink = ConnectionSink(protocol)
    assert sink.write == protocol.transport.write
    sink.write(b"frame")
    assert protocol.transport.written == [b"frame"]


def _frame_protocol(ping_interval: float) -> Any:
    """uvicorn's protocol as the gateway serves it (`protocol_class`), on a fake transport,
    its handshake done and its sink made as `handle_connect` makes it."""
    import uvicorn
    from uvicorn.server import ServerState
    from websockets.protocol import State

    async def app(scope: Any, receive: Any, send: Any) -> None: ...

    cls = protocol_class()
    assert cls is not None
    config = uvicorn.Config(app=app, ws_ping_interval=ping_interval,
                            ws_ping_timeout=ping_interval, ws_per_message_deflate=False)
    protocol: Any = cls(config, ServerState(), {})
    protocol.transport = FakeTransport()
    protocol.handshake_complete = True
    protocol.conn.state = State.OPEN
    protocol.sink = ConnectionSink(protocol)
    return protocol


def _pings(protocol: Any) -> int:
    return sum(1 for data in protocol.transport.written if data[:1] == b"\x89")


def test_a_socket_whose_feed_moves_is_not_pinged_and_one_whose_feed_stands_is() -> None:
    """The keep-alive ping (uvicorn's, each 20 s, its pong parsed in Python) only to a socket
    its feed has not moved since the last was due: a hot table's 5,000 sockets cost the
    gateway 5 % of a core at rest in pings (docs/performance.md "The live feeds")."""
    async def scenario() -> None:
        protocol = _frame_protocol(0.05)
        sent_id: list[str | None] = [None]
        protocol.sink.progress = lambda: sent_id[0]
        protocol.send_keepalive_ping()  # nothing sent yet: pinged as uvicorn does
        assert _pings(protocol) == 1
        protocol.handle_pong(Frame(Opcode.PONG, protocol.pending_ping_payload))
        for n in range(3):  # the feed moves before each ping is due: none sent, the next due
            sent_id[0] = f"{n}-0"
            protocol.ping_timer.cancel()
            protocol.send_keepalive_ping()
            assert _pings(protocol) == 1 and protocol.ping_timer is not None
        protocol.ping_timer.cancel()
        protocol.send_keepalive_ping()  # the feed stood still since the last look: pinged
        assert _pings(protocol) == 2 and protocol.pending_ping_payload is not None
        protocol.stop_keepalive()

    run(scenario())


def test_a_socket_without_a_feed_is_pinged_as_uvicorn_does() -> None:
    async def scenario() -> None:
        protocol = _frame_protocol(0.05)
        protocol.send_keepalive_ping()
        assert _pings(protocol) == 1 and protocol.pending_ping_payload is not None
        protocol.stop_keepalive()

    run(scenario())


class Tripwire:
    """An object the hot path must not read."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the hot path read .{name}")


def test_the_hot_path_reads_neither_the_queue_nor_the_overflow_of_a_ready_socket() -> None:
    """A table 10,000 follow: each object read a socket is a cache miss between two sends
    (docs/performance.md "The live feeds"); a socket with nothing held back and its connection
    ready is written from the subscription's own count, its queue and overflow event unread."""
    async def scenario() -> None:
        sink = FakeSink()
        sub = _sub(sink)
        assert not hasattr(sub, "__dict__")  # its fields in its slots: one object read
        sub.queue, sub.overflowed = Tripwire(), Tripwire()  # type: ignore[assignment]
        fan_out([sub], "1-0", (1, 0), {b"n": b"a"})
        sub.offer("2-0", "m")
        assert sink.written == [Message("1-0:a").frame, Message("m").frame]
        assert sub.sent_id == "2-0" and sub.held == 0

    run(scenario())


def test_an_overflowed_socket_is_never_written_at_once_again() -> None:
    async def scenario() -> None:
        sink = FakeSink()
        sub = overflowed(sink)
        sink.writable.set()
        pump = asyncio.create_task(_pump(Any, sub))  # type: ignore[arg-type]
        await wait_for_async(lambda: sub.queue.empty() and not sub.sending, 5,
                             "the sender has sent what waited")
        sub.offer("late-0", "late")  # its queue drained, but it overflowed: not written
        assert len(sink.written) == QUEUE and Message("late").frame not in sink.written
        pump.cancel()

    run(scenario())
