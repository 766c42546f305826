"""Live feeds at a vugraph's scale (api.md): thousands of sockets on one gateway process, a
bounded number of Redis connections, and clear close codes for what a feed does not take."""

from __future__ import annotations

import asyncio
import json
import resource
import socket
from typing import Any

import redis
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import OPEN
from websockets.uri import parse_uri

from services.common.names import feed_key, state_key
from services.gateway.feeds.fanout import FeedHub
from tests.helpers import new_table, play_script, run, state, wait_for, wait_for_async
from tests.stack import Stack

SOCKETS = 2000
HOT = 1500  # on one table, as a vugraph match's audience
SPREAD_TABLES = 10  # the other sockets, 50 a table


def _gateway_redis_connections(stack: Stack) -> int:
    client = redis.Redis(port=stack.redis_port)
    try:
        return sum(1 for c in client.client_list() if c["name"].startswith("tableserver-gateway"))
    finally:
        client.close()


def _feed_ids(stack: Stack, table: str) -> list[str]:
    client = redis.Redis(port=stack.redis_port)
    try:
        return [i.decode() for i, _ in client.xrange(feed_key(table))]
    finally:
        client.close()


def _last_fed(stack: Stack, table: str) -> int | None:
    """The version of the newest state in the table's feed (None: an empty feed)."""
    client = redis.Redis(port=stack.redis_port)
    try:
        newest = client.xrevrange(feed_key(table), count=1)
        return int(newest[0][1][b"version"]) if newest else None
    finally:
        client.close()


async def _open(url: str, limit: asyncio.Semaphore) -> ClientConnection:
    async with limit:
        return await connect(url, open_timeout=60, max_queue=None)


async def _collect(ws: ClientConnection, until: str, seconds: float) -> list[str]:
    """The ids this socket receives until `until` (or the time runs out)."""
    ids: list[str] = []
    try:
        async with asyncio.timeout(seconds):
            while not ids or ids[-1] != until:
                ids.append(json.loads(await ws.recv())["id"])
    except TimeoutError:
        pass
    return ids


