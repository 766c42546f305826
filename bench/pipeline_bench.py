"""Benchmark of the live pipeline: N tables calling at a steady rate through the gateway.

Starts its own Kafka, Redis, two processor workers and the gateway (tests/stack.py), creates
the tables, warms up under load (the JVM compiles Kafka's hot paths), then reports, in the same
run on the same broker:
- a bare aiokafka round trip (produce with acks=all → consume), p50/p99, twice: with the
  pipeline idle (the broker as fast as it gets), and side by side with the pipeline's load,
  at a tenth of its rate (the same machine under the same load);
- calls/s through the pipeline, and the latency from sending the call to the gateway to
  (a) the gateway's 202, (b) the new state in Redis, (c) the state pushed on a WebSocket feed;
- the issue's measure, from the call accepted (its 202 read by the caller: Kafka has
  acknowledged the event) to (b) and (c): the processor's part, one produce → consume (the
  event's copy) plus the fold and the Redis write, set beside the bare round trip's one;
- with `--play`, after the calls only, whole boards (the play): each table starts a board with
  a real record's deal and plays its auction, then its play card by card and the claim with
  both defenders' acceptance as the record has them (`bench/whole_boards.py`), so the load is
  calls and cards as a tournament makes them; after a lead-in (not measured) that spreads the
  tables over their boards, the same measures, kind by kind (calls, cards, claims), and a
  side-by-side table of the two windows: events/s, CPU per event over every process, p50/p99
  from the 202 to Redis and to the feed.
A table's events go one at a time, in order (a stalled gateway must not let a card overtake
the call before it). A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/pipeline_bench.py [--tables 1000] [--rate 500] [--seconds 20] [--play]
                                   [--follow 20] [--timeline] [--keep DIR]
                                   [--ports KAFKA REDIS GATEWAY] [--redis-cluster N]

With `--redis-cluster N`, Redis is a Redis Cluster of N primaries (deploy/redis/start.sh), the
services reading it as one; each node's CPU is reported.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop
import websockets
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from services.common.names import feed_key, state_key
from services.common.redis_connect import AnyRedis
from shared.notation import pbn_events
from shared.seats import board_dealer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.pipeline_clients import HttpConnection, IdleConnections, RoundTrip
from bench.pipeline_report import (
    LOAD_GENERATOR,
    Cpu,
    Window,
    by_kind,
    pct,
    print_side_by_side,
    print_timeline,
    report,
    since_accepted,
    spent,
)
from bench.whole_boards import CALL, CARD, CLAIM, Step, WholeBoard, spread, whole_boards
from tests.stack import running_stack

SEATS = "NESW"
RECORD = Path(__file__).resolve().parent.parent / "tests/data/realbridge-2021-online-qualifier.pbn"


def real_auctions() -> list[list[str]]:
    """The 279 complete auctions of a real online qualifier (4 to 27 calls, 10.8 on average),
    each ending with three passes (Law 22): the bench's tables play them board after board, so
    the load is calls as a tournament makes them, with no irregularity (alerts are tested, not
    timed here), and tables of different speeds start their boards at different moments."""
    auctions: list[list[str]] = []
    for event in pbn_events(RECORD.read_text()):
        if event["type"] == "board_started":
            auctions.append([])
        elif event["type"] == "call":
            auctions[-1].append(event["call"])
    return [calls for calls in auctions if len(calls) >= 4 and calls[-3:] == ["P"] * 3]


class Pipeline:
    def __init__(self, url: str, director: str, tables: int) -> None:
        self.http = httpx.AsyncClient(base_url=url, timeout=30,
                                      limits=httpx.Limits(max_connections=200))
        port = int(url.rsplit(":", 1)[1])
        self.idle = IdleConnections([HttpConnection(port) for _ in range(100)])
        self.director = director
        self.tables = [f"b{i}" for i in range(tables)]
        self.auctions = real_auctions()
        self.boards = whole_boards(RECORD)
        self.play = False  # whole boards (`play_whole_boards`), or calls only
        self.at = {table: (1, 0) for table in self.tables}  # table → (board, position) next
        self.seats: dict[str, dict[str, str]] = {}
        self.sent: dict[tuple[str, int], float] = {}  # (table, offset) → when it was sent
        self.accepted: dict[tuple[str, int], float] = {}  # … when its 202 was read
        self.kinds: dict[tuple[str, int], str] = {}  # … CALL, CARD or CLAIM
        self.locks: dict[str, asyncio.Lock] = {}  # table → held while its event is sent
        self.last: dict[str, int] = {}  # table → the offset of its last event accepted
        self.acked: list[tuple[float, float]] = []  # (when sent, how long to the 202)
        self.failed: list[str] = []  # calls that got no answer
        # (table, version) → when it was seen: matched with `sent` at the end, since a state
        # may land in Redis before the load generator has read the gateway's 202
        self.seen_on_feed: dict[tuple[str, int], float] = {}

    def latencies(self, seen: dict[tuple[str, int], float],
                  since: dict[tuple[str, int], float]) -> list[float]:
        """From `since` (sent or accepted) to `seen`, call by call; a state seen before the
        caller read its 202 counts as 0 from the acceptance (it was there already)."""
        return [max(0.0, when - since[key]) for key, when in seen.items() if key in since]

    async def setup(self) -> None:
        auth = {"Authorization": f"Bearer {self.director}"}

        async def one(table: str) -> None:
            response = await self.http.post("/api/tables", json={"table": table}, headers=auth)
            self.seats[table] = response.json()["seats"]
            (await self.http.post(f"/api/tables/{table}/boards", json={"board": 1},
                                  headers=auth)).raise_for_status()

        for start in range(0, len(self.tables), 50):
            await asyncio.gather(*(one(t) for t in self.tables[start:start + 50]))

    def auction(self, table: str, board: int) -> list[str]:
        """Board `b` at table `b<i>` plays auction `i + b` of the record."""
        return self.auctions[(int(table[1:]) + board) % len(self.auctions)]

    def next_step(self, table: str) -> tuple[dict[str, Any] | None, Step]:
        """The table's next event, and the board's start to send before it (None: none):
        calls only, the director starts the next board (its number only) before its first
        call; whole boards (`self.play`), before each board's first call, with the record's
        deal."""
        board, position = self.at[table]
        if self.play:
            script = self.whole_board(table, board)
            if position == len(script.steps):
                board, position = board + 1, 0
                script = self.whole_board(table, board)
            self.at[table] = (board, position + 1)
            start = {"board": board, **script.start} if position == 0 else None
            return start, script.steps[position]
        if position == len(self.auction(table, board)):
            board, position = board + 1, 0
        self.at[table] = (board, position + 1)
        seat = SEATS[(board_dealer(board).value + position) % 4]
        body = json.dumps({"type": "call", "call": self.auction(table, board)[position]})
        return ({"board": board} if position == 0 and board > 1 else None,
                Step(CALL, body.encode(), seat))

    def whole_board(self, table: str, board: int) -> WholeBoard:
        """Board `b` at table `b<i>` plays whole board `i + b` of the record."""
        return self.boards[(int(table[1:]) + board) % len(self.boards)]

    def play_whole_boards(self) -> dict[str, int]:
        """From now on each table plays whole boards, from a new board; returns how many
        events of it each table sends before the measure, so that the tables are spread over
        their boards as in a tournament (table `b<i>`: a share `i / tables` of its board's)."""
        self.play = True
        ahead = {}
        for i, table in enumerate(self.tables):
            board = self.at[table][0] + 1
            self.at[table] = (board, 0)
            share = i * 617 % len(self.tables)  # a permutation: the followed tables spread too
            ahead[table] = len(self.whole_board(table, board).steps) * share // len(self.tables)
        return ahead

    async def send(self, table: str) -> None:
        """The table's next event, after its event before has had its answer: while the
        gateway stalls, waiting for a free connection would otherwise let a table's later
        event overtake its earlier one (a card before the call that ends the auction)."""
        async with self.locks.setdefault(table, asyncio.Lock()):  # its waiters in turn
            await self.send_next(table)

    async def send_next(self, table: str) -> None:
        start, step = self.next_step(table)
        connection = await self.idle.take()
        started = time.time()  # the clock Redis stamps stream entries with (same machine)
        try:
            if start is not None:
                status, body = await connection.post(
                    f"/api/tables/{table}/boards", json.dumps(start).encode(), self.director)
                if status != 202:
                    self.failed.append(f"board {start['board']} at {table}: {status} {body!r}")
                started = time.time()
            status, body = await connection.post(f"/api/tables/{table}/events", step.body,
                                                 self.seats[table][step.seat])
        except (OSError, asyncio.IncompleteReadError) as exc:  # counted, not retried
            self.failed.append(repr(exc))
            self.idle.give(HttpConnection(connection.port))
            return
        took = time.time() - started
        self.acked.append((started, took))
        self.idle.give(connection)
        if status == 202:
            key = (table, json.loads(body)["offset"])
            self.sent[key] = started
            self.accepted[key] = started + took
            self.kinds[key] = step.kind
            self.last[table] = key[1]
        else:
            self.failed.append(f"{step.kind} at {table}: {status} {body!r}")

    async def settled(self, redis: AnyRedis, timeout: float) -> float:
        """Waits until every table's state in Redis has folded its last event accepted (at
        most `timeout` s); returns how long it took."""
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            async with redis.pipeline(transaction=False) as pipe:
                for table in self.tables:
                    pipe.hget(state_key(table), "version")
                versions = await pipe.execute()
            if all(int(v or -1) >= self.last.get(t, -1)
                   for t, v in zip(self.tables, versions, strict=True)):
                break
            await asyncio.sleep(0.5)
        return time.perf_counter() - started

    async def in_redis(self, redis: AnyRedis) -> dict[tuple[str, int], float]:
        """(table, offset) → when in Redis, of each call, read after the load: the
        processor's script writes the state and appends it to the table's feed stream in one
        step, and Redis names a stream entry by its own clock's millisecond (+1 ms here, so
        never too early). Watching 1,000 streams live would cost the load generator and
        Redis more CPU than the tables' calls do."""
        async with redis.pipeline(transaction=False) as pipe:
            for table in self.tables:
                pipe.xrange(feed_key(table))
            feeds = await pipe.execute()
        landed = {}
        for table, entries in zip(self.tables, feeds, strict=True):
            for entry_id, fields in entries:
                key = (table, int(fields[b"version"]))
                if key in self.sent:
                    landed[key] = (int(entry_id.split(b"-")[0]) + 1) / 1000
        return landed

    async def watch_feed(self, url: str, table: str, stop: asyncio.Event) -> None:
        token = self.seats[table]["N"]
        async with websockets.connect(f"{url}/api/tables/{table}/feed?token={token}&since=$"
                                      ) as ws:
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                self.seen_on_feed.setdefault((table, message["version"]), time.time())


def stolen_seconds() -> float:
    """CPU time the hypervisor gave to others while this VM wanted it (Linux /proc/stat)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    return int(fields[8]) / os.sysconf("SC_CLK_TCK")


async def sample_cpu(pids: dict[str, int], timeline: list[dict[str, float]]) -> None:
    """Each second, the share of a core each process used in that second, and the share
    stolen from the VM by its host (the VM's slow phases)."""
    def now() -> dict[str, float]:
        return {**{name: cpu_seconds(pid) for name, pid in pids.items()},
                "stolen": stolen_seconds()}

    before = now()
    while True:
        await asyncio.sleep(1)
        after = now()
        timeline.append({name: after[name] - before[name] for name in after})
        before = after


def redis_pids(data: Path) -> dict[str, int]:
    """The Redis server's pid, or each cluster node's (deploy/redis/start.sh's pidfiles)."""
    nodes = sorted((data / "redis-cluster").glob("*/redis.pid"))
    if not nodes:
        return {"redis": int((data / "redis" / "redis.pid").read_text())}
    return {f"redis {pid.parent.name}": int(pid.read_text()) for pid in nodes}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Runner:
    """The load at a steady rate, and its measured windows."""

    def __init__(self, args: argparse.Namespace, pipeline: Pipeline, bootstrap: str,
                 redis: AnyRedis, pids: dict[str, int]) -> None:
        self.args, self.pipeline, self.bootstrap = args, pipeline, bootstrap
        self.redis, self.pids = redis, pids
        self.turn = 0  # the next table in turn, round the tables
        self.bare: list[float] = []

    async def load(self, seconds: float, order: list[str] | None = None,
                   rate: float | None = None) -> float:
        """An event at the rate for `seconds` (or until `order`, the tables in the order to
        send, is done), the tables in turn unless `order`; returns how long it really took."""
        rate = rate or self.args.rate
        pending: set[asyncio.Task[None]] = set()
        started = time.perf_counter()
        sent = 0
        while time.perf_counter() - started < seconds:
            if order is None:
                table = self.pipeline.tables[self.turn % len(self.pipeline.tables)]
                self.turn += 1
            elif sent < len(order):
                table = order[sent]
            else:
                break
            task = asyncio.create_task(self.pipeline.send(table))
            pending.add(task)
            task.add_done_callback(pending.discard)
            sent += 1
            await asyncio.sleep(max(0.0, started + sent / rate - time.perf_counter()))
        await asyncio.gather(*pending)
        return time.perf_counter() - started

    def cpu_now(self) -> dict[str, float]:
        return {name: cpu_seconds(pid) for name, pid in self.pids.items()}

    async def second_half_beside(self, side: RoundTrip, halfway: dict[str, float]
                                 ) -> list[float]:
        """The bare round trip at a tenth of the rate over the window's second half;
        `halfway` gets each process's CPU time and the clock when it starts."""
        await asyncio.sleep(self.args.seconds / 2)
        halfway.update(self.cpu_now(), at=time.time())
        return await side.run(self.args.rate * self.args.seconds // 20, self.args.rate / 10)

    def forget(self) -> None:
        """The events sent so far are not measured."""
        pipeline = self.pipeline
        for measured in (pipeline.sent, pipeline.accepted, pipeline.kinds,
                         pipeline.seen_on_feed):
            measured.clear()
        pipeline.acked.clear()
        pipeline.failed.clear()

    async def window(self, mode: str) -> Window:
        """One measured window of `args.seconds`, beside a bare round trip at a tenth of
        the rate; its figures printed, and returned."""
        args, pipeline = self.args, self.pipeline
        self.forget()
        side = RoundTrip(self.bootstrap)
        await side.start()
        cpu_before = self.cpu_now()
        cpu_timeline: list[dict[str, float]] = []
        halfway: dict[str, float] = {}
        beside = asyncio.create_task(self.second_half_beside(side, halfway))
        load_started = time.time()
        sampler = (asyncio.create_task(sample_cpu(self.pids, cpu_timeline)) if args.timeline
                   else None)
        elapsed = await self.load(args.seconds)
        if sampler is not None:
            sampler.cancel()
        cpu_after = self.cpu_now()
        bare_loaded = await beside
        await asyncio.sleep(3)
        in_redis = await pipeline.in_redis(self.redis)
        accepted = len(pipeline.sent)
        kinds = {kind: sum(k == kind for k in pipeline.kinds.values())
                 for kind in (CALL, CARD, CLAIM)}
        print(f"  {accepted} events accepted in {elapsed:.1f} s: {accepted / elapsed:.0f}/s ("
              + ", ".join(f"{n} {kind}s" for kind, n in kinds.items() if n) + ")"
              + (f"; {len(pipeline.failed)} without an answer or refused "
                 f"({pipeline.failed[0]})" if pipeline.failed else ""))
        print("  " + report("event → gateway 202", [took for _, took in pipeline.acked]))
        to_redis = {name: pipeline.latencies(in_redis, since)
                    for name, since in (("accepted", pipeline.accepted),
                                        ("sent", pipeline.sent))}
        print("  " + report("event sent → state in Redis", to_redis["sent"]))
        followed = f"{self.args.follow} tables"
        print("  " + report(f"event sent → pushed on the feed ({followed})",
                            pipeline.latencies(pipeline.seen_on_feed, pipeline.sent)))
        print("  " + report("event accepted (202) → state in Redis", to_redis["accepted"]))
        print("  " + report(f"event accepted (202) → pushed on the feed ({followed})",
                            pipeline.latencies(pipeline.seen_on_feed, pipeline.accepted)))
        early = sum(landed < pipeline.accepted[key] for key, landed in in_redis.items())
        print(f"  {early} states were in Redis before the caller read the 202 "
              "(counted as 0 ms)")
        # CPU time is steadier than latency on a VM that runs in slow and fast phases: it
        # says where each event's cost goes, and whether a change made a part cheaper. The
        # first half is the pipeline's alone; in the second the bare round trip runs beside
        # it, and the broker's CPU is the two loads'.
        first = sum(sent < halfway["at"] for sent in pipeline.sent.values())
        halves = [Cpu("the pipeline alone", spent(cpu_before, halfway), first),
                  Cpu("beside the bare round trip", spent(halfway, cpu_after),
                      accepted - first)]
        cores = os.cpu_count() or 1
        for half, which in zip(halves, ("first", "second"), strict=True):
            share = 100 * sum(half.seconds.values()) / (elapsed / 2) / cores
            print(f"  CPU per event accepted, {which} half ({half.what}, {half.events} "
                  "events): " + ", ".join(f"{name} {ms:.2f} ms"
                                          for name, ms in half.per_event().items())
                  + f"; the services {half.services_ms():.2f} ms; all {share:.0f}% of the "
                  f"{cores} cores")
        print("  " + report("bare produce → consume beside the load (the second half)",
                            bare_loaded))
        if args.timeline:
            print_timeline(pipeline, in_redis, load_started, cpu_timeline)
        for name, latencies in to_redis.items():
            p99 = pct(latencies or [0.0], 0.99)
            print(f"  p99 event {name} → Redis is {p99 / pct(self.bare, 0.99):.1f}× the bare "
                  f"round trip's p99 with the pipeline idle, "
                  f"{p99 / pct(bare_loaded, 0.99):.1f}× beside the load (target: 3×)")
        took = {key: pipeline.accepted[key] - sent for key, sent in pipeline.sent.items()}
        return Window(mode, kinds, elapsed, halves, by_kind(pipeline, took),
                      by_kind(pipeline, since_accepted(pipeline, in_redis)),
                      by_kind(pipeline, since_accepted(pipeline, pipeline.seen_on_feed)),
                      bare_loaded)


async def run(args: argparse.Namespace, bootstrap: str, url: str, director: str,
              redis_url: str, pids: dict[str, int]) -> None:
    pipeline = Pipeline(url, director, args.tables)
    print(f"creating {args.tables} tables …", flush=True)
    await pipeline.setup()
    redis: AnyRedis = RedisCluster.from_url(redis_url) if args.redis_cluster \
        else Redis.from_url(redis_url)
    stop = asyncio.Event()
    ws_url = url.replace("http://", "ws://")
    watchers = [asyncio.create_task(pipeline.watch_feed(ws_url, t, stop))
                for t in pipeline.tables[:args.follow]]
    await asyncio.sleep(1)
    runner = Runner(args, pipeline, bootstrap, redis, pids)
    if args.warmup:
        print(f"warming up (the JVM compiles Kafka's hot paths) for {args.warmup} s …",
              flush=True)
        await runner.load(args.warmup)
        await asyncio.sleep(2)
    # After the warm-up, with the pipeline idle: the broker as fast as it gets, so the
    # comparison is the strictest one.
    print("bare aiokafka round trip (acks=all, idempotent producer → consumer) …", flush=True)
    idle = RoundTrip(bootstrap)
    await idle.start()
    runner.bare = await idle.run(min(5000, args.rate * 10), args.rate)  # 10 s
    print("  " + report("produce → consume", runner.bare), flush=True)
    print(f"calls only: calling at {args.rate} calls/s over {args.tables} tables for "
          f"{args.seconds} s …", flush=True)
    windows = [await runner.window("calls only")]
    if args.play:
        ahead = pipeline.play_whole_boards()
        order = spread(ahead)
        print(f"whole boards: each table starts one and plays into it ({len(order)} events at "
              f"{args.rate}/s, not measured: the tables spread over their boards) …",
              flush=True)
        await runner.load(3600, order)
        waited = await pipeline.settled(redis, 60)
        print(f"  {len(pipeline.failed)} refused or without an answer"
              + (f" ({pipeline.failed[0]})" if pipeline.failed else "")
              + f"; every state in Redis {waited:.1f} s after the last", flush=True)
        await asyncio.sleep(2)
        print(f"whole boards: {args.rate} events/s (calls, cards, claims) over {args.tables} "
              f"tables for {args.seconds} s …", flush=True)
        windows.append(await runner.window("whole boards"))
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    alerts = (await pipeline.http.get("/api/alerts?count=1000", headers={
        "Authorization": f"Bearer {director}"})).json()["alerts"]
    await pipeline.http.aclose()
    await redis.aclose()
    print(f"director alerts: {len(alerts)}{'+' if len(alerts) == 1000 else ''} "
          "(the load makes no irregularity)")
    if args.play:
        print_side_by_side(windows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=int, default=500)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--warmup", type=int, default=20, help="seconds of load first")
    parser.add_argument("--play", action="store_true",
                        help="after the calls only, whole boards: the auction, then the play "
                        "card by card and the claim, as the record has them; both reported")
    parser.add_argument("--follow", type=int, default=20,
                        help="tables whose feed a socket follows (North's view), for the "
                        "latency to the feed")
    parser.add_argument("--timeline", action="store_true",
                        help="print the measured window second by second")
    parser.add_argument("--keep", type=Path, help="run in this directory and keep its logs")
    parser.add_argument("--ports", type=int, nargs=3, metavar=("KAFKA", "REDIS", "GATEWAY"),
                        default=[29092, 26379, 28000])
    parser.add_argument("--redis-cluster", type=int, default=0, metavar="N",
                        help="Redis as a cluster of N primaries (3 or more) on ports REDIS…")
    args = parser.parse_args()
    cluster = {"TABLESERVER_REDIS_CLUSTER": str(args.redis_cluster),
               "TABLESERVER_REDIS_BUS_PORT": ""} if args.redis_cluster else {}
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    with (contextlib.nullcontext(str(args.keep)) if args.keep
          else tempfile.TemporaryDirectory()) as tmp, running_stack(
            Path(tmp), *args.ports, workers=args.workers,
            extra_env={"TABLESERVER_SHARDS": str(args.shards), **cluster}) as stack:
        time.sleep(8)  # the workers join the group and take their shards
        assert stack.gateway is not None
        pids = {"gateway": stack.gateway.pid,
                **{f"worker {name}": proc.pid for name, proc in stack.workers.items()},
                "kafka": int((Path(tmp) / "kafka" / "kafka.pid").read_text()),
                **redis_pids(Path(tmp)),
                LOAD_GENERATOR: os.getpid()}
        # uvloop, as the gateway and the workers: the load generator shares their two cores
        uvloop.run(run(args, stack.bootstrap, stack.url, stack.director,
                       f"redis://127.0.0.1:{args.ports[1]}/0", pids))
        print_service_errors(Path(tmp))


def print_service_errors(data: Path) -> None:
    """What went wrong in the services during a bench, if anything: from their logs."""
    for log in sorted(data.glob("*.log")):
        errors = [line for line in log.read_text(errors="replace").splitlines()
                  if "Traceback" in line or "ERROR" in line or "WARNING" in line]
        if errors:
            print(f"  {log.name}: {len(errors)} warnings or errors, the first: {errors[0]}")


if __name__ == "__main__":
    main()
