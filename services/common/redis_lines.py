"""One Redis connection that carries every concurrent command of a process, pipelined: the
hot paths' commands (a seat's rate limit and its state read at the gateway, a worker's state
writes), sent as raw RESP, their replies parsed here (`RespReader`).

Why not redis-py for these: its asyncio client spends 70–90 µs of CPU on a command (a
connection taken from the pool and given back, a retry wrapper, timeouts, observability
hooks, ~250 Python calls), against 11–22 µs for the same `GET` written and read on a plain
stream (measured on this machine, the same Redis). At 1,000 events a second the gateway's
rate limit alone was 17 % of its CPU (py-spy). Redis answers a connection's commands in the
order they came, so one connection serves any number of callers at once: each command's
future waits in a queue, the commands of one turn of the event loop go out in one write, and
each reply resolves the oldest future. redis-py stays for everything else.

The parser is ours, not hiredis's: installed, hiredis would also become the parser of every
redis-py client of the services, a change well beyond these paths; RESP's five reply kinds are
the few lines of `RespReader`, and a limit check measured no slower with it (11–40 µs of CPU,
17–55 µs with hiredis's parser, on a noisy machine).

Faults are redis-py's exceptions, so callers handle them as before: a connection that cannot
be made or is lost (`ConnectionError`, every waiting command with it; the next command
connects again), a reply later than `timeout_s` (`TimeoutError`: the connection is dropped,
since the replies behind it would no longer match their commands), an error reply
(`ResponseError`, `NoScriptError` for an unknown script).
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote, urlparse

from redis.exceptions import (
    AskError,
    ConnectionError as RedisConnectionError,
    MovedError,
    NoScriptError,
    ResponseError,
    TimeoutError as RedisTimeoutError,
)

Arg = str | bytes | int | float


@dataclass(frozen=True)
class Address:
    host: str
    port: int
    db: int = 0
    password: str | None = None
    username: str | None = None

    @classmethod
    def of(cls, url: str) -> Address:
        """`redis://[[user]:password@]host[:port][/db]`."""
        parts = urlparse(url)
        if parts.scheme != "redis":
            raise ValueError(f"{url}: only redis:// URLs are served by RedisLines")
        db = parts.path.strip("/")
        return cls(parts.hostname or "127.0.0.1", parts.port or 6379, int(db) if db else 0,
                   unquote(parts.password) if parts.password else None,
                   unquote(parts.username) if parts.username else None)


def pack(args: Sequence[Arg]) -> bytes:
    """A command as RESP: an array of bulk strings."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class _Incomplete(Exception):
    """The buffer ends before the reply does."""


_NOTHING = object()  # `RespReader.gets`: no whole reply yet


