"""Benchmark of the live feeds: thousands of WebSocket sockets on one gateway process.

Starts its own Kafka, Redis, a processor worker and the gateway (tests/stack.py), creates the
tables, then for each number of sockets (1,000 / 5,000 / 10,000 by default) and each layout
- spread: the sockets spread over 100 tables, 100 updates a second over the tables;
- hot: every socket on one table (a vugraph match's audience), 2 updates a second;
opens the sockets (spectators), writes states to the tables' feeds in Redis as the processor
writes them (each stamped with the time it was written), and reports:
- push latency, from the write into Redis to the socket's receipt, p50/p99;
- the gateway's memory per socket (resident memory after connecting, less before) and its
  CPU per message delivered and in all (% of one core) while the updates flow;
- that every socket got every update (or how many were missed).
The states are written to Redis directly, not played through Kafka and the processor: what
is timed is the gateway's fan-out alone (bench/pipeline_bench.py times the whole path). The
sockets are this process's, on the same two cores as the gateway: their reading adds to the
latency. A benchmark, not a test: it prints numbers and asserts nothing about speed.

The load generator is written here rather than taken from a load-testing tool: what it needs —
10,000 idle sockets from one process, each stamping what it receives — is a few lines, and
tools such as locust spend a greenlet and an HTTP client per user. Its sockets are read by
`RawSocket` (`--client raw`, the default: frames cut by hand, the stamp found in the bytes),
whose reading costs the shared cores less than the `websockets` client's
(`--client websockets`, the measures before issue 30).

    python bench/feed_bench.py [--sockets 1000,5000,10000] [--seconds 10] [--layouts spread,hot]
                               [--client raw|websockets] [--calls 4000] [--ports K R G]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import uvloop
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.pipeline_bench import cpu_seconds, print_service_errors, report
from bench.stack_args import machine
from services.common.names import feed_key
from tests.stack import running_stack

TABLES = 100
DEAL = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"


def system_seconds(pid: int) -> float:
    """A process's CPU time in the kernel so far (Linux /proc): its sockets' sends."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return int(fields[12]) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """A process's resident memory (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def board(calls: int, written: float) -> str:
    """A state of about the size the processor writes (a board some calls into its auction),
    stamped with the time it is written."""
    return json.dumps({"board": 1, "dealer": "N", "vulnerability": "None",
                       "ruleset": "duplicate", "status": "auction", "turn": "N",
                       "calls": [{"seat": "NESW"[i % 4], "call": "P"} for i in range(calls)],
                       "contract": None, "must_pass": {}, "pending": None, "alerts": [],
                       "deal": DEAL, "written": written})


