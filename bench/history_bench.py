"""Benchmark of `GET /api/tables/{t}/history` under many readers (docs/performance.md).

Starts its own stack (Kafka, Redis, a processor worker, the gateway: tests/stack.py), creates
`--tables` tables through the gateway and appends `--events` events to each table's topic
(generated boards: a deal, a legal auction, an irregularity on about one board in ten), waits
until the processor has folded them all (a quiet machine), then measures:
- reads alone: `--alone` reads one after the other, each of a table nobody read yet, and the
  same tables read again (nothing new on their topics);
- the issue's scenario: a read by every seat of every table (`--tables` × 4 reads), at most
  `--concurrency` in flight, in a shuffled order: p50, p95 and max, the answers by status;
- the same again after one more event on every table (each table's topic has moved on).
Every answer is checked against a replay of its topic, as its seat may see it (the pure
history, `services.replay.history`, filtered by `services.gateway.tables.views`).

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/history_bench.py [--tables 100] [--events 100] [--concurrency 50]
                                  [--alone 20] [--keep DIR] [--ports 27092 27379 27000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from aiokafka import AIOKafkaProducer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.fold_bench import generate
from bench.pipeline_bench import cpu_seconds, print_service_errors
from bench.stack_args import add_stack_options, bench_stack, machine
from services.common.kafka.reader import read_topics
from services.common.names import table_topic
from services.gateway.tables.views import board_for, entry_for
from services.gateway.tokens import Grant
from services.replay.history import build_history
from shared.codec import encode, from_map

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 27092, 27379, 27000
SEATS = "NESW"
DEALS = ["N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6",
         "N:AKQ2.KJ3.842.A74 JT98.Q876.AK5.32 7543.T.JT63.T985 6.A9542.Q97.KQJ6"]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table_log(count: int, seed: int) -> list[dict[str, Any]]:
    """`count` events of generated boards, each board dealt."""
    events = generate(count, seed)
    for event in events:
        if event["type"] == "board_started":
            event["deal"] = DEALS[event["board"] % 2]
    return events


async def create_tables(http: httpx.AsyncClient, names: list[str]) -> dict[str, dict[str, str]]:
    """The seats' tokens of each table, created through the gateway (ten at a time)."""
    gate = asyncio.Semaphore(10)

    async def one(name: str) -> tuple[str, dict[str, str]]:
        async with gate:
            response = await http.post("/api/tables", json={"table": name})
            response.raise_for_status()
            return name, dict(response.json()["seats"])

    return dict(await asyncio.gather(*(one(name) for name in names)))


async def append(bootstrap: str, logs: dict[str, list[dict[str, Any]]]) -> None:
    """Each table's events appended to its topic, as the gateway appends them."""
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all",
                                enable_idempotence=True, linger_ms=5)
    await producer.start()
    try:
        futures = [await producer.send(table_topic(table), encode(from_map(m)))
                   for table, events in logs.items() for m in events]
        for future in futures:
            await future
    finally:
        await producer.stop()


async def folded(http: httpx.AsyncClient, ends: dict[str, int], limit_s: float) -> float:
    """Seconds until the processor has folded every table up to its last offset."""
    began = time.perf_counter()
    left = dict(ends)
    while left and time.perf_counter() - began < limit_s:
        for table, last in list(left.items()):
            state = (await http.get(f"/api/tables/{table}/state")).json()
            if state.get("version") == last:
                del left[table]
        if left:
            await asyncio.sleep(0.5)
    if left:
        print(f"  {len(left)} tables not folded after {limit_s} s: measured anyway")
    return time.perf_counter() - began


class Reads:
    """Timed reads of histories, each by one seat, and the answers kept for the check."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.latencies: list[float] = []
        self.statuses: Counter[str] = Counter()
        self.answers: dict[tuple[str, str], dict[str, Any]] = {}

    async def read(self, http: httpx.AsyncClient, table: str, seat: str, token: str) -> None:
        began = time.perf_counter()
        response = await http.get(f"/api/tables/{table}/history",
                                  headers={"Authorization": f"Bearer {token}"})
        self.latencies.append(time.perf_counter() - began)
        label = str(response.status_code)
        if response.status_code != 200:
            label += f" ({response.json().get('error', '')[:60]}; Retry-After " \
                     f"{response.headers.get('Retry-After')})"
        self.statuses[label] += 1
        if response.status_code == 200:
            self.answers[(table, seat)] = response.json()

    def summary(self) -> str:
        ms = [x * 1000 for x in self.latencies]
        statuses = ", ".join(f"{n} × {s}" for s, n in sorted(self.statuses.items()))
        return (f"p50 {pct(ms, 0.5):.0f} ms, p95 {pct(ms, 0.95):.0f} ms, max {max(ms):.0f} ms "
                f"({statuses})")


async def alone(url: str, tables: dict[str, dict[str, str]]) -> None:
    """Reads one after the other: each table once (nothing cached), then each again."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        for what in ("first read of its table", "the same table again"):
            reads = Reads(url)
            for table, seats in tables.items():
                await reads.read(http, table, "N", seats["N"])
            print(f"reads alone, one after the other ×{len(tables)} ({what}): "
                  f"{reads.summary()}", flush=True)


