"""Live feeds for thousands of sockets: one reader of Redis per gateway process, fanning each
update out to the sockets that follow it (the pattern of lichess's lila-ws).

A socket never holds a Redis connection. The hub's reader follows every stream a local socket
follows (a table's feed, the alerts stream) with one `XREAD BLOCK` on a connection of its own;
each new entry is rendered once per view (the director, spectators, each seat: what a reader
may see differs, see `views.py`) and offered to each socket's bounded queue. A socket that
does not keep up (its queue full) is told to go (`Subscription.overflowed`), and the caller
closes it with 1013: it never slows the others. Short commands (a socket's catch-up from the
id it resumes at) go through the gateway's ordinary, bounded pool.

A new stream joins the reader at once: the reader also follows a wake-up stream of its own,
which `subscribe` appends to when it adds a stream. On a Redis Cluster, where a command names
keys of one slot only, there is a reader a slot followed (`cluster_feeds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol, cast

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from services.common.backoff import Backoff
from services.common.errors import StoreUnavailable
from services.common.names import WAKE
from services.common.redis_connect import AnyRedis
from services.common.redis_faults import store_faults, translating
from services.gateway.feeds.cluster_feeds import ClusterReaders

log = logging.getLogger("tableserver.fanout")

STREAM_ID = re.compile(r"\d{1,19}(-\d{1,19})?")  # within Redis's 64-bit halves
Fields = dict[bytes, bytes]
Entries = list[tuple[bytes, Fields]]
Reply = list[tuple[bytes, Entries]]  # XREAD's: each stream with its new entries
Render = Callable[[str, Fields], str]  # (entry id, fields) → the text a socket is sent
CATCH_UP = 200  # entries a socket may resume over: fewer than its queue holds


def _stream_id(text: str) -> bool:
    return bool(STREAM_ID.fullmatch(text)) and all(int(p) < 2**64 for p in text.split("-"))


def _order(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


QUEUE = 256  # updates waiting for one socket before it counts as too slow
READ_COUNT = 100  # entries of a stream a read takes at most
# A read that brought entries is followed by the next no sooner than this after it began: a
# read of every followed stream costs the same for one new entry as for fifty (the night's
# 2,000 streams: the gateway packing and parsing, Redis looking at each key), and back to back
# the reads took what the machine had left at any rate of events (docs/performance.md).
READ_GAP_S = 0.025

_BULK_KEYS: dict[str, bytes] = {}  # a stream's name as a RESP bulk string, packed once


def _bulk_key(key: str) -> bytes:
    packed = _BULK_KEYS.get(key)
    if packed is None:
        if len(_BULK_KEYS) > 100_000:  # a bound, not an eviction policy: start again
            _BULK_KEYS.clear()
        data = key.encode()
        packed = _BULK_KEYS[key] = b"$%d\r\n%s\r\n" % (len(data), data)
    return packed


def xread_command(streams: Mapping[str, str], block_ms: int, count: int = READ_COUNT) -> bytes:
    """`XREAD BLOCK block_ms COUNT count STREAMS key… id…` as RESP, each stream's name packed
    once (`_bulk_key`) and the ids in one encoding. The hub reads every stream its sockets
    follow at each read: redis-py packed a read of 2,000 streams argument by argument, 8–16 ms
    of the event loop at every read (docs/performance.md, the night), where this takes a few
    hundred µs."""
    head = [b"XREAD", b"BLOCK", str(block_ms).encode(), b"COUNT", str(count).encode(),
            b"STREAMS"]
    ids = "".join(f"${len(i)}\r\n{i}\r\n" for i in streams.values())  # ids are ASCII
    return b"".join([b"*%d\r\n" % (len(head) + 2 * len(streams)),
                     *(b"$%d\r\n%s\r\n" % (len(word), word) for word in head),
                     *map(_bulk_key, streams), ids.encode()])


async def xread_packed(client: Redis, command: bytes) -> Reply:
    """The reply to an `XREAD` packed already (`xread_command`), parsed as redis-py parses
    its own, on a connection of `client`'s pool (dropped when the read fails or is
    cancelled: its reply would come to the next command)."""
    pool = client.connection_pool
    connection = await pool.get_connection()  # type: ignore[no-untyped-call]
    try:
        await connection.send_packed_command(command)
        return cast(Reply, await client.parse_response(connection, "XREAD") or [])
    except BaseException:
        await connection.disconnect()
        raise
    finally:
        await pool.release(connection)


class BadSince(ValueError):
    """A `since` the feed cannot resume from; the message says why."""


class Message:
    """A text for sockets, and its WebSocket frame (RFC 6455 §5.2: FIN, text, the length, the
    payload; a server's frames are not masked), made when first asked and then the same bytes
    for every socket the message goes to."""

    __slots__ = ("_frame", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._frame: bytes | None = None

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            payload = self.text.encode()
            n = len(payload)
            header = bytes((0x81, n)) if n < 126 else \
                b"\x81\x7e" + n.to_bytes(2, "big") if n < 65536 else \
                b"\x81\x7f" + n.to_bytes(8, "big")
            self._frame = header + payload
        return self._frame


class FrameSink(Protocol):
    """A socket's connection, written to without the framework's layers: `ready` when it
    takes a frame at once (open, its send buffer under the mark), `write` then; `send` waits
    until it takes one, and raises OSError once it is closed. `watch`: whether the sink will
    call `stopped` as soon as it is no longer ready (then its socket may join its view's
    `Audience` group, written without a look a message)."""

    def ready(self) -> bool: ...

    def write(self, frame: bytes) -> None: ...

    async def send(self, frame: bytes) -> None: ...

    def watch(self, stopped: Callable[[], None]) -> bool: ...


@dataclass(eq=False, slots=True)
class Subscription:
    """One socket's place in the hub: what it may see (`view`, `render`) and what waits to be
    sent to it, oldest first: (entry id, message), the id None for a reply that is no entry.

    With a `sink`, a message that finds nothing waiting before it (`held` 0) and the
    connection ready is written at once, by whoever offers it; otherwise it waits in the queue
    for the socket's own sender (`sending` while it holds one), which counts `held` down as
    it writes. One count on the subscription, not its queue and its overflow asked each time:
    the hot path of a table 10,000 follow reads as few objects a socket as it can (each read
    a cache miss between two sends, docs/performance.md "The live feeds").

    In its audience's `group` (`Audience`), nothing held and its sink watched, the socket is
    written each entry by the group's loop and asked nothing: where it stands (`sent_id`) is
    the group's last entry, until it leaves."""

    key: str
    view: Hashable
    render: Render
    queue: asyncio.Queue[tuple[str | None, Message]] = field(
        default_factory=lambda: asyncio.Queue(QUEUE))
    overflowed: asyncio.Event = field(default_factory=asyncio.Event)
    floor: tuple[int, int] = (0, 0)  # entries up to this one were offered already
    own_sent_id: str | None = None  # the last entry sent, while in no group
    sink: FrameSink | None = None
    sending: bool = False
    held: int = 0  # messages offered and not yet written: queued, or being sent
    audience: Audience | None = None  # the stream's sockets it is one of
    group: Group | None = None  # its view's, in its audience, while it is written there

    @property
    def sent_id(self) -> str | None:
        """The last entry sent: where the socket may resume."""
        group = self.group
        return group.last if group is not None else self.own_sent_id

    @sent_id.setter
    def sent_id(self, entry_id: str | None) -> None:
        self.leave()  # an entry not the group's: its place its own again
        self.own_sent_id = entry_id

    def offer(self, entry_id: str | None, message: Message | str) -> None:
        if isinstance(message, str):
            message = Message(message)
        sink = self.sink
        # the hot path, each socket of a table 10,000 follow: the checks cheapest first
        if sink is not None and not self.held and sink.ready():
            try:
                sink.write(message.frame)
            except (OSError, RuntimeError):
                pass  # queued instead: the socket's own sender meets the error and ends it
            else:
                if entry_id is not None:
                    self.sent_id = entry_id
                return
        self.hold(entry_id, message)

    def hold(self, entry_id: str | None, message: Message) -> None:
        """Queue `message` for the socket's own sender (out of its group: written in order
        from now on), or mark the socket too slow when its queue is full."""
        self.leave()
        if self.overflowed.is_set():
            return
        try:
            self.queue.put_nowait((entry_id, message))
        except asyncio.QueueFull:
            self.overflowed.set()
            self.held += QUEUE + 1  # more than its sender can count down: never 0 again
        else:
            self.held += 1

    def written(self) -> None:
        """The socket's sender wrote a message it took from the queue."""
        self.held -= 1

    def leave(self) -> None:
        """Out of its group, if in one (its sink stopped taking frames at once, or a message
        was held for it): offered one by one again, from where the group stood."""
        group = self.group
        if group is None:
            return
        self.own_sent_id = group.last
        self.group = None
        group.remove(self)
        if self.audience is not None:
            self.audience.slow.add(self)


class Group:
    """The sockets of one view in an `Audience` written each entry at once, in one loop, with
    no look a socket: each in it had nothing held and its sink ready when it joined, and its
    sink tells it (`FrameSink.watch`) the moment that stops (the send buffer over its mark, a
    close sent or begun, the connection lost), when it leaves. The loop goes over a tuple of
    (subscription, write) made again only after the members changed."""

    __slots__ = ("_pairs", "last", "members", "render")

    def __init__(self, render: Render) -> None:
        self.render = render
        self.members: dict[Subscription, Callable[[bytes], None]] = {}
        self._pairs: tuple[tuple[Subscription, Callable[[bytes], None]], ...] | None = ()
        self.last: str | None = None  # the last entry written to the group

    def add(self, sub: Subscription, write: Callable[[bytes], None]) -> None:
        self.members[sub] = write
        self._pairs = None

    def remove(self, sub: Subscription) -> None:
        del self.members[sub]
        self._pairs = None

    def pairs(self) -> tuple[tuple[Subscription, Callable[[bytes], None]], ...]:
        pairs = self._pairs
        if pairs is None:
            pairs = self._pairs = tuple(self.members.items())
        return pairs


class Audience:
    """The sockets that follow one stream. Each new one is offered its messages one at a time
    (`slow`: its floor passed, its queue drained, its sink looked at a message); once it has
    had an entry written at once with nothing held and a sink that is watched, it joins its
    view's `Group`, written with the others in one tight loop: the frame made once, each
    socket a transport's `write`, no Python call or check a socket (docs/performance.md "The
    live feeds"). It leaves as soon as its sink stops being ready or a message is held for it;
    the queues, their bound and the overflow's 1013 are the slow path's, as before."""

    __slots__ = ("groups", "slow")

    def __init__(self, subs: Iterable[Subscription] = ()) -> None:
        self.slow: set[Subscription] = set()
        self.groups: dict[Hashable, Group] = {}
        for sub in subs:
            self.add(sub)

    def add(self, sub: Subscription) -> None:
        sub.audience = self
        self.slow.add(sub)

    def discard(self, sub: Subscription) -> None:
        if sub.audience is not self:
            return
        sub.audience = None
        sub.leave()
        self.slow.discard(sub)

    def __len__(self) -> int:
        return len(self.slow) + sum(len(g.members) for g in self.groups.values())

    def __bool__(self) -> bool:
        return bool(self.slow) or any(g.members for g in self.groups.values())

    def __iter__(self) -> Iterator[Subscription]:
        yield from list(self.slow)
        for group in list(self.groups.values()):
            yield from list(group.members)

    def fan_out(self, entry_id: str, order: tuple[int, int], fields: Fields) -> None:
        """Offer an entry to each socket that has not had it, rendered (and its frame
        encoded) once per view."""
        messages: dict[Hashable, Message] = {}
        joining: list[Subscription] = []
        for sub in list(self.slow) if self.slow else ():
            if order <= sub.floor:
                continue
            message = messages.get(sub.view)
            if message is None:
                message = messages[sub.view] = Message(sub.render(entry_id, fields))
            sub.offer(entry_id, message)
            if not sub.held and sub.sink is not None and sub.sink.ready():
                joining.append(sub)
        for view, group in self.groups.items():
            pairs = group.pairs()
            if not pairs:
                continue
            message = messages.get(view)
            if message is None:
                message = messages[view] = Message(group.render(entry_id, fields))
            frame, before = message.frame, group.last
            group.last = entry_id  # a member that leaves inside its write had it written
            for sub, write in pairs:
                try:
                    write(frame)
                except (OSError, RuntimeError):  # queued: its sender meets the error, ends it
                    sub.leave()
                    sub.own_sent_id = before
                    sub.hold(entry_id, message)
        for sub in joining:
            self._join(sub, entry_id)

    def _join(self, sub: Subscription, entry_id: str) -> None:
        sink = sub.sink
        if sink is None or sub.group is not None or sub.audience is not self \
                or not sink.watch(sub.leave):
            return
        group = self.groups.get(sub.view)
        if group is None:
            group = self.groups[sub.view] = Group(sub.render)
        if not group.members:
            group.last = entry_id
        elif group.last != entry_id:
            return  # (not met: each entry goes to the whole audience) its place not the group's
        self.slow.discard(sub)
        sub.group = group
        group.add(sub, sink.write)


def fan_out(subs: Audience, entry_id: str, order: tuple[int, int], fields: Fields) -> None:
    """Offer an entry to each socket of `subs` that has not had it (`Audience.fan_out`)."""
    subs.fan_out(entry_id, order, fields)


@dataclass
class _Stream:
    last: str  # the newest entry the reader has seen
    subs: Audience = field(default_factory=Audience)


class Feeds(Protocol):
    """What a feed socket follows: the hub of Redis streams, or the alerts' topic."""

    async def subscribe(self, key: str, since: str | None, view: Hashable, render: Render
                        ) -> Subscription: ...

    def unsubscribe(self, sub: Subscription) -> None: ...


class FeedHub:
    """`subscribe` a socket to a stream, `unsubscribe` it when it goes; `run` is the reader."""

    def __init__(self, reader: AnyRedis, redis: AnyRedis, block_ms: int = 5000,
                 pause: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.reader, self.redis, self.block_ms = reader, redis, block_ms
        self.pause = pause  # the wait between reads (`READ_GAP_S`)
        self.streams: dict[str, _Stream] = {}
        self.wake_key = WAKE + uuid.uuid4().hex
        self.wake_last: dict[str, str] = {}  # a wake-up stream → its last entry read
        # on a cluster, a reader a slot (`cluster_feeds`)
        self.nodes = ClusterReaders(self, reader) if isinstance(reader, RedisCluster) else None

    @translating
    async def subscribe(self, key: str, since: str | None, view: Hashable, render: Render
                        ) -> Subscription:
        """A new socket following stream `key`: first the entries after `since` (a stream id;
        `$`: none; None: the newest entry, the current state), then every new one. Raises
        StoreUnavailable when Redis cannot be reached, BadSince for a `since` that is no
        stream id."""
        if since not in (None, "$") and not _stream_id(str(since)):
            raise BadSince("since: a stream id (such as 1700000000000-0) or $")
        sub = Subscription(key, view, render)
        after = None if since in (None, "$") else since
        newest, stream = "0-0", None
        for _ in range(50):  # until no entry can fall between the catch-up and the reader
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.xrevrange(key, count=1)
                if after is not None:
                    pipe.xrange(key, min=f"({after}", count=CATCH_UP)
                replies = await pipe.execute()
            newest = replies[0][0][0].decode() if replies[0] else "0-0"
            entries = replies[1] if after is not None else replies[0] if since is None else []
            for entry_id, fields in entries:
                after = entry_id.decode()
                sub.offer(after, render(after, fields))
            after = after or newest
            stream = self.streams.get(key)
            if stream is None or _order(stream.last) <= _order(after):
                break  # the reader has not gone past what was read: it takes over from here
        else:
            log.warning("a socket on %s joined while its stream kept moving", key)
        resume = after or newest
        sub.floor = _order(resume)
        if stream is None:
            start = resume if _order(resume) < _order(newest) else newest
            stream = self.streams[key] = _Stream(start, Audience([sub]))
            await self._wake(key)  # the socket is in the stream already: nothing is lost
        else:
            stream.subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        stream = self.streams.get(sub.key)
        if stream is not None:
            stream.subs.discard(sub)
            if not stream.subs:
                del self.streams[sub.key]

    async def _wake(self, key: str) -> None:
        """Let the blocking read that is to follow stream `key` return, so that it does (on a
        cluster, the reader of its slot, started if it has none)."""
        wake = self.wake_key if self.nodes is None else self.nodes.follow(key)
        if wake is None:
            return
        with contextlib.suppress(StoreUnavailable), store_faults():  # else the reader finds
            await self.redis.xadd(wake, {"w": "1"}, maxlen=1)  # the stream within its block
            await self.redis.pexpire(wake, 24 * 3600 * 1000)  # time anyway

    async def run(self) -> None:
        """The reader: follow every stream a socket follows, offer each new entry. On a
        cluster, a reader a slot (`cluster_feeds`), started as sockets come."""
        if self.nodes is not None:
            await self.nodes.run()  # until the hub is stopped, or a reader dies of a bug
            return
        backoff = Backoff.doubling(0.1, 2.0)  # while Redis is away
        while True:
            try:
                with store_faults():
                    await self.read(cast(Redis, self.reader), self.wake_key,  # no cluster's
                                    {k: s.last for k, s in self.streams.items()})
            except (StoreUnavailable, OSError) as exc:
                if backoff.fresh:
                    log.warning("the feeds' reader lost Redis: %r", exc)
                await backoff.wait()
                continue
            backoff.reset()

    async def read(self, client: Redis, wake_key: str, streams: dict[str, str]) -> None:
        """One blocking read of `streams` (each from its last entry read) and the wake-up
        stream `wake_key`; each new entry offered; then, if it brought any, a pause until
        `READ_GAP_S` after it began (a new socket's wake-up alone is read again at once)."""
        began = time.monotonic()
        asked = {**streams, wake_key: self.wake_last.get(wake_key, "0-0")}
        reply = await xread_packed(client, xread_command(asked, self.block_ms))
        fed = False
        for raw_key, entries in reply:
            key = raw_key.decode()
            if key == wake_key:
                self.wake_last[wake_key] = entries[-1][0].decode()
                continue
            stream = self.streams.get(key)
            if stream is not None:
                fed = True
                try:
                    self._dispatch(stream, entries)
                except Exception:  # one entry it cannot render must not stop every feed
                    log.exception("an entry of %s could not be sent; passed over", key)
                    stream.last = entries[-1][0].decode()
        if fed:
            await self.pause(max(0.0, began + READ_GAP_S - time.monotonic()))

    def _dispatch(self, stream: _Stream, entries: Entries) -> None:
        for raw_id, fields in entries:
            entry = raw_id.decode()
            stream.last = entry
            fan_out(stream.subs, entry, _order(entry), fields)