class RespReader:
    """RESP replies from the bytes as they come: `feed` them, then `gets` each whole reply
    (an error reply as a `ResponseError` value, not raised) until it returns `_NOTHING`."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.at = 0  # where the next reply starts

    def feed(self, data: bytes) -> None:
        self.buffer += data

    def gets(self) -> Any:
        try:
            reply, self.at = self._reply(self.at)
        except _Incomplete:
            return _NOTHING
        except ValueError:  # a length or an integer that is not one
            raise RedisConnectionError("Redis sent a reply that is not RESP") from None
        if self.at == len(self.buffer):
            self.buffer.clear()
            self.at = 0
        return reply

    def _reply(self, start: int) -> tuple[Any, int]:
        buffer = self.buffer
        end = buffer.find(b"\r\n", start)
        if end < 0:
            raise _Incomplete
        kind, line, after = buffer[start], bytes(buffer[start + 1:end]), end + 2
        if kind == 0x2B:  # + a simple string
            return line, after
        if kind == 0x2D:  # - an error
            return ResponseError(line.decode(errors="replace")), after
        if kind == 0x3A:  # : an integer
            return int(line), after
        if kind == 0x24:  # $ a bulk string, or nil
            length = int(line)
            if length < 0:
                return None, after
            if after + length + 2 > len(buffer):
                raise _Incomplete
            return bytes(buffer[after:after + length]), after + length + 2
        if kind == 0x2A:  # * an array, or nil
            count = int(line)
            if count < 0:
                return None, after
            items = []
            for _ in range(count):
                item, after = self._reply(after)
                items.append(item)
            return items, after
        raise RedisConnectionError(f"Redis sent a reply of no known kind ({kind:#x})")


def _error(reply: ResponseError) -> ResponseError:
    """redis-py's exception for an error reply: a script Redis does not know, a cluster's
    redirection (`MOVED`, `ASK`: `services.common.cluster_lines` follows them)."""
    message = str(reply)
    if message.startswith("NOSCRIPT"):
        return NoScriptError(message)
    if message.startswith("MOVED "):
        return MovedError(message.removeprefix("MOVED "))
    if message.startswith("ASK "):
        return AskError(message.removeprefix("ASK "))
    return reply


class _Protocol(asyncio.Protocol):
    def __init__(self, lines: RedisLines) -> None:
        self.lines = lines
        self.reader = RespReader()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        waiting = self.lines.waiting
        while True:
            try:
                reply = self.reader.gets()
            except RedisConnectionError:  # the stream cannot be trusted
                assert self.transport is not None
                self.transport.abort()  # connection_lost follows
                return
            if reply is _NOTHING:
                return
            if not waiting:  # a reply to no command: the stream cannot be trusted
                assert self.transport is not None
                self.transport.abort()  # connection_lost follows
                return
            future, _ = waiting.popleft()
            if future.done():  # its caller gave up (cancelled): the reply is dropped
                continue
            if isinstance(reply, ResponseError):
                future.set_exception(_error(reply))
            else:
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.lines.lost(self, f"Redis closed the connection ({exc or 'EOF'})")


class Commands:
    """The commands the hot paths send, on `execute` (one Redis's lines, or a cluster's)."""

    async def execute(self, *args: Arg) -> Any:
        raise NotImplementedError

    async def evalsha(self, sha: str, numkeys: int, *args: Arg) -> Any:
        return await self.execute("EVALSHA", sha, numkeys, *args)

    async def eval(self, script: str, numkeys: int, *args: Arg) -> Any:
        return await self.execute("EVAL", script, numkeys, *args)

    async def hmget(self, key: str, *fields: str) -> list[bytes | None]:
        found: list[bytes | None] = await self.execute("HMGET", key, *fields)
        return found


class RedisLines(Commands):
    """Commands to one Redis over one pipelined connection (see the module's docstring)."""

    def __init__(self, url: str | Address, timeout_s: float = 5.0,
                 connect_timeout_s: float = 2.0) -> None:
        self.address = Address.of(url) if isinstance(url, str) else url
        self.timeout_s, self.connect_timeout_s = timeout_s, connect_timeout_s
        self.transport: asyncio.Transport | None = None
        self.protocol: _Protocol | None = None
        self.waiting: collections.deque[tuple[asyncio.Future[Any], float]] = \
            collections.deque()
        self.outgoing: list[bytes] = []
        self.connector: asyncio.Future[None] | None = None  # a connection being made
        self.watch: asyncio.TimerHandle | None = None

    async def execute(self, *args: Arg) -> Any:
        """One command's reply."""
        return await self._send([pack(args)])[0]

    async def execute_many(self, commands: Sequence[Sequence[Arg]]) -> list[Any]:
        """Several commands in one write; their replies, in order (the first error reply
        raised once all have come)."""
        results = await self.execute_each(commands)
        for result in results:
            if isinstance(result, BaseException):
                raise result
        return results

    async def execute_each(self, commands: Sequence[Sequence[Arg]]) -> list[Any]:
        """Several commands in one write; each one's reply or error (not raised), in order."""
        futures = self._send([pack(c) for c in commands]) if commands else []
        return await asyncio.gather(*futures, return_exceptions=True)

    def _send(self, packed: list[bytes]) -> list[asyncio.Future[Any]]:
        loop = asyncio.get_running_loop()
        now = loop.time()
        futures = [loop.create_future() for _ in packed]
        self.waiting.extend((f, now) for f in futures)
        if not self.outgoing:
            loop.call_soon(self._flush)
        self.outgoing.extend(packed)
        if self.watch is None:
            self.watch = loop.call_later(self.timeout_s, self._check_late)
        return futures

    def _flush(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(self.outgoing))
            self.outgoing.clear()
        elif self.connector is None or self.connector.done():
            self.connector = asyncio.ensure_future(self._connect_and_flush())

    async def _connect_and_flush(self) -> None:
        try:
            await asyncio.wait_for(self._connect(), self.connect_timeout_s)
        except (OSError, TimeoutError, ResponseError) as exc:
            self._drop(RedisConnectionError(
                f"cannot connect to Redis at {self.address.host}:{self.address.port} ({exc!r})"))
            return
        self._flush()

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        transport, protocol = await loop.create_connection(
            lambda: _Protocol(self), self.address.host, self.address.port)
        self.transport, self.protocol = transport, protocol
        hello: list[tuple[Arg, ...]] = []
        if self.address.password is not None:
            hello.append(("AUTH", *((self.address.username,) if self.address.username else ()),
                          self.address.password))
        if self.address.db:
            hello.append(("SELECT", self.address.db))
        if hello:  # ahead of every command waiting: they go out once these are written
            futures = [loop.create_future() for _ in hello]
            self.waiting.extendleft((f, loop.time()) for f in reversed(futures))
            transport.write(b"".join(pack(c) for c in hello))
            await asyncio.gather(*futures)

    def _check_late(self) -> None:
        """The oldest command waiting past `timeout_s`: the connection is dropped."""
        self.watch = None
        if not self.waiting:
            return
        loop = asyncio.get_running_loop()
        oldest = self.waiting[0][1]
        if loop.time() - oldest >= self.timeout_s:
            self._drop(RedisTimeoutError(f"Redis did not answer in {self.timeout_s:g} s"))
        else:
            self.watch = loop.call_later(oldest + self.timeout_s - loop.time(), self._check_late)

    def lost(self, protocol: _Protocol, why: str) -> None:
        if protocol is self.protocol:
            self.transport = self.protocol = None
            self._fail_all(RedisConnectionError(why))

    def _drop(self, exc: Exception) -> None:
        transport, self.transport, self.protocol = self.transport, None, None
        if transport is not None:
            transport.abort()
        self._fail_all(exc)

    def _fail_all(self, exc: Exception) -> None:
        self.outgoing.clear()
        while self.waiting:
            future, _ = self.waiting.popleft()
            if not future.done():
                future.set_exception(exc)

    async def aclose(self) -> None:
        if self.connector is not None:
            self.connector.cancel()
        self._drop(RedisConnectionError("closed"))
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None