def cpu(pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds so far of each process, and of this one (the readers' client)."""
    return {**{name: cpu_seconds(pid) for name, pid in pids.items()},
            "client": time.process_time()}


async def burst(url: str, tables: dict[str, dict[str, str]], concurrency: int,
                seed: int, pids: dict[str, int]) -> Reads:
    """A read by every seat of every table, at most `concurrency` in flight."""
    order = [(table, seat) for table in tables for seat in SEATS]
    random.Random(seed).shuffle(order)
    gate = asyncio.Semaphore(concurrency)
    reads = Reads(url)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as http:

        async def one(table: str, seat: str) -> None:
            async with gate:
                await reads.read(http, table, seat, tables[table][seat])

        began, cpu_before = time.perf_counter(), cpu(pids)
        await asyncio.gather(*(one(table, seat) for table, seat in order))
        wall, cpu_after = time.perf_counter() - began, cpu(pids)
    print(f"  {len(order)} reads in {wall:.1f} s ({len(order) / wall:.0f}/s): "
          f"{reads.summary()}", flush=True)
    spent = ", ".join(f"{name} {1000 * (cpu_after[name] - cpu_before[name]) / len(order):.1f}"
                      for name in cpu_before)
    print(f"  CPU a read (ms): {spent}", flush=True)
    return reads


async def check(bootstrap: str, reads: Reads) -> None:
    """Every answer equal to a replay of its topic, as its seat may see it."""
    tables = sorted({table for table, _ in reads.answers})
    records = await read_topics(bootstrap, [table_topic(table) for table in tables])
    wrong = 0
    for (table, seat), answer in reads.answers.items():
        grant = Grant(table, seat, "seat")
        document = build_history(table, records[table_topic(table)])
        document["history"] = [entry_for(grant, e, 0, 0) for e in document["history"]]
        if document["state"] is not None:
            document["state"] = board_for(grant, document["state"], 0, 0)
        wrong += answer != document
    print(f"  answers checked against a replay of their topic: {len(reads.answers) - wrong} "
          f"equal, {wrong} different", flush=True)


async def run(args: argparse.Namespace, url: str, director: str, bootstrap: str,
              pids: dict[str, int]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60, headers={
            "Authorization": f"Bearer {director}"}) as http:
        names = [f"h{n}" for n in range(args.tables + args.alone)]
        tables = await create_tables(http, names)
        logs = {table: table_log(args.events, seed) for seed, table in enumerate(tables)}
        began = time.perf_counter()
        await append(bootstrap, logs)
        print(f"{len(tables)} tables of {args.events} events appended in "
              f"{time.perf_counter() - began:.1f} s", flush=True)
        took = await folded(http, {t: len(events) - 1 for t, events in logs.items()}, 300)
        print(f"  folded by the processor {took:.1f} s later; {machine()}", flush=True)
    await alone(url, {t: tables[t] for t in names[args.tables:]})
    crowd = {t: tables[t] for t in names[:args.tables]}
    print(f"every seat of {len(crowd)} tables reads its history ({4 * len(crowd)} reads, "
          f"{args.concurrency} at once):", flush=True)
    await check(bootstrap, await burst(url, crowd, args.concurrency, 1, pids))
    more = {t: [{"type": "call", "seat": "N", "call": "P", "client_seq": 999}] for t in crowd}
    await append(bootstrap, more)
    print("the same after one more event at every table:", flush=True)
    await check(bootstrap, await burst(url, crowd, args.concurrency, 2, pids))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100, help="tables read by their seats")
    parser.add_argument("--events", type=int, default=100, help="events of each table")
    parser.add_argument("--concurrency", type=int, default=50, help="reads in flight")
    parser.add_argument("--alone", type=int, default=20, help="tables read one at a time")
    parser.add_argument("--workers", type=int, default=1)
    add_stack_options(parser, [KAFKA_PORT, REDIS_PORT, GATEWAY_PORT])
    args = parser.parse_args()
    with bench_stack(args, args.workers, 4) as stack:
        assert stack.gateway is not None
        pids = {"gateway": stack.gateway.pid, "kafka": int(stack.kafka_pidfile().read_text()),
                **{name: proc.pid for name, proc in stack.workers.items()}}
        asyncio.run(run(args, stack.url, stack.director, stack.bootstrap, pids))
        print(f"machine after: {machine()}")
        print_service_errors(stack.data)


if __name__ == "__main__":
    main()