class Audience:
    """The sockets, and what each received: (table, version) → latencies."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.received = 0

    async def open(self, url: str, limit: asyncio.Semaphore) -> ClientConnection:
        async with limit:
            ws = await connect(url, open_timeout=120, max_queue=None, ping_interval=None)
            await ws.recv()  # the current state
            return ws

    async def listen(self, ws: ClientConnection) -> None:
        try:
            async for message in ws:
                received = time.time()
                written = json.loads(message)["board"]["written"]
                self.latencies.append(received - written)
                self.received += 1
        except Exception:  # a socket closed under the bench: its updates count as missed
            return


WRITTEN = re.compile(rb'"written":\s*([0-9.e+-]+)')


class RawSocket(asyncio.Protocol):
    """A feed socket read with as little of the client's CPU as can be: the handshake by
    hand, then the server's frames (never masked) cut by their length and each update's
    `written` found in its bytes. The sockets share the gateway's two cores: the websockets
    client's framing and a JSON parse per message cost them more than the gateway's sending
    (`--client websockets`, the earlier measure)."""

    def __init__(self, audience: RawAudience) -> None:
        self.audience = audience
        self.buffer = b""
        self.upgraded = False
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        received = time.time()
        buffer = self.buffer + data
        if not self.upgraded:
            head, sep, buffer = buffer.partition(b"\r\n\r\n")
            if not sep:
                self.buffer = head
                return
            if not head.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(head[:80].decode()))
                return
            self.upgraded = True
        at, end = 0, len(buffer)
        while end - at >= 2:
            n, start = buffer[at + 1] & 0x7F, at + 2
            if n == 126:
                if end - at < 4:
                    break
                n, start = int.from_bytes(buffer[at + 2:at + 4], "big"), at + 4
            elif n == 127:
                if end - at < 10:
                    break
                n, start = int.from_bytes(buffer[at + 2:at + 10], "big"), at + 10
            if end < start + n:
                break
            opcode = buffer[at] & 0x0F
            if opcode == 1:  # a text frame: an update
                if not self.opened.done():
                    self.opened.set_result(None)  # the current state
                else:
                    self.update(received, buffer, start, start + n)
            elif opcode == 9 and self.transport is not None and n < 126:
                # uvicorn's keepalive ping: the pong, masked as a client's frames are (RFC
                # 6455 §5.3; a zero key leaves the payload as it is)
                self.transport.write(bytes((0x8A, 0x80 | n)) + bytes(4)
                                     + buffer[start:start + n])
            elif opcode == 8:  # closed by the gateway: its code
                code = int.from_bytes(buffer[start:start + 2], "big") if n >= 2 else 1005
                self.audience.closed[code] += 1
            at = start + n
        self.buffer = buffer[at:]

    def update(self, received: float, buffer: bytes, start: int, end: int) -> None:
        """An update's frame (`buffer[start:end]`), read when `received`: its latency from
        the `written` it carries."""
        found = WRITTEN.search(buffer, start, end)
        if found is not None:
            self.audience.latencies.append(received - float(found.group(1)))
            self.audience.received += 1

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("closed before the first state"))


class RawAudience(Audience):
    socket: type[RawSocket] = RawSocket  # each socket's protocol

    def __init__(self) -> None:
        super().__init__()
        self.closed: Counter[int] = Counter()  # close code → sockets the gateway closed

    async def open(self, url: str, limit: asyncio.Semaphore) -> RawSocket:  # type: ignore[override]
        host, _, rest = url.removeprefix("ws://").partition("/")
        hostname, _, port = host.partition(":")
        async with limit:
            _, protocol = await asyncio.get_running_loop().create_connection(
                lambda: self.socket(self), hostname, int(port))
            key = base64.b64encode(os.urandom(16)).decode()
            assert protocol.transport is not None
            protocol.transport.write(
                f"GET /{rest} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            await asyncio.wait_for(protocol.opened, 120)
            return protocol

    async def listen(self, ws: RawSocket) -> None:  # type: ignore[override]
        await asyncio.Event().wait()  # the protocol counts as the frames come


async def close(ws: ClientConnection | RawSocket) -> None:
    if isinstance(ws, RawSocket):
        if ws.transport is not None:
            ws.transport.close()
    else:
        await ws.close()


async def measure(layout: str, sockets: int, args: argparse.Namespace, base: str,
                  tokens: dict[str, str], redis: Redis, gateway: int, at_rest: int) -> None:
    seconds = args.seconds
    tables = ["hot"] if layout == "hot" else [f"t{i}" for i in range(TABLES)]
    rate = 2.0 if layout == "hot" else 100.0
    audience = RawAudience() if args.client == "raw" else Audience()
    limit = asyncio.Semaphore(200)
    started = time.perf_counter()
    urls = [f"{base}/{tables[i % len(tables)]}/feed?token={tokens[tables[i % len(tables)]]}"
            for i in range(sockets)]
    opened = await asyncio.gather(*(audience.open(url, limit) for url in urls))
    connect_s = time.perf_counter() - started
    await asyncio.sleep(2)  # the gateway settles
    rss_after = rss_bytes(gateway)
    listeners = [asyncio.create_task(audience.listen(ws)) for ws in opened]
    cpu_before, wall_before = cpu_seconds(gateway), time.perf_counter()
    system_before = system_seconds(gateway)
    own_before = time.process_time()
    followers = Counter(tables[i % len(tables)] for i in range(sockets))
    writes, expected = 0, 0
    while time.perf_counter() - wall_before < seconds:
        table = tables[writes % len(tables)]
        await redis.xadd(feed_key(table), {"version": 1_000_000 + writes,
                                           "board": board(12, time.time())},
                         maxlen=1000, approximate=True)
        writes += 1
        expected += followers[table]
        await asyncio.sleep(1 / rate)
    deadline = time.perf_counter() + 30
    while audience.received < expected and time.perf_counter() < deadline:
        await asyncio.sleep(0.1)
    cpu = cpu_seconds(gateway) - cpu_before
    system = system_seconds(gateway) - system_before
    wall = time.perf_counter() - wall_before
    own = time.process_time() - own_before
    for task in listeners:
        task.cancel()
    await asyncio.gather(*(close(ws) for ws in opened), return_exceptions=True)
    print(f"{layout:6} {sockets:6} sockets: connected in {connect_s:.1f} s; "
          f"{rss_after / 2**20:.0f} MB resident, {(rss_after - at_rest) / sockets / 1024:.0f} kB "
          "per socket over the gateway at rest; "
          f"{writes} updates, {audience.received}/{expected} messages delivered; "
          f"gateway CPU {100 * cpu / wall:.0f} % of a core, "
          f"{1e6 * cpu / max(audience.received, 1):.0f} µs per message (of which the kernel "
          f"{1e6 * system / max(audience.received, 1):.0f}); the sockets' own "
          f"process {100 * own / wall:.0f} % of a core")
    print("       " + report("write to Redis → received", audience.latencies), flush=True)
    if isinstance(audience, RawAudience) and audience.closed:
        print(f"       closed by the gateway (code: sockets): {dict(audience.closed)}")
    await asyncio.sleep(3)  # the gateway lets the closed sockets go


async def calls_compared(url: str, director: str, gateway: int, calls: int) -> None:
    """The gateway's CPU per call made over HTTP and over the seat's socket. Each of 200
    seats (50 tables) has its socket open, as a seat's page does, receiving its table's
    states; the seats make `calls` calls one after another (the next once the last is
    acknowledged), over HTTP (keep-alive) then over the sockets."""
    seats: list[tuple[str, str]] = []  # (table, token)
    async with httpx.AsyncClient(base_url=url, timeout=60,
                                 headers={"Authorization": f"Bearer {director}"}) as http:
        for i in range(50):
            created = (await http.post("/api/tables", json={"table": f"c{i}"})).json()
            await http.post(f"/api/tables/c{i}/boards", json={"board": 1, "deal": DEAL})
            seats += [(f"c{i}", token) for token in created["seats"].values()]
    base = url.replace("http://", "ws://") + "/api/tables"
    sockets = [await connect(f"{base}/{table}/feed?token={token}", ping_interval=None,
                             max_queue=None) for table, token in seats]
    each = calls // len(seats)

    async def over_http(table: str, token: str) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60,
                                     headers={"Authorization": f"Bearer {token}"}) as http:
            for n in range(each):
                await http.post(f"/api/tables/{table}/events",
                                json={"type": "call", "call": "P", "client_seq": n})

    async def over_socket(index: int) -> None:
        ws, replies = sockets[index], acks[index]
        for n in range(each):
            await ws.send(json.dumps({"type": "call", "call": "P", "client_seq": 10_000 + n}))
            await replies.get()

    acks = [asyncio.Queue[None]() for _ in sockets]
    drains = [asyncio.create_task(_drain(ws, acks[i])) for i, ws in enumerate(sockets)]
    for name, work in (("HTTP", [over_http(t, k) for t, k in seats]),
                       ("socket", [over_socket(i) for i in range(len(seats))])):
        cpu, wall = cpu_seconds(gateway), time.perf_counter()
        await asyncio.gather(*work)
        cpu, wall = cpu_seconds(gateway) - cpu, time.perf_counter() - wall
        print(f"calls over {name:6}: {each * len(seats)} calls in {wall:.1f} s, gateway CPU "
              f"{1000 * cpu / (each * len(seats)):.2f} ms per call (the seats' sockets open)",
              flush=True)
    for task in drains:
        task.cancel()
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


async def _drain(ws: ClientConnection, acks: asyncio.Queue[None] | None = None) -> None:
    """Read a socket's messages; note each acknowledgement of a call."""
    with contextlib.suppress(Exception):
        async for message in ws:
            if acks is not None and '"ack"' in message[:10]:
                acks.put_nowait(None)


