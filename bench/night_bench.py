"""The Funbridge night (docs/performance.md): `--tables` tables created as tournaments through the
gateway, played at a human pace, with spectators and the director's console open.

Starts its own stack (Kafka, Redis, `--workers` processor workers, the gateway:
tests/stack.py); creates the tables as tournaments, at once, on the record's ten deals (one
tournament holds at most 2,000 tables, the gateway's limit, so 3,750 are two); starts board 1
at every table by one round a tournament (`--setup round`: each table the deal of the whole
board it plays) or a request a table (`--setup boards`), and prints the set-up's time from the
first request until every table's state in Redis shows its board, with each request's steps as
the gateway timed them (`steps_s`); then every table plays whole boards of a real record
(`bench/whole_boards.py`: each next board started by the director with the record's deal, its
auction, its play card by card, the claim and both defenders' acceptance), one event at a
time per table, each table's next event `--pace` s after its last (the tables in turn: tables /
pace events a second). Beside the play:
`--spectators` raw feed sockets spread over the tables (`--final` of them on the first table,
the "final"), North's feed at `--follow` tables (the latency to a player's feed), and the
director's console: the alerts feed open and each tournament's overview read every
`--overview` s. After `--warmup` s, a window of `--seconds`, which reports:
- events/s asked and held (accepted: the gateway's 202);
- CPU ms per event by process (gateway, each worker, Kafka, Redis, the bench's own) and the
  resident memory of each;
- p50/p99 from the send to the 202, to the state in Redis, to North's feed, to a spectator's
  feed, and the overview's read;
- the Kafka partitions (topics × partitions);
and at the end, over the whole run, nothing lost: every table's last event acknowledged (its
202's offset) against the version of its state in Redis: every acknowledged event folded, the
version the last offset; a count of the tables where they differ.
A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/night_bench.py [--tables 3750] [--pace 6] [--spectators 2000]
                                [--setup round|boards] [--seconds 60] [--warmup 30]
                                [--workers 2] [--gateways 1] [--shards 8] [--keep DIR]
                                [--ports 28892 28879 28800]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop
from aiokafka.admin import AIOKafkaAdminClient
from redis.asyncio import Redis

from services.common.names import state_key

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.feed_bench import rss_bytes
from bench.night_spectators import Console, Spectators
from bench.pipeline_bench import Pipeline, cpu_seconds, print_service_errors
from bench.pipeline_clients import HttpConnection, IdleConnections
from bench.pipeline_report import report
from bench.stack_args import add_stack_options, bench_stack, machine
from bench.tournament_bench import post_until_taken, retries
from bench.whole_boards import CALL, CARD, CLAIM, Step, WholeBoard
from tests.stack import gateway_process

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 24092, 24379, 24000
PER_TOURNAMENT = 2000  # the gateway's limit on a tournament's tables


class Night(Pipeline):
    """The tables of the night's tournaments, each playing whole boards in turn."""

    def __init__(self, url: str, director: str, connections: int, gateways: int = 1) -> None:
        super().__init__(url, director, 0)
        port = int(url.rsplit(":", 1)[1])  # the gateways' ports: port, port + 1, …
        self.idle = IdleConnections([HttpConnection(port + n % gateways)
                                     for n in range(connections)])
        self.play = True
        self.index: dict[str, int] = {}  # table → its place among all the night's tables
        self.spectator: dict[str, str] = {}  # table → the spectators' token
        self.tournaments: list[str] = []
        self.deals, self.number = record_deals(self.boards)  # each whole board's number
        self.director_http = httpx.AsyncClient(
            base_url=url, timeout=900, headers={"Authorization": f"Bearer {director}"})

    async def create(self, tables: int, setup: str, redis: Redis) -> None:
        """The tournaments, at most `PER_TOURNAMENT` tables each, created at once (their deals
        the record's whole boards, `record_deals`); then board 1 started at every table: by
        one round a tournament (`setup` "round": `POST /api/tournaments/{t}/rounds`, each
        table its own whole board as the round's one board), or one `POST
        /api/tables/{t}/boards` a table (`setup` "boards", 50 in flight), each sent again
        after a 503. Timed from the first request until every table's state in Redis shows
        its board; each request's steps printed as the gateway timed them (`steps_s`)."""
        began = time.perf_counter()
        deals = self.deals
        counts = {f"night{first // PER_TOURNAMENT + 1}": min(PER_TOURNAMENT, tables - first)
                  for first in range(0, tables, PER_TOURNAMENT)}
        made = await asyncio.gather(*(post_until_taken(
            self.director_http, "/api/tournaments",
            {"tournament": name, "name": "The Funbridge night", "tables": count,
             "deals": deals, "site": "bench", "date": "2026.11.25"})
            for name, count in counts.items()))
        for name, (response, took, unavailable) in zip(counts, made, strict=True):
            answer: dict[str, Any] = response.json()
            for line in answer["tables"]:
                self.index[line["table"]] = len(self.tables)
                self.tables.append(line["table"])
                self.seats[line["table"]] = line["seats"]
                self.spectator[line["table"]] = line["spectator"]
            self.tournaments.append(name)
            print(f"tournament {name}: {counts[name]} tables created in {took:.1f} s"
                  f"{retries(unavailable)}; {steps(answer)}", flush=True)
        created = time.perf_counter()
        self.at = {table: (1, 0) for table in self.tables}
        refused = await (self.first_round() if setup == "round" else self.first_boards())
        asked = time.perf_counter()
        took = await folded(redis, self.tables)
        print(f"board 1 started at {len(self.tables)} tables {time.perf_counter() - began:.1f} s "
              f"after the first request (its state in Redis): the tournaments created in "
              f"{created - began:.1f} s, board 1 asked ({setup}) in {asked - created:.1f} s, "
              f"folded after that: a tenth of the tables {took[len(took) // 10]:.1f} s, half "
              f"{took[len(took) // 2]:.1f} s, all {took[-1]:.1f} s"
              + (f"; {len(refused)} refused ({refused[0]})" if refused else ""), flush=True)

    async def first_round(self) -> list[str]:
        """Round 1 at each tournament's tables at once: each table's board 1 its whole board."""
        async def round_one(tournament: str) -> None:
            movement = {table: [self.number[(self.index[table] + 1) % len(self.boards)]]
                        for table in self.tables if self.tournament_of(table) == tournament}
            response, took, unavailable = await post_until_taken(
                self.director_http, f"/api/tournaments/{tournament}/rounds",
                {"round": 1, "movement": movement})
            print(f"round 1 of {tournament}: {response.json()['tables']} tables in {took:.1f} s"
                  f"{retries(unavailable)}; {steps(response.json())}", flush=True)

        await asyncio.gather(*(round_one(tournament) for tournament in self.tournaments))
        return []

    async def first_boards(self) -> list[str]:
        """Board 1 at every table, a request a table, 50 in flight (sent again after a 503:
        a new topic may have no leader yet); the refusals."""
        gate = asyncio.Semaphore(50)
        refused: list[str] = []

        async def first_board(table: str) -> None:
            async with gate:
                try:
                    await post_until_taken(self.director_http, f"/api/tables/{table}/boards",
                                           {"board": 1, **self.whole_board(table, 1).start})
                except httpx.HTTPError as exc:
                    refused.append(f"{table}: {exc!r}")

        await asyncio.gather(*(first_board(table) for table in self.tables))
        return refused

    def tournament_of(self, table: str) -> str:
        return f"night{self.index[table] // PER_TOURNAMENT + 1}"

    def whole_board(self, table: str, board: int) -> WholeBoard:
        return self.boards[(self.index[table] + board) % len(self.boards)]

    def next_step(self, table: str) -> tuple[dict[str, Any] | None, Step]:
        """As whole boards go, but board 1, started at the creation."""
        start, step = super().next_step(table)
        return (None if start is not None and start["board"] == 1 else start), step

    def forget(self) -> None:
        """The events sent so far are not measured (each table's last offset is kept)."""
        for measured in (self.sent, self.accepted, self.kinds, self.seen_on_feed):
            measured.clear()
        self.acked.clear()
        self.failed.clear()


