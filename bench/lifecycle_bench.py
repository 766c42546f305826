"""Benchmark of table topics' lifecycle (closed tables): a tournament's tables closed by the
director, their events archived and their topics deleted.

Starts its own stack (tests/stack.py), creates a tournament of `--tables` tables, appends
`--events` generated events to each table's topic (as the gateway appends them), waits until the
processor has folded them all, then:
- reads the tournament's export (PBN and JSON) and the history of `--read` tables;
- counts the broker's topics and partitions (table topics, tournament topics);
- closes the tournament (`POST /api/tournaments/{t}/close?force=true`: generated boards end
  anywhere): the wall time, and each step's
  (checked, closed, fenced, folded, archived, marked, deleted, then the tournament's own
  topic's five), as the gateway reports them;
- counts the topics and partitions again (they should fall by the tables + 1: the tournament's
  topic goes too), and checks that the export and the histories read
  from the archive are the ones read before;
- closes `--single` tables of their own one at a time (`POST /api/tables/{t}/close`): the time
  of one table's close.

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/lifecycle_bench.py [--tables 100] [--events 100] [--read 10] [--single 10]
                                    [--keep DIR] [--ports 27092 27379 27000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.history_bench import append, create_tables, folded, pct, table_log
from bench.night_bench import partitions as topic_partitions
from bench.pipeline_bench import print_service_errors
from bench.stack_args import add_stack_options, bench_stack, machine
from services.common.names import TABLE_PREFIX, tournament_topic

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 27092, 27379, 27000
DEALS = (Path(__file__).resolve().parent.parent / "tests" / "data" / "deals-32.pbn").read_text()


async def partitions(bootstrap: str) -> tuple[int, int, int, int]:
    """The broker's topics, their partitions, and the table and tournament topics among
    them."""
    found = await topic_partitions(bootstrap)
    return (len(found), sum(found.values()),
            sum(1 for t in found if t.startswith(TABLE_PREFIX)),
            sum(1 for t in found if t.startswith(tournament_topic(""))))


async def reads(http: httpx.AsyncClient, tournament: str, tables: list[str]) -> dict[str, Any]:
    """The tournament's export (PBN and JSON) and the tables' histories."""
    found: dict[str, Any] = {}
    for form in ("pbn", "json"):
        response = await http.get(f"/api/tournaments/{tournament}/export",
                                  params={"format": form})
        response.raise_for_status()
        found[form] = response.text
    for table in tables:
        response = await http.get(f"/api/tables/{table}/history")
        response.raise_for_status()
        found[table] = response.json()
    return found


async def run(args: argparse.Namespace, url: str, director: str, bootstrap: str) -> None:
    t = "archived"
    async with httpx.AsyncClient(base_url=url, timeout=600, headers={
            "Authorization": f"Bearer {director}"}) as http:
        response = await http.post("/api/tournaments", json={
            "tournament": t, "tables": args.tables, "deals": DEALS})
        response.raise_for_status()
        tables = [line["table"] for line in response.json()["tables"]]
        singles = list(await create_tables(http, [f"single{n}" for n in range(args.single)]))
        logs = {table: table_log(args.events, seed) for seed, table in
                enumerate(tables + singles)}
        await append(bootstrap, logs)
        took = await folded(http, {tb: len(ev) - 1 for tb, ev in logs.items()}, 300)
        print(f"{len(tables)} tables of {args.events} events (+ {len(singles)} single tables) "
              f"appended and folded in {took:.1f} s; {machine()}", flush=True)
        sample = tables[:args.read]
        before = await reads(http, t, sample)
        topics, parts_before, table_topics, tournaments = await partitions(bootstrap)
        print(f"before the close: {topics} topics, {parts_before} partitions "
              f"({table_topics} table topics, {tournaments} tournament topics)", flush=True)
        began = time.perf_counter()
        response = await http.post(f"/api/tournaments/{t}/close", params={"force": "true"})
        wall = time.perf_counter() - began
        response.raise_for_status()
        done = response.json()
        steps = ", ".join(f"{k} {v * 1000:.0f}" for k, v in done["steps_s"].items())
        print(f"closed {len(done['closed'])} tables ({done['events']} events archived) and the "
              f"tournament's topic ({done['tournament_events']} records archived) in "
              f"{wall:.2f} s: {1000 * wall / len(tables):.1f} ms a table; steps (ms): {steps}",
              flush=True)
        topics, parts, table_topics, tournaments = await partitions(bootstrap)
        print(f"after the close: {topics} topics, {parts} partitions "
              f"({table_topics} table topics, {tournaments} tournament topics): "
              f"{parts_before - parts} fewer, the tables + 1 = {len(tables) + 1}", flush=True)
        began = time.perf_counter()
        after = await reads(http, t, sample)
        print(f"the export (PBN, JSON) and {len(sample)} histories read from the archive in "
              f"{time.perf_counter() - began:.2f} s: "
              f"{'equal to' if after == before else 'DIFFERENT from'} those read before",
              flush=True)
        one: list[float] = []
        for table in singles:
            began = time.perf_counter()
            response = await http.post(f"/api/tables/{table}/close", params={"force": "true"})
            one.append(time.perf_counter() - began)
            response.raise_for_status()
        if one:
            ms = [x * 1000 for x in one]
            print(f"{len(one)} single tables closed one at a time: p50 {pct(ms, 0.5):.0f} ms, "
                  f"max {max(ms):.0f} ms a table", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100, help="the tournament's tables")
    parser.add_argument("--events", type=int, default=100, help="events of each table")
    parser.add_argument("--read", type=int, default=10, help="histories compared")
    parser.add_argument("--single", type=int, default=10, help="tables closed one at a time")
    add_stack_options(parser, [KAFKA_PORT, REDIS_PORT, GATEWAY_PORT])
    args = parser.parse_args()
    os.environ["TABLESERVER_HISTORY_PER_SECOND"] = "1000"  # the director reads many histories
    with bench_stack(args, 1, 8) as stack:
        asyncio.run(run(args, stack.url, stack.director, stack.bootstrap))
        print(f"machine after: {machine()}")
        print_service_errors(stack.data)


if __name__ == "__main__":
    main()
