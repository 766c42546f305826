"""A feed's frames written straight to each connection (`fanout.Message`, `Subscription.sink`,
`services/gateway/feeds/ws_frames.py`): the frame is the websockets library's own for the text; a
socket whose connection is ready is written at once, one that is not has its messages queued
and sent in order by its own sender; the queue stays bounded (a slow reader overflows, and is
closed with 1013 by its socket)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from websockets.frames import Close, Frame, Opcode

from services.gateway.feeds.fanout import QUEUE, Audience, Message, Subscription, fan_out
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
        self.stopped: Callable[[], None] | None = None

    def ready(self) -> bool:
        return self.open and self.writable.is_set()

    def watch(self, stopped: Callable[[], None]) -> bool:
        self.stopped = stopped
        return True

    def pause(self) -> None:
        """The send buffer over its mark, the watcher told (as `FrameProtocol` tells)."""
        self.writable.clear()
        if self.stopped is not None:
            self.stopped()

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
        fan_out(Audience([sub]), "1-0", (1, 0), {b"n": b"a"})
        assert sink.written == [Message("1-0:a").frame]
        assert sub.queue.empty() and sub.sent_id == "1-0"

    run(scenario())


def test_the_views_share_one_frame_and_each_socket_gets_its_views() -> None:
    async def scenario() -> None:
        sinks = [FakeSink() for _ in range(4)]
        subs = [_sub(s) for s in sinks]
        subs[1].view = subs[3].view = "other"
        subs[1].render = subs[3].render = lambda entry, fields: "other"
        fan_out(Audience(subs), "1-0", (1, 0), {b"n": b"a"})
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
        fan_out(Audience(subs), "1-0", (1, 0), {b"n": b"a"})
        assert fine.written == [Message("1-0:a").frame] and subs[1].sent_id == "1-0"
        assert subs[0].queue.qsize() == 1 and subs[0].sent_id is None

    run(scenario())


class FakeTransport:
    def __init__(self) -> None:
        self.closing = False
        self.written: list[bytes] = []

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

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
        fan_out(Audience([sub]), "1-0", (1, 0), {b"n": b"a"})
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


def _entry(audience: Audience, n: int) -> None:
    fan_out(audience, f"{n}-0", (n, 0), {b"n": str(n).encode()})


def _frames(*ns: int) -> list[bytes]:
    return [Message(f"{n}-0:{n}").frame for n in ns]


class Unready(FakeSink):
    """A sink the hot path must not ask: in a group, a socket is written with no look."""

    def ready(self) -> bool:
        raise AssertionError("the group's loop asked the sink whether it is ready")


def test_a_socket_written_at_once_joins_its_views_group_and_is_written_with_no_look() -> None:
    """The hot table (docs/performance.md "The live feeds"): once a socket has had an entry
    written at once, nothing held and its sink watched, the next entries reach it from its
    view's group, in one loop: its sink not asked, its queue and overflow unread; where it
    stands the group's last entry."""
    async def scenario() -> None:
        sinks = [FakeSink() for _ in range(3)]
        subs = [_sub(s) for s in sinks]
        audience = Audience(subs)
        _entry(audience, 1)  # one by one, then in the group
        assert all(s.group is not None for s in subs) and not audience.slow
        assert subs[0].group is subs[2].group and len(audience) == 3
        for sink, sub in zip(sinks, subs, strict=True):
            sink.ready = Unready.ready.__get__(sink)  # type: ignore[method-assign]
            sub.queue, sub.overflowed = Tripwire(), Tripwire()  # type: ignore[assignment]
        _entry(audience, 2)
        _entry(audience, 3)
        assert [s.written for s in sinks] == [_frames(1, 2, 3)] * 3
        assert sinks[0].written[1] is sinks[1].written[1]  # one frame for the group
        assert [s.sent_id for s in subs] == ["3-0"] * 3

    run(scenario())


def test_a_sink_that_stops_leaves_its_group_and_gets_the_rest_in_order() -> None:
    """A slow reader: its sink over the mark tells its watcher, the socket leaves the group
    (the others still written at once), its messages queue and its sender sends them in
    order; drained and ready, it is written at once and joins the group again."""
    async def scenario() -> None:
        slow, fast = FakeSink(), FakeSink()
        subs = [_sub(slow), _sub(fast)]
        audience = Audience(subs)
        _entry(audience, 1)
        slow.pause()
        assert subs[0].group is None and subs[0].sent_id == "1-0"
        _entry(audience, 2)
        _entry(audience, 3)
        assert slow.written == _frames(1) and subs[0].queue.qsize() == 2
        assert fast.written == _frames(1, 2, 3) and subs[1].group is not None
        slow.writable.set()
        pump = asyncio.create_task(_pump(Any, subs[0]))  # type: ignore[arg-type]
        await wait_for_async(lambda: subs[0].held == 0, 5, "the sender has sent what waited")
        assert subs[0].sent_id == "3-0" and subs[0].group is None
        _entry(audience, 4)  # at once, then back in the group
        _entry(audience, 5)
        assert slow.written == fast.written == _frames(1, 2, 3, 4, 5)
        assert subs[0].group is subs[1].group and subs[0].sent_id == "5-0"
        pump.cancel()

    run(scenario())


class Turning(FakeSink):
    """A sink whose write, once `turn` is set, takes the frame and goes over the mark
    (uvloop's `pause_writing`, inside `transport.write`) or fails (`broken`)."""

    def __init__(self) -> None:
        super().__init__()
        self.turn: str | None = None

    def write(self, frame: bytes) -> None:
        if self.turn == "broken":
            raise ConnectionResetError("reset by peer")
        super().write(frame)
        if self.turn == "paused":
            self.pause()