def test_two_thousand_sockets_each_get_every_update(stack: Stack) -> None:
    """2,000 feed sockets on one gateway process, 1,500 of them on one table: every socket
    gets every state of its table in order, from the current one on; the gateway keeps its
    Redis connections bounded, and the other endpoints answer meanwhile."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    hot = new_table(stack, "vugraph1")
    spread = {f"spread{i}": new_table(stack, f"spread{i}") for i in range(SPREAD_TABLES)}
    base = f"ws://127.0.0.1:{stack.gateway_port}/api/tables"

    async def scenario() -> tuple[dict[str, list[list[str]]], int, list[int]]:
        limit = asyncio.Semaphore(100)
        urls = [("vugraph1", f"{base}/vugraph1/feed?token={hot['spectator']}")] * HOT
        each = (SOCKETS - HOT) // SPREAD_TABLES
        for table, tokens in spread.items():
            urls += [(table, f"{base}/{table}/feed?token={tokens['spectator']}")] * each
        sockets = await asyncio.gather(*(_open(url, limit) for _, url in urls))
        try:
            firsts = await asyncio.gather(*(ws.recv() for ws in sockets))
            connections = _gateway_redis_connections(stack)
            loop = asyncio.get_running_loop()
            offsets = {"vugraph1": await loop.run_in_executor(
                None, play_script, stack, "vugraph1", hot, "N 1S, E 2H, S 3S, W P")}
            for table, tokens in spread.items():
                offsets[table] = await loop.run_in_executor(None, play_script, stack, table,
                                                            tokens, "N 1C")

            def fed() -> bool:  # every table's last call folded, and its state in the feed
                return all(_last_fed(stack, t) == n for t, n in offsets.items())

            await wait_for_async(lambda: loop.run_in_executor(None, fed), 30,
                                 "every table's last call in its feed")
            statuses = []
            for path in ("/healthz", "/api/tables/vugraph1/state"):
                with stack.client(stack.director) as http:
                    statuses.append((await loop.run_in_executor(None, http.get, path))
                                    .status_code)
            lasts = {t: _feed_ids(stack, t)[-1] for t in ["vugraph1", *spread]}
            received = await asyncio.gather(*(
                _collect(ws, lasts[table], 60) for (table, _), ws in zip(urls, sockets,
                                                                         strict=True)))
            by_table: dict[str, list[list[str]]] = {}
            for (table, _), first, ids in zip(urls, firsts, received, strict=True):
                by_table.setdefault(table, []).append([json.loads(first)["id"], *ids])
            return by_table, connections, statuses
        finally:
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)

    by_table, connections, statuses = run(scenario())
    assert connections <= 64 + 1, connections
    assert statuses == [200, 200]
    assert sum(len(v) for v in by_table.values()) == SOCKETS
    for table, received in by_table.items():
        stream = _feed_ids(stack, table)
        expected = stream[stream.index(received[0][0]):]
        assert len(expected) >= 2, (table, expected)
        wrong = [ids for ids in received if ids != expected]
        assert not wrong, (table, len(wrong), wrong[:1], expected)


def _closed_with(url: str, send: Any = None) -> tuple[int | None, str]:
    async def scenario() -> tuple[int | None, str]:
        async with connect(url, open_timeout=10) as ws:
            if send is not None:
                await ws.send(send)
            try:
                async with asyncio.timeout(10):
                    while True:
                        await ws.recv()
            except ConnectionClosed as closed:
                rcvd = closed.rcvd
                return (rcvd.code, rcvd.reason) if rcvd else (None, "")
        return None, ""

    result: tuple[int | None, str] = run(scenario())
    return result


def test_a_feed_closes_with_a_code_that_says_why(stack: Stack) -> None:
    """A binary frame (1003), a message it does not know or a bad `since` (1008), each closed
    with a reason, never a traceback or a drop without a code."""
    tokens = new_table(stack, "closing1")
    url = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/closing1/feed?token=" \
          f"{tokens['spectator']}"
    assert _closed_with(url, b"\x00\x01")[0] == 1003
    code, reason = _closed_with(url, '{"type":"dance"}')
    assert code == 1008 and "unknown message" in reason
    assert _closed_with(url, "not json")[0] == 1008
    code, reason = _closed_with(url + "&since=yesterday")
    assert code == 1008 and "since" in reason


def test_a_ping_is_answered(stack: Stack) -> None:
    tokens = new_table(stack, "ping1")
    url = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/ping1/feed?token=" \
          f"{tokens['spectator']}"

    async def scenario() -> list[Any]:
        async with connect(url, open_timeout=10) as ws:
            first = json.loads(await ws.recv())
            await ws.send('{"type":"ping"}')
            return [first.get("version"), json.loads(await ws.recv())]

    assert run(scenario()) == [0, {"type": "pong"}]


class StalledSocket:
    """A WebSocket client that stops reading once connected, on a TCP socket with a small
    receive buffer: what a phone on a bad network looks like to the gateway. `drain` reads
    what was sent until the close frame, and gives its code and reason."""

    def __init__(self, port: int, path: str) -> None:
        self.protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        self.protocol.send_request(self.protocol.connect())
        self.sock.sendall(b"".join(self.protocol.data_to_send()))
        while self.protocol.handshake_exc is None and self.protocol.state is not OPEN:
            self.protocol.receive_data(self.sock.recv(65536))
        assert self.protocol.state is OPEN

    def subscribed(self) -> None:
        """Ping the feed and read until its pong: the socket follows its stream (it reads
        nothing more until `drain`)."""
        self.protocol.send_text(b'{"type":"ping"}')
        self.sock.sendall(b"".join(self.protocol.data_to_send()))
        while True:
            self.protocol.receive_data(self.sock.recv(65536))
            for event in self.protocol.events_received():
                if isinstance(event, Frame) and event.opcode is Opcode.TEXT \
                        and json.loads(event.data) == {"type": "pong"}:
                    return

    def drain(self, seconds: float) -> tuple[int | None, str, int, str | None]:
        """The close code and reason, the text frames read and the id of the last one."""
        self.sock.settimeout(seconds)
        frames, last = 0, None
        try:
            while True:
                data = self.sock.recv(1 << 20)
                self.protocol.receive_data(data)
                for event in self.protocol.events_received():
                    if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                        frames += 1
                        last = json.loads(event.data)["id"]
                if self.protocol.close_rcvd is not None or not data:
                    break
        finally:
            self.sock.close()
        close = self.protocol.close_rcvd
        return (close.code, close.reason, frames, last) if close else (None, "", frames, last)


def test_a_slow_socket_is_dropped_and_slows_no_other(stack: Stack) -> None:
    """A socket that stops reading is closed with 1013 once its queue is full, and told where
    to resume; a socket on the same table that reads gets every entry meanwhile. The entries
    are written to the table's feed directly, as the processor writes them, 60 kB each so that
    the stalled socket's buffers fill fast, 50 at a time, each 50 once the reading socket has
    had the ones before (it keeps up, however fast this machine is)."""
    tokens = new_table(stack, "slow1")
    wait_for(lambda: state(stack, "slow1", stack.director)["board"], 10, "board 1 folded")
    path = f"/api/tables/slow1/feed?token={tokens['spectator']}&since=$"
    board = json.dumps({"calls": [], "pad": "x" * 60_000})
    count, batch = 600, 50
    stalled = StalledSocket(stack.gateway_port, path)
    stalled.subscribed()

    async def scenario() -> int:
        url = f"ws://127.0.0.1:{stack.gateway_port}{path}"
        writer = Redis(port=stack.redis_port)
        try:
            async with connect(url, open_timeout=10, max_size=None, max_queue=None) as fast:
                await fast.send('{"type":"ping"}')
                assert json.loads(await fast.recv()) == {"type": "pong"}  # subscribed
                seen = 0
                async with asyncio.timeout(60):
                    while seen < count:
                        async with writer.pipeline(transaction=False) as pipe:
                            for n in range(seen, seen + batch):
                                pipe.xadd(feed_key("slow1"), {"version": 10_000 + n,
                                                                     "board": board})
                            await pipe.execute()
                        for _ in range(batch):
                            json.loads(await fast.recv())
                            seen += 1
                return seen
        finally:
            await writer.aclose()

    seen = run(scenario())
    code, reason, frames, last = stalled.drain(30)
    assert seen == count
    assert code == 1013 and reason.endswith(f"resume with since={last}")  # the last it got
    assert frames < count


def test_a_slow_reader_is_told_1013_and_where_to_resume(stack: Stack) -> None:
    """A slow reader: a reader that reads, slowly (a message every 50 ms, as a client of
    the `websockets` library with its keepalive on), behind a burst of 1,500 states of 2 kB.
    The gateway used to let the kernel hold its backlog (megabytes), its queue never filled,
    and the socket died of a keepalive ping answered too late (1011, no resume id); it is now
    closed 1013 with the id of the last state it read, where it resumes."""
    tokens = new_table(stack, "slow2")
    board = json.dumps({"calls": [], "pad": "x" * 2000})
    url = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/slow2/feed?" \
          f"token={tokens['spectator']}&since=$"

    async def scenario() -> tuple[int | None, str, str | None, int]:
        writer = Redis(port=stack.redis_port)
        read, last = 0, None
        try:
            async with connect(url, open_timeout=10, max_queue=4) as ws:
                await ws.send('{"type":"ping"}')  # subscribed once it is answered
                while json.loads(await ws.recv()) != {"type": "pong"}:
                    pass  # board 1's state, folded since the table was made
                async with writer.pipeline(transaction=False) as pipe:
                    for n in range(1500):
                        pipe.xadd(feed_key("slow2"), {"version": 10_000 + n,
                                                             "board": board})
                    await pipe.execute()
                async with asyncio.timeout(120):
                    while True:
                        last = json.loads(await ws.recv())["id"]
                        read += 1
                        # the scenario, not a wait for a condition: a reader slow on purpose
                        await asyncio.sleep(0.05)
        except ConnectionClosed as closed:
            told = closed.rcvd
            return (told.code, told.reason, last, read) if told else (None, str(closed), last,
                                                                     read)
        finally:
            await writer.aclose()
        raise AssertionError("the feed never closed")

    code, reason, last, read = run(scenario())
    assert code == 1013, (code, reason, read)
    assert reason.endswith(f"resume with since={last}") and read < 1500


class SlowWake(Redis):
    """The hub's pool, whose wake-up of the reader lasts until the reader has read an entry
    of `key` appended just before it: the entry arrives, and is read, during the wake-up."""

    def __init__(self, key: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.key = key
        self.hub: FeedHub | None = None

    async def xadd(self, name: Any, fields: Any, *args: Any, **kwargs: Any) -> Any:
        if self.hub is None or name != self.hub.wake_key:
            return await super().xadd(name, fields, *args, **kwargs)
        hub = self.hub
        entry = (await super().xadd(self.key, {"version": 1, "board": "{}"})).decode()
        woken = await super().xadd(name, fields, *args, **kwargs)
        await wait_for_async(lambda: hub.streams[self.key].last == entry, 5,
                             "the entry read during the wake-up")
        return woken


def test_an_entry_read_while_a_stream_joins_reaches_its_first_socket(stack: Stack) -> None:
    """The hub's reader may read a new stream's first entry while `subscribe` is still waking
    it (a race that made a socket miss a table's first state): the socket must get it."""
    key = feed_key("race1")

    async def scenario() -> list[str]:
        pool = SlowWake(key, port=stack.redis_port)
        reader = Redis(port=stack.redis_port, socket_timeout=30)
        hub = pool.hub = FeedHub(reader, pool, block_ms=200)
        running = asyncio.create_task(hub.run())
        try:
            sub = await hub.subscribe(key, "$", "v",
                                      lambda entry, fields: entry)
            async with asyncio.timeout(5):
                return [await sub.queue.get()]
        finally:
            running.cancel()
            await pool.aclose()
            await reader.aclose()

    assert len(run(scenario())) == 1


def _talk(url: str, messages: list[dict[str, Any]], acks: int) -> list[dict[str, Any]]:
    """Send `messages` on a feed socket; the replies (messages with an `ack`), in order,
    until `acks` of them came; the state updates in between are passed over."""
    async def scenario() -> list[dict[str, Any]]:
        async with connect(url, open_timeout=10) as ws:
            for message in messages:
                await ws.send(json.dumps(message))
            replies: list[dict[str, Any]] = []
            async with asyncio.timeout(20):
                while len(replies) < acks:
                    received = json.loads(await ws.recv())
                    if "ack" in received:
                        replies.append(received)
            return replies

    result: list[dict[str, Any]] = run(scenario())
    return result


def test_a_seat_calls_over_its_socket_with_the_http_paths_checks(stack: Stack) -> None:
    """Calls travel on the seat's socket: `{"ack": client_seq, "offset": n}` once Kafka has
    the event, or the error the HTTP path would give (syntax, authority), and the state
    comes back on the same socket."""
    tokens = new_table(stack, "wscall1")
    base = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/wscall1/feed?token="
    replies = _talk(base + tokens["seats"]["N"], [
        {"type": "call", "call": "1S", "client_seq": 1},
        {"type": "call", "call": "1Q", "client_seq": 2},
        {"type": "call", "call": "P", "seat": "S", "client_seq": 3},
        {"type": "call", "call": "P", "client_seq": 4, "id": "a message to partner"}], 4)
    assert replies[0]["ack"] == 1 and isinstance(replies[0]["offset"], int)
    assert [(r["ack"], r["status"], r["field"]) for r in replies[1:]] == [
        (2, 400, "call"), (3, 400, "seat"), (4, 400, "id")]
    spectator = _talk(base + tokens["spectator"], [{"type": "call", "call": "P"}], 1)
    assert spectator[0]["status"] == 403

    async def the_state_follows() -> int:
        async with connect(base + tokens["seats"]["E"], open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "call", "call": "2H", "client_seq": 1}))
            async with asyncio.timeout(20):
                offset = None
                while True:
                    received = json.loads(await ws.recv())
                    offset = received.get("offset", offset)
                    if offset is not None and received.get("version") == offset:
                        calls: list[Any] = received["board"]["calls"]
                        return len(calls)

    assert run(the_state_follows()) == 2


