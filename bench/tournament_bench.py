"""Benchmark of a tournament at 1,000 tables, through the gateway as a director and
the players would run it.

Starts its own stack (Kafka, Redis, `--workers` processor workers, the gateway:
tests/stack.py), then measures, one step after the other on the same stack:
- the creation of a `--tables` tournament from tests/data/deals-32.pbn (the POST; the same
  request again, which finds it), and where the time goes: the same `create_tournament_topics`
  the gateway calls, alone, on a fresh name (at the end, so that it does not load the broker
  during the other steps);
- round 1 (`--boards` boards) started at every table at once after the creation: the POST
  (sent again after a 503, as the gateway asks: the new topics' partitions may have no leader
  yet), the time until every table's overview line shows board 1 in its auction (the
  processor has folded each table's `round_started`, its first table event), and the same
  round sent again, which times the 1,000 appends alone;
- the overview's latency at that size, GET /api/tournaments/{t} `--reads` times: p50, p95,
  max, and its size;
- the boards played: four passes a board at every table (each table's calls in order, the
  tables concurrently, at most `--concurrency` requests in flight), each next board starting
  by itself; per board the time to post the calls and until every table has moved on;
- the export of the whole session (tables × boards) as PBN, LIN and JSON: time and size.
A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/tournament_bench.py [--tables 1000] [--boards 3] [--workers 2]
                                     [--shards 8] [--reads 50] [--concurrency 50]
                                     [--keep DIR] [--ports 23092 23379 23000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from aiokafka.admin import AIOKafkaAdminClient

from services.common.kafka.admin import create_tournament_topics
from services.common.names import table_topic
from shared.codec import from_map
from shared.seats import board_dealer
from shared.table.engine import fold
from shared.vocabulary import TableStatus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.pipeline_bench import print_service_errors
from bench.stack_args import add_stack_options, bench_stack, machine

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 23092, 23379, 23000
DEALS = Path(__file__).resolve().parent.parent / "tests" / "data" / "deals-32.pbn"
TOURNAMENT = "bench"
SEATS = "NESW"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Director:
    """The director's requests, and the waits on the overview."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def overview(self) -> tuple[dict[str, Any], int]:
        response = await self.http.get(f"/api/tournaments/{TOURNAMENT}")
        response.raise_for_status()
        found: dict[str, Any] = response.json()
        return found, len(response.content)

    async def until(self, every: Callable[[dict[str, Any]], bool], limit_s: float,
                    what: str) -> float:
        """Seconds until `every` holds for every table's line (polled every 0.25 s)."""
        began = time.perf_counter()
        while time.perf_counter() - began < limit_s:
            view, _ = await self.overview()
            if all(every(line) for line in view["tables"]):
                return time.perf_counter() - began
            await asyncio.sleep(0.25)
        lagging = sum(1 for line in view["tables"] if not every(line))
        raise TimeoutError(f"{what}: {lagging} tables not there after {limit_s} s")


async def post_until_taken(http: httpx.AsyncClient, path: str, body: dict[str, Any]
                           ) -> tuple[httpx.Response, float, list[str]]:
    """A director's POST, sent again after a 503 as the gateway asks (`Retry-After`; every
    tournament request is idempotent): the answer, the seconds in all, the 503s' errors."""
    began = time.perf_counter()
    unavailable: list[str] = []
    while True:
        response = await http.post(path, json=body)
        if response.status_code != 503 or len(unavailable) == 20:
            response.raise_for_status()
            return response, time.perf_counter() - began, unavailable
        unavailable.append(response.json()["error"])
        await asyncio.sleep(float(response.headers.get("Retry-After", "1")))


def retries(unavailable: list[str]) -> str:
    if not unavailable:
        return ""
    return f" ({len(unavailable)} × 503 first, sent again: \"{unavailable[0]}\")"


async def create(director: Director, tables: int) -> tuple[dict[str, Any], float]:
    body = {"tournament": TOURNAMENT, "name": "Bench pairs", "tables": tables,
            "deals": DEALS.read_text(), "site": "bench", "date": "2026.11.24"}
    response, created_s, unavailable = await post_until_taken(director.http,
                                                              "/api/tournaments", body)
    made: dict[str, Any] = response.json()
    again, again_s, _ = await post_until_taken(director.http, "/api/tournaments", body)
    print(f"create {tables} tables: POST {created_s:.2f} s{retries(unavailable)} "
          f"(created: {made['created']}, {len(response.content) / 1e6:.1f} MB of tokens); the "
          f"same request again {again_s:.2f} s (created: {again.json()['created']})",
          flush=True)
    return made, created_s


async def start_round(director: Director, boards: int, created_s: float) -> None:
    """Round 1 sent at once after the creation, as a director would."""
    body = {"round": 1, "boards": list(range(1, boards + 1))}
    response, posted_s, unavailable = await post_until_taken(
        director.http, f"/api/tournaments/{TOURNAMENT}/rounds", body)
    folded_s = await director.until(
        lambda t: t["board"] == 1 and t["status"] == TableStatus.AUCTION, 300,
        "board 1 everywhere")
    print(f"round 1 ({boards} boards) at {response.json()['tables']} tables: POST "
          f"{posted_s:.2f} s{retries(unavailable)}; every table at board 1 {folded_s:.2f} s "
          f"after it; creation and round together {created_s + posted_s + folded_s:.2f} s",
          flush=True)
    _, again_s, unavailable = await post_until_taken(
        director.http, f"/api/tournaments/{TOURNAMENT}/rounds", body)
    print(f"  the same round again, every topic ready (the appends alone; nothing starts "
          f"twice): POST {again_s:.2f} s{retries(unavailable)}", flush=True)