async def run(args: argparse.Namespace, url: str, director: str, redis_url: str,
              gateway: int) -> None:
    tokens: dict[str, str] = {}
    async with httpx.AsyncClient(base_url=url, timeout=60,
                                 headers={"Authorization": f"Bearer {director}"}) as http:
        for table in ["hot", *(f"t{i}" for i in range(TABLES))]:
            created = await http.post("/api/tables", json={"table": table})
            tokens[table] = created.json()["spectator"]
            await http.post(f"/api/tables/{table}/boards", json={"board": 1, "deal": DEAL})
    await asyncio.sleep(3)  # the first states reach Redis
    redis = Redis.from_url(redis_url)
    base = url.replace("http://", "ws://") + "/api/tables"
    at_rest = rss_bytes(gateway)
    print(f"gateway at rest: {at_rest / 2**20:.0f} MB resident")
    for sockets in args.sockets:
        for layout in args.layouts:
            await measure(layout, sockets, args, base, tokens, redis, gateway, at_rest)
    await redis.aclose()
    if args.calls:
        await calls_compared(url, director, gateway, args.calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=lambda t: [int(n) for n in t.split(",") if n],
                        default=[1000, 5000, 10000])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--calls", type=int, default=4000,
                        help="calls to time over HTTP and over the socket (0: none)")
    parser.add_argument("--layouts", type=lambda t: t.split(","), default=["spread", "hot"])
    parser.add_argument("--client", choices=("raw", "websockets"), default="raw",
                        help="the sockets' client: frames cut by hand (raw: the least CPU "
                        "beside the gateway's), or the websockets library's")
    parser.add_argument("--ports", type=int, nargs=3, metavar=("KAFKA", "REDIS", "GATEWAY"),
                        default=[29192, 26479, 28100])
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    kafka, redis, gateway = args.ports
    print(f"machine: {machine()}; the sockets' client: {args.client}", flush=True)
    with tempfile.TemporaryDirectory() as tmp, running_stack(
            Path(tmp), kafka, redis, gateway, workers=1,
            extra_env={"TABLESERVER_CALLS_PER_SECOND": "100000"}) as stack:
        assert stack.gateway is not None
        uvloop.run(run(args, stack.url, stack.director, f"redis://127.0.0.1:{redis}/0",
                       stack.gateway.pid))
        print_service_errors(Path(tmp))


if __name__ == "__main__":
    main()
