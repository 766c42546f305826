"""Benchmark of a tournament's entries: the public entry route taking `--entries` entries (the
issue's figure: 500 in a minute), through the gateway as players' pages send them.

Starts its own stack (Kafka, Redis, a processor worker, the gateway: tests/stack.py), opens
entries as the Director, then measures:
- the entries sent flat out, at most `--concurrency` in flight (each a pair of two new names,
  with the entry token): the time for all of them, the rate, and each answer's latency (p50,
  p95, max); every answer must be a 201 with its own entrant number;
- the same number again at the issue's pace (`--paced` seconds for all of them, evenly): the
  latencies when the route is not saturated, and whether the pace held;
- the Director's list of every entry (GET …/entries, `--reads` times): p50, max, its size;
- the close: the tournament created with the standing pairs and the movement their number
  chooses (a Mitchell at entries / 2 tables).
A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/entries_bench.py [--entries 500] [--concurrency 20] [--paced 60]
                                  [--reads 20] [--keep DIR] [--ports 23292 23579 23200]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.stack_args import add_stack_options, bench_stack

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 23292, 23579, 23200
DEALS_32 = (Path(__file__).resolve().parent.parent / "tests" / "data" / "deals-32.pbn"
            ).read_text()


def deals(count: int) -> str:
    """A deals file of `count` boards: deals-32.pbn's games again and again, numbered 1, 2, …
    (a Mitchell of n tables plays n board groups)."""
    games = [g for g in re.split(r"\n\s*\n", DEALS_32) if "[Board " in g]
    return "\n\n".join(re.sub(r'\[Board "\d+"\]', f'[Board "{n + 1}"]', games[n % len(games)])
                       for n in range(count)) + "\n"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(what: str, latencies: list[float]) -> str:
    return (f"{what}: p50 {pct(latencies, 0.5) * 1000:.1f} ms, p95 "
            f"{pct(latencies, 0.95) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")


async def send(http: httpx.AsyncClient, tournament: str, token: str, name: str
               ) -> tuple[float, int, int | None]:
    """One pair's entry: its latency, status and entrant number."""
    began = time.perf_counter()
    answer = await http.post(f"/api/tournaments/{tournament}/entries",
                             headers={"Authorization": f"Bearer {token}"},
                             json={"players": [{"name": f"{name} a"}, {"name": f"{name} b"}]})
    number = answer.json().get("number") if answer.status_code == 201 else None
    return time.perf_counter() - began, answer.status_code, number


async def flat_out(http: httpx.AsyncClient, tournament: str, token: str, count: int,
                   concurrency: int) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(n: int) -> tuple[float, int, int | None]:
        async with gate:
            return await send(http, tournament, token, f"Flat {n}")

    began = time.perf_counter()
    results = await asyncio.gather(*(one(n) for n in range(count)))
    took = time.perf_counter() - began
    statuses = [s for _, s, _ in results]
    numbers = sorted(n for _, _, n in results if n is not None)
    print(f"flat out, {concurrency} in flight: {count} entries in {took:.2f} s, "
          f"{count / took:.0f} entries/s; statuses {sorted(set(statuses))}; "
          f"numbers 1…{count} each once: {numbers == list(range(1, count + 1))}")
    print(line("  each answer", [t for t, _, _ in results]))


async def paced(http: httpx.AsyncClient, tournament: str, token: str, count: int,
                seconds: float) -> None:
    every = seconds / count
    began = time.perf_counter()

    async def one(n: int) -> tuple[float, int, int | None]:
        await asyncio.sleep(max(0.0, began + n * every - time.perf_counter()))
        return await send(http, tournament, token, f"Paced {n}")

    results = await asyncio.gather(*(one(n) for n in range(count)))
    took = time.perf_counter() - began
    print(f"paced ({count} over {seconds:.0f} s): all answered after {took:.2f} s; statuses "
          f"{sorted({s for _, s, _ in results})}")
    print(line("  each answer", [t for t, _, _ in results]))


async def measure(url: str, director: str, args: argparse.Namespace) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=120,
                                 headers={"Authorization": f"Bearer {director}"}) as http:
        for tournament, run in (("bench-flat", "flat"), ("bench-paced", "paced")):
            opened = await http.post(f"/api/tournaments/{tournament}/entries/open", json={
                "name": "Entries bench", "deals": deals(args.entries // 2 + 1),
                "movement": {"boards_per_round": 1}})
            opened.raise_for_status()
            token = opened.json()["token"]
            if run == "flat":
                await flat_out(http, tournament, token, args.entries, args.concurrency)
            else:
                await paced(http, tournament, token, args.entries, args.paced)
        reads = []
        size = 0
        for _ in range(args.reads):
            began = time.perf_counter()
            listed = await http.get("/api/tournaments/bench-flat/entries")
            reads.append(time.perf_counter() - began)
            size = len(listed.content)
        print(line(f"the Director's list of {args.entries} entries ({size} bytes)", reads))
        began = time.perf_counter()
        closed = await http.post("/api/tournaments/bench-flat/entries/close", json={})
        took = time.perf_counter() - began
        print(f"close: {closed.status_code} in {took:.2f} s: {closed.json()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=500)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--paced", type=float, default=60.0,
                        help="seconds over which the paced run spreads its entries")
    parser.add_argument("--reads", type=int, default=20)
    add_stack_options(parser, [KAFKA_PORT, REDIS_PORT, GATEWAY_PORT])
    args = parser.parse_args()
    with bench_stack(args, workers=1, shards=8) as stack:
        asyncio.run(measure(stack.url, stack.director, args))


if __name__ == "__main__":
    main()