def record_deals(boards: list[WholeBoard]) -> tuple[str, list[int]]:
    """The record's deals as a dealing program's PBN file (each deal with its dealer and
    vulnerability once, numbered from 1 in the record's order: a few dozen boards, as a
    night's, each solved once for the hand records), and each whole board's number there."""
    tags = {"dealer": "Dealer", "vulnerability": "Vulnerable", "deal": "Deal"}
    numbers: dict[str, int] = {}
    for board in boards:
        pbn = "".join(f'[{tag} "{board.start[key]}"]\n' for key, tag in tags.items())
        numbers.setdefault(pbn, len(numbers) + 1)
    of_board = [numbers["".join(f'[{tag} "{board.start[key]}"]\n'
                                for key, tag in tags.items())] for board in boards]
    return "\n".join(f'[Board "{n}"]\n{pbn}' for pbn, n in numbers.items()), of_board


def steps(answer: dict[str, Any]) -> str:
    """A tournament request's steps as the gateway timed them (`steps_s`)."""
    return ", ".join(f"{name} {seconds:.2f} s"
                     for name, seconds in answer.get("steps_s", {}).items()) or "no steps"


async def folded(redis: Redis, tables: list[str]) -> list[float]:
    """Until every table's state is in Redis (its first event folded); the seconds each
    table's took, in order."""
    began = time.perf_counter()
    took: list[float] = []
    waiting = tables
    while waiting:
        async with redis.pipeline(transaction=False) as pipe:
            for table in waiting:
                pipe.hget(state_key(table), "version")
            versions = await pipe.execute()
        still = [t for t, v in zip(waiting, versions, strict=True) if v is None]
        took += [time.perf_counter() - began] * (len(waiting) - len(still))
        waiting = still
        if waiting:
            await asyncio.sleep(0.1)
    return took