def test_alerts_are_pushed_once_by_kafka_offset_even_when_redis_loses_its_data(
        stack: Stack) -> None:
    """The alerts' feed follows the alerts topic: each alert is pushed once to a connected
    director, with its offset as id to resume from. When Redis loses its data (the processor
    writes every table's state again, and the alerts, in Kafka, are not emitted again), the
    feed pushes none of them again."""
    tokens = new_table(stack, "alertonce")
    url = f"ws://127.0.0.1:{stack.gateway_port}/api/alerts/feed?token={stack.director}"

    async def scenario() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        loop = asyncio.get_running_loop()
        async with connect(url, open_timeout=10) as ws:
            await loop.run_in_executor(None, play_script, stack, "alertonce", tokens,
                                       "N 1S, E 1H")  # an insufficient bid
            first = json.loads(await asyncio.wait_for(ws.recv(), 20))
            flusher = redis.Redis(port=stack.redis_port)
            flusher.flushall()
            flusher.close()

            def restored() -> bool:  # the processor has written the tables again
                client = redis.Redis(port=stack.redis_port)
                try:
                    return bool(client.exists(state_key("alertonce")))
                finally:
                    client.close()

            await wait_for_async(lambda: loop.run_in_executor(None, restored), 20,
                                 "the table's state written again")
            await loop.run_in_executor(None, play_script, stack, "alertonce", tokens,
                                       "S decline, E 2H, S 8NT")  # Law 38
            pushed = [first]
            try:
                async with asyncio.timeout(5):
                    while True:
                        pushed.append(json.loads(await ws.recv()))
            except TimeoutError:
                pass
        async with connect(url + f"&since={first['id']}", open_timeout=10) as ws:
            resumed = [json.loads(await asyncio.wait_for(ws.recv(), 10))]
        return pushed, resumed

    pushed, resumed = run(scenario())
    mine = [p for p in pushed if p["alert"]["table"] == "alertonce"]
    assert [p["alert"]["kind"] for p in mine] == ["insufficient_bid", "bid_above_seven"]
    assert len({p["alert"]["id"] for p in pushed}) == len(pushed)  # none twice
    assert int(mine[1]["id"]) > int(mine[0]["id"])
    assert resumed[0]["id"] == pushed[1]["id"]