def test_a_sink_stopped_inside_the_groups_loop_keeps_what_it_was_written() -> None:
    async def scenario() -> None:
        turning = Turning()
        sinks = [FakeSink(), turning, FakeSink()]
        subs = [_sub(s) for s in sinks]
        audience = Audience(subs)
        _entry(audience, 1)
        assert subs[1].group is not None
        turning.turn = "paused"
        _entry(audience, 2)
        assert [s.written for s in sinks] == [_frames(1, 2)] * 3
        assert subs[1].group is None and subs[1].sent_id == "2-0" and subs[1] in audience.slow
        _entry(audience, 3)  # the paused socket's third queued; the others' written
        assert sinks[1].written == _frames(1, 2) and subs[1].queue.qsize() == 1
        assert sinks[0].written == sinks[2].written == _frames(1, 2, 3)

    run(scenario())


def test_a_write_that_fails_in_the_group_queues_the_message_for_the_sender() -> None:
    async def scenario() -> None:
        broken, fine = Turning(), FakeSink()
        subs = [_sub(broken), _sub(fine)]
        audience = Audience(subs)
        _entry(audience, 1)
        broken.turn = "broken"
        _entry(audience, 2)
        assert fine.written == _frames(1, 2) and subs[1].sent_id == "2-0"
        assert subs[0].group is None and subs[0].queue.qsize() == 1
        assert subs[0].sent_id == "1-0"  # the failed one not counted as sent

    run(scenario())


def test_a_socket_that_goes_leaves_its_audience() -> None:
    async def scenario() -> None:
        sinks = [FakeSink(), FakeSink()]
        subs = [_sub(s) for s in sinks]
        audience = Audience(subs)
        _entry(audience, 1)
        audience.discard(subs[0])
        assert list(audience) == [subs[1]] and subs[0].group is None
        assert subs[0].audience is None and subs[0].sent_id == "1-0"
        sinks[0].pause()  # told after it went: nothing to leave, not back in the audience
        _entry(audience, 2)
        assert sinks[0].written == _frames(1) and sinks[1].written == _frames(1, 2)
        audience.discard(subs[1])
        assert not audience and len(audience) == 0

    run(scenario())


def test_a_sink_nobody_watches_is_offered_each_message_with_a_look() -> None:
    """A sink on a protocol that does not tell when it stops (not `FrameProtocol`) never
    joins a group: each message asks it whether it is ready."""
    async def scenario() -> None:
        protocol = FakeProtocol()
        sub = _sub(None)
        sub.sink = ConnectionSink(protocol)
        audience = Audience([sub])
        _entry(audience, 1)
        protocol.writable.clear()
        _entry(audience, 2)
        assert sub.group is None and protocol.transport.written == _frames(1)
        assert sub.queue.qsize() == 1

    run(scenario())


def _grouped_frame_protocol() -> tuple[Any, Subscription, Audience]:
    """A `FrameProtocol` whose socket follows a feed and was written once at once: in its
    views' group."""
    protocol = _frame_protocol(20)
    sub = _sub(None)
    sub.sink = protocol.sink
    audience = Audience([sub])
    _entry(audience, 1)
    return protocol, sub, audience


@pytest.mark.parametrize("turn", ["pause_writing", "close_sent", "handle_close",
                                  "connection_lost", "shutdown"])
def test_the_frame_protocol_tells_its_sink_when_it_stops_taking_frames(turn: str) -> None:
    """Each turn after which uvicorn's protocol must not be written at once (the send buffer
    over its mark, a close frame sent, the peer's close answered, the server's shutdown, the
    connection lost): the socket leaves its group before the next entry."""
    async def scenario() -> None:
        protocol, sub, audience = _grouped_frame_protocol()
        assert sub.group is not None
        if turn == "close_sent":
            protocol.close_sent = True
        elif turn == "handle_close":
            protocol.conn.close_rcvd = Close(1000, "")  # as the parser leaves it
            protocol.handle_close(Frame(Opcode.CLOSE, Close(1000, "").serialize()))
        elif turn == "connection_lost":
            protocol.connections.add(protocol)  # as `connection_made` leaves it
            protocol.connection_lost(None)
        else:
            getattr(protocol, turn)()
        assert sub.group is None and sub in audience.slow
        before = len(protocol.transport.written)
        _entry(audience, 2)
        assert len(protocol.transport.written) == before  # not written: queued
        protocol.stop_keepalive()

    run(scenario())


def test_a_lost_connections_objects_are_freed_by_their_counts() -> None:
    """A closed socket's protocol, sink and websockets' parser hold one another in no cycle once
    the connection is lost (`FrameProtocol._let_go`): freed with the collector off, so that
    they wait for no sweep of the whole heap (services/common/gc_settle.py; a sweep found 74
    objects a closed socket in cycles before, docs/performance.md "The live feeds")."""
    async def scenario() -> None:
        protocol, sub, audience = _grouped_frame_protocol()
        protocol.connections.add(protocol)  # as `connection_made` leaves it
        gone = weakref.ref(protocol)
        parser = weakref.ref(protocol.conn)
        gc.disable()
        try:
            protocol.connection_lost(None)
            protocol.stop_keepalive()
            audience.discard(sub)
            del protocol, sub, audience
            assert gone() is None and parser() is None
        finally:
            gc.enable()

    run(scenario())