class Load:
    """Each table's next event `pace` s after its last, the tables in turn."""

    def __init__(self, night: Night, pace: float) -> None:
        self.night, self.pace = night, pace
        self.turn = 0
        self.pending: set[asyncio.Task[None]] = set()

    @property
    def rate(self) -> float:
        return len(self.night.tables) / self.pace

    async def run(self, seconds: float) -> float:
        started = time.perf_counter()
        sent = 0
        tables = self.night.tables
        while time.perf_counter() - started < seconds:
            task = asyncio.create_task(self.night.send(tables[self.turn % len(tables)]))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)
            self.turn += 1
            sent += 1
            await asyncio.sleep(max(0.0, started + sent / self.rate - time.perf_counter()))
        return time.perf_counter() - started


async def partitions(bootstrap: str) -> dict[str, int]:
    """The broker's topics, each with its number of partitions."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        topics = sorted(await admin.list_topics())
        found: dict[str, int] = {}
        for first in range(0, len(topics), 500):
            for topic in await admin.describe_topics(topics[first:first + 500]):
                found[topic["topic"]] = len(topic["partitions"])
        return found
    finally:
        await admin.close()


async def unfolded(night: Night, redis: Redis) -> tuple[int, int]:
    """Tables whose state's version is not their last acknowledged event's offset, of the
    tables that had an event acknowledged."""
    tables = [table for table in night.tables if table in night.last]
    async with redis.pipeline(transaction=False) as pipe:
        for table in tables:
            pipe.hget(state_key(table), "version")
        versions = await pipe.execute()
    return sum(int(v or -1) != night.last[t] for t, v in zip(tables, versions, strict=True)), \
        len(tables)


async def run(args: argparse.Namespace, url: str, director: str, bootstrap: str,
              redis_url: str, pids: dict[str, int]) -> None:
    night = Night(url, director, args.connections, args.gateways)
    redis = Redis.from_url(redis_url)
    await night.create(args.tables, args.setup, redis)
    ws = url.replace("http://", "ws://")
    host, port = ws.rsplit(":", 1)
    served = [f"{host}:{int(port) + n}" for n in range(args.gateways)]  # as a balancer would
    stop = asyncio.Event()
    spectators = Spectators()
    limit = asyncio.Semaphore(200)
    places = [night.tables[0]] * min(args.final, args.spectators) + [
        night.tables[1 + i % (len(night.tables) - 1)]
        for i in range(args.spectators - args.final)]
    began = time.perf_counter()
    sockets = await asyncio.gather(*(spectators.watch(served[i % len(served)], table,
                                                      night.spectator[table], limit)
                                     for i, table in enumerate(places)))
    print(f"{len(sockets)} spectators' sockets open in {time.perf_counter() - began:.1f} s "
          f"({min(args.final, args.spectators)} on the final, {night.tables[0]})", flush=True)
    followed = random.Random(30).sample(night.tables, min(args.follow, len(night.tables)))
    console = Console(night.director_http, night.tournaments, args.overview)
    watchers = [asyncio.create_task(night.watch_feed(ws, table, stop)) for table in followed]
    watchers += [asyncio.create_task(console.overviews(stop)),
                 asyncio.create_task(console.alerts_feed(ws, director, stop))]
    load = Load(night, args.pace)
    print(f"warm-up: {load.rate:.0f} events/s asked ({len(night.tables)} tables, an event "
          f"every {args.pace} s at each) for {args.warmup} s …", flush=True)
    await load.run(args.warmup)
    night.forget()
    console.forget()
    spectators.seen.clear()
    cpu_before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    print(f"measured: {args.seconds} s at the same pace …", flush=True)
    elapsed = await load.run(args.seconds)
    cpu = {name: cpu_seconds(pid) - cpu_before[name] for name, pid in pids.items()}
    memory = {name: rss_bytes(pid) for name, pid in pids.items()}
    load_after = os.getloadavg()
    behind = len(load.pending)
    await asyncio.gather(*load.pending)
    waited = await night.settled(redis, 120)
    await asyncio.sleep(1)
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    in_redis = await night.in_redis(redis)
    accepted = len(night.sent)
    kinds = {kind: sum(k == kind for k in night.kinds.values()) for kind in (CALL, CARD, CLAIM)}
    print(f"  asked {load.rate:.0f} events/s; held {accepted / elapsed:.0f}/s: {accepted} "
          f"accepted in {elapsed:.1f} s (" + ", ".join(f"{n} {k}s" for k, n in kinds.items())
          + f"); {behind} events still unanswered at the window's end"
          + (f"; {len(night.failed)} refused or unanswered ({night.failed[0]})"
             if night.failed else ""), flush=True)
    print(f"  load average at the window's end {' '.join(f'{x:.2f}' for x in load_after)}")
    print("  CPU per event accepted: " + ", ".join(
        f"{name} {1000 * s / max(accepted, 1):.2f} ms" for name, s in cpu.items())
        + f"; all {1000 * sum(cpu.values()) / max(accepted, 1):.2f} ms, "
        f"{100 * sum(cpu.values()) / elapsed / (os.cpu_count() or 1):.0f}% of the "
        f"{os.cpu_count()} cores")
    print("  resident memory: " + ", ".join(f"{name} {rss / 2**20:.0f} MB"
                                            for name, rss in memory.items()))
    print("  " + report("event sent → gateway 202", [took for _, took in night.acked]))
    print("  " + report("event sent → state in Redis", night.latencies(in_redis, night.sent)))
    print("  " + report("event accepted (202) → state in Redis",
                        night.latencies(in_redis, night.accepted)))
    print("  " + report(f"event sent → North's feed ({len(followed)} tables)",
                        night.latencies(night.seen_on_feed, night.sent)))
    print("  " + report(f"event sent → a spectator's feed ({len(sockets)} sockets)",
                        night.latencies(spectators.seen, night.sent)))
    print(f"  spectators: {spectators.received} updates received"
          + (f"; closed by the gateway (code: sockets) {dict(spectators.closed)}"
             if spectators.closed else ""))
    print("  " + report(f"director's overview GET ({console.size / 1000:.0f} kB)",
                        console.reads)
          + f"; alerts on the feed: {console.alerts}"
          + (f"; {len(console.errors)} failed ({console.errors[0]})" if console.errors else ""))
    found = await partitions(bootstrap)
    print(f"  Kafka: {len(found)} topics, {sum(found.values())} partitions")
    wrong, tables = await unfolded(night, redis)
    print(f"nothing lost: every state in Redis {waited:.1f} s after the last event; of "
          f"{tables} tables, {wrong} whose state's version is not its last acknowledged "
          "offset (0: every acknowledged event folded)", flush=True)
    for socket in sockets:
        if socket.transport is not None:
            socket.transport.close()
    await night.http.aclose()
    await night.director_http.aclose()
    await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=3750)
    parser.add_argument("--pace", type=float, default=6.0,
                        help="seconds between a table's events")
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--final", type=int, default=20, help="spectators on the final table")
    parser.add_argument("--follow", type=int, default=20, help="tables whose North's feed "
                        "a socket follows")
    parser.add_argument("--overview", type=float, default=5.0,
                        help="seconds between the director's overview reads")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--setup", choices=["round", "boards"], default="round",
                        help="board 1 started by a round a tournament, or a request a table")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--gateways", type=int, default=1,
                        help="gateway processes (stateless replicas), the events and "
                        "spectators spread over them: on 2 cores two cost more CPU an event "
                        "than one (each reads the feeds and Redis itself) and the tails grow")
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--connections", type=int, default=300,
                        help="the bench's HTTP connections to the gateway")
    add_stack_options(parser, [KAFKA_PORT, REDIS_PORT, GATEWAY_PORT])
    args = parser.parse_args()
    with bench_stack(args, args.workers, args.shards) as stack, contextlib.ExitStack() as more:
        assert stack.gateway is not None
        more_gateways = [more.enter_context(gateway_process(
            stack, args.ports[2] + n, f"gateway-{n + 1}.log")) for n in range(1, args.gateways)]
        time.sleep(8)  # the workers join the group and take their shards
        pids = {"gateway": stack.gateway.pid,
                **{f"gateway {n + 2}": proc.pid for n, proc in enumerate(more_gateways)},
                **{f"worker {name}": proc.pid for name, proc in stack.workers.items()},
                "kafka": int((stack.data / "kafka" / "kafka.pid").read_text()),
                "redis": int((stack.data / "redis" / "redis.pid").read_text()),
                "bench": os.getpid()}
        uvloop.run(run(args, stack.url, stack.director, stack.bootstrap,
                       f"redis://127.0.0.1:{args.ports[1]}/0", pids))
        print(f"machine after: {machine()}")
        print_service_errors(stack.data)


if __name__ == "__main__":
    main()