def test_an_alert_raised_is_listed_with_its_kind_and_id(stack: Stack) -> None:
    tokens = new_table(stack, "alertlist")
    play_script(stack, "alertlist", tokens, "N 1S, E 1H")

    def listed() -> list[dict[str, Any]]:
        with stack.client(stack.director) as http:
            alerts: list[dict[str, Any]] = http.get("/api/alerts?count=1000").json()["alerts"]
            return [a for a in alerts if a["table"] == "alertlist"]

    found = wait_for(listed, 10, "the alert listed")
    assert found[0]["kind"] == "insufficient_bid" and found[0]["id"]


def test_a_seats_socket_is_rate_limited_like_http(stack: Stack) -> None:
    tokens = new_table(stack, "wsflood1")
    url = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/wsflood1/feed?token=" \
          f"{tokens['seats']['N']}"
    sent = 90  # past the burst even when a loaded machine appends slowly (the bucket refills)
    replies = _talk(url, [{"type": "call", "call": "P", "client_seq": n} for n in range(sent)],
                    sent)
    assert 429 in {r.get("status") for r in replies}
    assert sum(1 for r in replies if "offset" in r) <= sent - 1


def test_the_alerts_feed_refuses_a_since_that_is_no_offset(stack: Stack) -> None:
    url = f"ws://127.0.0.1:{stack.gateway_port}/api/alerts/feed?token={stack.director}"
    for since in ("1700000000000-0", "99999999999"):
        code, reason = _closed_with(url + f"&since={since}")
        assert code == 1008 and "offset" in reason, (since, code, reason)