async def read_overview(director: Director, reads: int) -> None:
    latencies: list[float] = []
    size = 0
    for _ in range(reads):
        began = time.perf_counter()
        _, size = await director.overview()
        latencies.append(time.perf_counter() - began)
    print(f"overview GET ×{reads}: p50 {pct(latencies, 0.5) * 1000:.0f} ms, p95 "
          f"{pct(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms; "
          f"{size / 1000:.0f} kB", flush=True)


async def play(director: Director, made: dict[str, Any], boards: int, concurrency: int) -> None:
    """Every board passed out at every table: each table's four passes in order from the
    dealer (Law 2), the tables at once; then the wait until every table moved on."""
    seats = {t["table"]: t["seats"] for t in made["tables"]}
    gate = asyncio.Semaphore(concurrency)
    refused: list[str] = []

    async def pass_out(http: httpx.AsyncClient, table: str, board: int) -> None:
        first = board_dealer(board).value  # N 0, E 1, S 2, W 3
        for seat in (SEATS * 2)[first:first + 4]:
            auth = {"Authorization": f"Bearer {seats[table][seat]}"}
            async with gate:
                response = await http.post(f"/api/tables/{table}/events",
                                            json={"type": "call", "call": "P"}, headers=auth)
            if response.status_code != 202:
                refused.append(f"{table} {seat}: {response.status_code} {response.text[:80]}")

    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=str(director.http.base_url), timeout=60,
                                 limits=limits) as http:
        for board in range(1, boards + 1):
            began = time.perf_counter()
            await asyncio.gather(*(pass_out(http, table, board) for table in seats))
            posted_s = time.perf_counter() - began
            last = board == boards

            def moved_on(line: dict[str, Any], board: int = board, last: bool = last) -> bool:
                return (line["status"] == TableStatus.DONE and line["boards_finished"] == board
                        if last else line["board"] == board + 1
                        and line["status"] == TableStatus.AUCTION)

            folded_s = await director.until(moved_on, 300, f"board {board} over")
            calls = 4 * len(seats)
            print(f"board {board}: {calls} calls posted in {posted_s:.2f} s "
                  f"({calls / posted_s:.0f}/s); every table "
                  f"{'done' if last else f'at board {board + 1}'} {folded_s:.2f} s later",
                  flush=True)
    if refused:
        print(f"  {len(refused)} calls refused, the first: {refused[0]}")


async def export(director: Director, expected_boards: int) -> None:
    for form in ("pbn", "lin", "json"):
        began = time.perf_counter()
        response = await director.http.get(f"/api/tournaments/{TOURNAMENT}/export",
                                           params={"format": form})
        took = time.perf_counter() - began
        response.raise_for_status()
        count = boards_in(form, response.text)
        print(f"export {form}: {took:.2f} s, {len(response.content) / 1e6:.2f} MB, {count} "
              f"boards (of {expected_boards})", flush=True)


def boards_in(form: str, text: str) -> int:
    """How many boards an export holds (a check that it is the whole session): PBN's and
    LIN's boards counted, the JSON's logs folded."""
    if form == "pbn":
        return text.count("[Board ")
    if form == "lin":
        return text.count("md|")
    logs = json.loads(text)["tables"]
    return sum(len(fold(from_map(m) for m in events).boards) for events in logs.values())


async def topics_alone(bootstrap: str, tables: int) -> None:
    """The gateway's `create_tournament_topics`, alone, for a fresh tournament of as many
    tables: the part of the creation that is the broker's; then how long until every new
    partition has a leader in the broker's metadata (until then an append to it waits)."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    names = [f"topics-{n}" for n in range(1, tables + 1)]
    try:
        began = time.perf_counter()
        await create_tournament_topics(admin, "topics", names, 1)
        created_s = time.perf_counter() - began
        led_s = await leaders_elected(admin, [table_topic(name) for name in names], began)
        print(f"create_tournament_topics alone, {tables + 1} topics on a fresh name: "
              f"{created_s:.2f} s; every partition led {led_s:.2f} s after the start",
              flush=True)
    finally:
        await admin.close()


async def leaders_elected(admin: AIOKafkaAdminClient, topics: list[str], began: float) -> float:
    """Seconds from `began` until each topic's partition has a leader (metadata polled)."""
    while time.perf_counter() - began < 300:
        described = await admin.describe_topics(topics)
        if len(described) == len(topics) and all(
                topic["error_code"] == 0 and topic["partitions"]
                and all(p["leader"] >= 0 for p in topic["partitions"]) for topic in described):
            return time.perf_counter() - began
        await asyncio.sleep(0.1)
    return float("nan")


async def run(args: argparse.Namespace, url: str, token: str, bootstrap: str) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=600,
                                 headers={"Authorization": f"Bearer {token}"}) as http:
        director = Director(http)
        made, created_s = await create(director, args.tables)
        await start_round(director, args.boards, created_s)
        await read_overview(director, args.reads)
        await play(director, made, args.boards, args.concurrency)
        await read_overview(director, args.reads)
        await export(director, args.tables * args.boards)
    await topics_alone(bootstrap, args.tables)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=3, help="boards of round 1")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--reads", type=int, default=50, help="overview reads timed")
    parser.add_argument("--concurrency", type=int, default=50,
                        help="calls in flight while the boards are played")
    add_stack_options(parser, [KAFKA_PORT, REDIS_PORT, GATEWAY_PORT])
    args = parser.parse_args()
    with bench_stack(args, args.workers, args.shards) as stack:
        time.sleep(8)  # the workers join the group and take their shards
        asyncio.run(run(args, stack.url, stack.director, stack.bootstrap))
        print(f"machine after: {machine()}")
        print_service_errors(stack.data)


if __name__ == "__main__":
    main()
