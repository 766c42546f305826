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
(`--client websockets`, the measures before the frames written once per view).

With `--gateways N`, N gateway processes serve the same stack (ports G, G+1, …: stateless
replicas, each reading Redis's feeds itself), each table's sockets round-robin over them as a
load balancer would; each gateway's CPU and memory are reported, the CPU per message over all
of them. With `--clients M`, the sockets are read by M processes of their own (the raw client,
each socket's reader round-robin) instead of the bench's: on a machine of more cores than the
gateways take, one reading process would be the latency's bound.

    python bench/feed_bench.py [--sockets 1000,5000,10000] [--seconds 10] [--layouts spread,hot]
                               [--client raw|websockets] [--calls 4000] [--ports K R G]
                               [--gateways N] [--clients M]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import multiprocessing.process
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

import httpx
import uvloop
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.pair_figures import pair_lines
from bench.pipeline_bench import cpu_seconds, print_service_errors, report
from bench.pipeline_report import pct
from bench.stack_args import compiled, machine
from services.common.names import feed_key
from tests.stack import gateway_process, running_stack

TABLES = 100
READER_SOURCE = Path(__file__).with_name("feed_reader.c")
FLOOR_SOURCE = Path(__file__).with_name("fanout_floor.c")
FLOOR_BYTES = 300  # the kernel floor's update where ours were not counted
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


@dataclass
class Gateway:
    """One gateway process of the bench's stack."""

    base: str  # its feeds' URL: ws://host:port/api/tables
    pid: int
    at_rest: int = 0  # its resident memory before the sockets


@dataclass
class Delivered:
    """What a set of sockets received while measured."""

    latencies: list[float]
    received: int
    closed: Counter[int]
    own_cpu: float  # the reading processes' CPU seconds
    frame_bytes: int = 0  # the updates' frames as they came, headers included (0: not counted)


class LocalReaders:
    """The sockets read by the bench's own process (`--clients 0`)."""

    def __init__(self, client: str) -> None:
        self.audience = RawAudience() if client == "raw" else Audience()
        self.opened: list[ClientConnection | RawSocket] = []
        self.listeners: list[asyncio.Task[None]] = []
        self.own_before = 0.0

    async def open(self, urls: list[str]) -> None:
        limit = asyncio.Semaphore(200)
        self.opened = list(await asyncio.gather(*(self.audience.open(u, limit) for u in urls)))

    def start(self) -> None:
        self.listeners = [asyncio.create_task(self.audience.listen(ws))  # type: ignore[arg-type]
                          for ws in self.opened]
        self.own_before = time.process_time()

    async def finish(self, expected: int) -> Delivered:
        deadline = time.perf_counter() + 30
        while self.audience.received < expected and time.perf_counter() < deadline:
            await asyncio.sleep(0.1)  # the poll's interval: the sockets are this loop's
        closed = self.audience.closed if isinstance(self.audience, RawAudience) else Counter()
        return Delivered(self.audience.latencies, self.audience.received, closed,
                         time.process_time() - self.own_before)

    async def close(self) -> None:
        for task in self.listeners:
            task.cancel()
        await asyncio.gather(*(close(ws) for ws in self.opened), return_exceptions=True)


def _client_process(conn: Connection, urls: list[str]) -> None:
    """A client process of `--clients M`: opens its sockets, answers "opened"; at "start"
    counts from zero; at ("finish", expected) waits until its sockets have received as many
    messages (30 s at most) and sends back what they received; then closes them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        readers = LocalReaders("raw")
        await readers.open(urls)
        conn.send("opened")
        assert await loop.run_in_executor(None, conn.recv) == "start"
        audience = readers.audience
        audience.latencies, audience.received = [], 0
        readers.start()
        _, expected = await loop.run_in_executor(None, conn.recv)
        delivered = await readers.finish(expected)
        conn.send((delivered.latencies, delivered.received, dict(delivered.closed),
                   delivered.own_cpu))
        await readers.close()

    uvloop.run(serve())


class ProcessReaders:
    """The sockets read by `count` client processes of their own (`--clients M`), each
    socket's reader chosen round-robin."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.pipes: list[Connection] = []
        self.procs: list[multiprocessing.process.BaseProcess] = []
        self.shares: list[list[int]] = []  # socket indexes each process reads

    async def open(self, urls: list[str]) -> None:
        context = multiprocessing.get_context("spawn")  # not forked from a running loop
        self.shares = [list(range(c, len(urls), self.count)) for c in range(self.count)]
        for share in self.shares:
            mine, theirs = context.Pipe()
            proc = context.Process(target=_client_process, args=(theirs, [urls[i] for i in share]),
                                   daemon=True)
            proc.start()
            self.pipes.append(mine)
            self.procs.append(proc)
        loop = asyncio.get_running_loop()
        for pipe in self.pipes:
            if not await loop.run_in_executor(None, pipe.poll, 300):
                raise RuntimeError("a client process did not open its sockets in 300 s")
            assert pipe.recv() == "opened"

    def start(self) -> None:
        for pipe in self.pipes:
            pipe.send("start")

    async def finish(self, expected_of: list[int]) -> Delivered:
        """`expected_of`: the messages each socket should have received."""
        loop = asyncio.get_running_loop()
        total = Delivered([], 0, Counter(), 0.0)
        for pipe, share in zip(self.pipes, self.shares, strict=True):
            pipe.send(("finish", sum(expected_of[i] for i in share)))
        for pipe in self.pipes:
            latencies, received, closed, own = await loop.run_in_executor(None, pipe.recv)
            total.latencies += latencies
            total.received += received
            total.closed.update(closed)
            total.own_cpu += own
        return total

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        for proc in self.procs:
            await loop.run_in_executor(None, proc.join, 30)


def reading(args: argparse.Namespace) -> str:
    """Who reads the sockets."""
    return "feed_reader.c" if args.client == "c" else str(args.clients or "the bench")


class CReader:
    """The sockets read by `bench/feed_reader.c` (`--client c`), compiled into `binary`: one
    process whose reading costs the shared cores the least, as an audience on machines of its
    own would cost the gateways' none."""

    def __init__(self, binary: Path) -> None:
        self.binary = binary
        self.proc: asyncio.subprocess.Process | None = None

    async def open(self, urls: list[str]) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            str(self.binary), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        lines = []
        for url in urls:
            host, _, path = url.removeprefix("ws://").partition("/")
            hostname, _, port = host.partition(":")
            lines.append(f"{hostname} {port} /{path}\n")
        self.proc.stdin.write("".join(lines).encode() + b"\n")
        await self.proc.stdin.drain()
        opened = await asyncio.wait_for(self.proc.stdout.readline(), 300)
        if opened != b"opened\n":
            raise RuntimeError(f"feed_reader did not open its sockets: {opened!r}")

    def start(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(b"start\n")

    async def finish(self, expected: int) -> Delivered:
        assert self.proc is not None and self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write(f"finish {expected}\n".encode())
        delivered = Delivered([], 0, Counter(), 0.0)
        while (line := (await self.proc.stdout.readline()).decode().strip()) != "end":
            if not line:
                raise RuntimeError("feed_reader ended before its report")
            word, _, rest = line.partition(" ")
            if word == "received":
                delivered.received = int(rest)
            elif word == "closed":
                code, count = rest.split()
                delivered.closed[int(code)] = int(count)
            elif word == "cpu":
                delivered.own_cpu = float(rest)
            elif word == "bytes":
                delivered.frame_bytes = int(rest)
            else:
                delivered.latencies.append(float(line))
        return delivered

    async def close(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            self.proc.stdin.close()  # the reader exits, its sockets closed with it
            await self.proc.wait()


async def measure(layout: str, sockets: int, args: argparse.Namespace, gateways: list[Gateway],
                  tokens: dict[str, str], redis: Redis) -> tuple[float, int]:
    """One layout at a count of sockets, its figures printed; returns the p99 (ms) from the
    write to Redis to a socket's reading, and the bytes a socket was sent an update (its
    frame, header included; 0 where the client does not count them: `--client c` does)."""
    seconds = args.seconds
    tables = ["hot"] if layout == "hot" else [f"t{i}" for i in range(TABLES)]
    rate = 2.0 if layout == "hot" else 100.0
    # as a load balancer would: each table's sockets round-robin over the gateways
    served = [gateways[(i // len(tables)) % len(gateways)] for i in range(sockets)]
    table_of = [tables[i % len(tables)] for i in range(sockets)]
    urls = [f"{served[i].base}/{table_of[i]}/feed?token={tokens[table_of[i]]}"
            for i in range(sockets)]
    readers: LocalReaders | ProcessReaders | CReader = (
        CReader(args.reader) if args.client == "c"
        else ProcessReaders(args.clients) if args.clients else LocalReaders(args.client))
    started = time.perf_counter()
    await readers.open(urls)
    connect_s = time.perf_counter() - started
    await asyncio.sleep(2)  # the gateways settle
    rss_after = {g.pid: rss_bytes(g.pid) for g in gateways}
    readers.start()
    wall_before = time.perf_counter()
    cpu_before = {g.pid: cpu_seconds(g.pid) for g in gateways}
    system_before = {g.pid: system_seconds(g.pid) for g in gateways}
    followers = Counter(table_of)
    writes = 0
    written: Counter[str] = Counter()
    while time.perf_counter() - wall_before < seconds:
        table = tables[writes % len(tables)]
        await redis.xadd(feed_key(table), {"version": 1_000_000 + writes,
                                           "board": board(12, time.time())},
                         maxlen=1000, approximate=True)
        writes += 1
        written[table] += 1
        # paced from the start, not after each write: an awaited write's own time is caught
        # up (sleeping 1/rate after each wrote 75-83 a second where 100 were asked)
        await asyncio.sleep(max(0.0, wall_before + writes / rate - time.perf_counter()))
    expected = sum(followers[t] * n for t, n in written.items())
    if isinstance(readers, ProcessReaders):
        delivered = await readers.finish([written[t] for t in table_of])
    else:
        delivered = await readers.finish(expected)
    wall = time.perf_counter() - wall_before
    cpu = {g.pid: cpu_seconds(g.pid) - cpu_before[g.pid] for g in gateways}
    system = {g.pid: system_seconds(g.pid) - system_before[g.pid] for g in gateways}
    await readers.close()
    received = max(delivered.received, 1)
    total_cpu, total_system = sum(cpu.values()), sum(system.values())
    grown = sum(rss_after[g.pid] - g.at_rest for g in gateways)
    print(f"{layout:6} {sockets:6} sockets, {len(gateways)} gateway(s), "
          f"{reading(args)} reading: connected in {connect_s:.1f} s; "
          f"{grown / sockets / 1024:.0f} kB per socket over the gateways at rest; "
          f"{writes} updates ({writes / seconds:.0f}/s, {rate:.0f} asked), "
          f"{delivered.received}/{expected} messages delivered; "
          f"gateways' CPU {1e6 * total_cpu / received:.1f} µs per message (user "
          f"{1e6 * (total_cpu - total_system) / received:.1f}, kernel "
          f"{1e6 * total_system / received:.1f}); the sockets' reading "
          f"{100 * delivered.own_cpu / wall:.0f} % of a core")
    for n, g in enumerate(gateways):
        print(f"       gateway {n + 1}: {sum(s is g for s in served)} sockets, "
              f"{rss_after[g.pid] / 2**20:.0f} MB resident, CPU {100 * cpu[g.pid] / wall:.0f} % "
              f"of a core (kernel {100 * system[g.pid] / wall:.0f} %)")
    print("       " + report("write to Redis → received", delivered.latencies), flush=True)
    per_message = round(delivered.frame_bytes / received) if delivered.frame_bytes else 0
    if per_message:
        print(f"       {per_message} bytes a socket's update (its frame, header included)",
              flush=True)
    if delivered.closed:
        print(f"       closed by the gateway (code: sockets): {dict(delivered.closed)}")
    await asyncio.sleep(3)  # the gateways let the closed sockets go
    return pct(delivered.latencies or [float("nan")], 0.99), per_message


def kernel_floor_p99(binary: Path, sockets: int, senders: int, updates: int,
                     size: int) -> float:
    """The kernel floor's p99 (ms): `fanout_floor.c`, as many senders as the gateways and one
    reader, as ours have (`feed_reader.c` is one process), `updates` updates 500 ms apart,
    each `size` bytes a socket (ours, measured)."""
    done = subprocess.run([str(binary), str(sockets), str(updates), str(senders), "1",
                           "500", str(size)], capture_output=True, text=True, check=False)
    print("       kernel floor: " + done.stdout.strip(), flush=True)
    found = re.search(r"p99 ([0-9.]+) ms", done.stdout)
    return float(found.group(1)) if found else float("nan")


async def hot_pair(args: argparse.Namespace, gateways: list[Gateway], tokens: dict[str, str],
                   redis: Redis) -> None:
    """The hot table and the kernel floor in alternating rounds (`--pair-floor ROUNDS`):
    each round our gateways' hot layout, then the C floor with as many processes a side,
    writing as many bytes a socket an update as ours were sent in the round (the frame the
    reader counted, header included: the ratio is then our code's cost, not the payload's);
    each side's p99 and the ratio's, round by round, with their spread."""
    sockets = args.sockets[-1]
    updates = max(1, int(2 * args.seconds))  # the hot layout's 2 updates a second
    ms: dict[str, list[float]] = {"ours": [], "kernel": []}
    for n in range(args.pair_floor):
        p99, size = await measure("hot", sockets, args, gateways, tokens, redis)
        size = size or FLOOR_BYTES  # a client that does not count them: the floor's own
        ms["ours"].append(p99)
        ms["kernel"].append(await asyncio.to_thread(
            kernel_floor_p99, args.floor, sockets, len(gateways), updates, size))
        print(f"  round {n + 1}: p99 ours {ms['ours'][-1]:.1f} ms, the kernel "
              f"{ms['kernel'][-1]:.1f} ms; {size} bytes a socket's update on both sides",
              flush=True)
    print("\n".join(pair_lines(sockets, ms)).replace(
        "events/s, CPU ms per event over the side's processes with Kafka and Redis",
        "sockets on one table, p99 (ms) from the write to the reading"), flush=True)


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
              gateways: list[Gateway]) -> None:
    tokens: dict[str, str] = {}
    async with httpx.AsyncClient(base_url=url, timeout=60,
                                 headers={"Authorization": f"Bearer {director}"}) as http:
        for table in ["hot", *(f"t{i}" for i in range(TABLES))]:
            created = await http.post("/api/tables", json={"table": table})
            tokens[table] = created.json()["spectator"]
            await http.post(f"/api/tables/{table}/boards", json={"board": 1, "deal": DEAL})
    await asyncio.sleep(3)  # the first states reach Redis
    redis = Redis.from_url(redis_url)
    for n, g in enumerate(gateways):
        g.at_rest = rss_bytes(g.pid)
        print(f"gateway {n + 1} at rest: {g.at_rest / 2**20:.0f} MB resident")
    if args.pair_floor:
        await hot_pair(args, gateways, tokens, redis)
    for sockets in args.sockets if not args.pair_floor else []:
        for layout in args.layouts:
            await measure(layout, sockets, args, gateways, tokens, redis)
    await redis.aclose()
    if args.calls:
        await calls_compared(url, director, gateways[0].pid, args.calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=lambda t: [int(n) for n in t.split(",") if n],
                        default=[1000, 5000, 10000])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--calls", type=int, default=4000,
                        help="calls to time over HTTP and over the socket (0: none)")
    parser.add_argument("--layouts", type=lambda t: t.split(","), default=["spread", "hot"])
    parser.add_argument("--client", choices=("raw", "websockets", "c"), default="raw",
                        help="the sockets' client: frames cut by hand (raw: the least CPU "
                        "of Python's beside the gateway's), the websockets library's, or "
                        "bench/feed_reader.c, one process in C (the least of all)")
    parser.add_argument("--pair-floor", type=int, default=0, metavar="ROUNDS",
                        help="the hot layout at the last count of sockets and the kernel "
                        "floor (fanout_floor.c) in ROUNDS alternating rounds, then the "
                        "ratio's median and spread (bench/paired_bench.py hot)")
    parser.add_argument("--gateways", type=int, default=1,
                        help="gateway processes on the same stack (ports GATEWAY, GATEWAY+1, "
                        "…), each table's sockets round-robin over them")
    parser.add_argument("--clients", type=int, default=0,
                        help="client processes reading the sockets (raw client), each socket's "
                        "round-robin; 0: the bench's own process")
    parser.add_argument("--ports", type=int, nargs=3, metavar=("KAFKA", "REDIS", "GATEWAY"),
                        default=[29192, 26479, 28100])
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    kafka, redis, gateway = args.ports
    if args.client == "c" and args.clients:
        parser.error("--client c reads in one process of its own: no --clients")
    print(f"machine: {machine()}; the sockets' client: {args.client}; {args.gateways} "
          f"gateway(s); read by {reading(args)}", flush=True)
    with tempfile.TemporaryDirectory() as tmp, running_stack(
            Path(tmp), kafka, redis, gateway, workers=1,
            extra_env={"TABLESERVER_CALLS_PER_SECOND": "100000"}) as stack, \
            contextlib.ExitStack() as more:
        assert stack.gateway is not None
        if args.client == "c":
            args.reader = compiled(READER_SOURCE, Path(tmp) / "feed_reader")
        if args.pair_floor:
            args.floor = compiled(FLOOR_SOURCE, Path(tmp) / "fanout_floor")
        procs = [stack.gateway, *(more.enter_context(gateway_process(
            stack, gateway + n, f"gateway-{n + 1}.log")) for n in range(1, args.gateways))]
        gateways = [Gateway(f"ws://127.0.0.1:{gateway + n}/api/tables", proc.pid)
                    for n, proc in enumerate(procs)]
        uvloop.run(run(args, stack.url, stack.director, f"redis://127.0.0.1:{redis}/0",
                       gateways))
        print_service_errors(Path(tmp))


if __name__ == "__main__":
    main()
