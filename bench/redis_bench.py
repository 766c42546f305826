"""Redis memory per table: a stack with `--tables` tables (1,000) that each play `--boards`
whole boards of a real record (`bench/whole_boards.py`: the auction, the play card by card, the
claim) through the gateway, then, once every state is in Redis:

- Redis's `used_memory` (INFO memory) at rest before the tables, after their creation, after
  the boards: the growth per table, everything a table costs (its state, its feed, its line
  in the registry's hash and set, the seats' rate-limit keys);
- per table, `MEMORY USAGE … SAMPLES 0` (every element counted) of its state and its feed, and
  the feed's length (`XLEN`): the bytes a feed entry costs, and from it a table's memory once
  its feed holds the most it keeps (`FEED_LENGTH` entries, `services/common/store.py`),
  reached after about that many events (some 15 boards): a projection, printed as such.

A table's events go in rounds (one event of every table, then the next), so each seat sends
far below its rate limit. A benchmark, not a test: it prints numbers and asserts nothing.

    python bench/redis_bench.py [--tables 1000] [--boards 1] [--ports 24092 24379 24000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from redis.asyncio import Redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.pipeline_bench import Pipeline, print_service_errors
from bench.stack_args import add_stack_options, bench_stack, machine
from services.common.names import feed_key, state_key
from services.common.store import FEED_LENGTH

PORTS = [24092, 24379, 24000]
IN_FLIGHT = 90  # requests at once: fewer than the pipeline's 100 connections


async def used_memory(redis: Redis) -> int:
    info = await redis.info("memory")
    return int(info["used_memory"])


async def play(pipeline: Pipeline, boards: int) -> int:
    """Every table plays `boards` whole boards from board 2 (board 1 was started by the
    setup, calls only), one event of every table a round; the events sent."""
    pipeline.play = True
    gate = asyncio.Semaphore(IN_FLIGHT)
    sent = 0
    for _ in range(boards):
        board = {t: pipeline.at[t][0] + 1 for t in pipeline.tables}
        for table in pipeline.tables:
            pipeline.at[table] = (board[table], 0)
        steps = {t: len(pipeline.whole_board(t, board[t]).steps) for t in pipeline.tables}

        async def one(table: str) -> None:
            async with gate:
                await pipeline.send(table)

        for position in range(max(steps.values())):
            due = [t for t in pipeline.tables if position < steps[t]]
            await asyncio.gather(*(one(t) for t in due))
            sent += len(due)
    return sent


async def per_table(redis: Redis, tables: list[str]) -> tuple[list[int], list[int], list[int]]:
    """Each table's state and feed bytes (MEMORY USAGE, every element counted), feed length."""
    async with redis.pipeline(transaction=False) as pipe:
        for table in tables:
            pipe.memory_usage(state_key(table), samples=0)
            pipe.memory_usage(feed_key(table), samples=0)
            pipe.xlen(feed_key(table))
        found = await pipe.execute()
    return ([int(x or 0) for x in found[0::3]], [int(x or 0) for x in found[1::3]],
            [int(x or 0) for x in found[2::3]])


def kb(n: float) -> str:
    return f"{n / 1024:,.1f} kB"


async def run(args: argparse.Namespace, url: str, director: str, redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    pipeline = Pipeline(url, director, args.tables)
    try:
        at_rest = await used_memory(redis)
        print(f"creating {args.tables} tables …", flush=True)
        await pipeline.setup()
        await pipeline.settled(redis, 120)
        created = await used_memory(redis)
        first = sum((await per_table(redis, pipeline.tables))[2])  # feed entries so far
        began = time.perf_counter()
        sent = await play(pipeline, args.boards)
        took = time.perf_counter() - began
        waited = await pipeline.settled(redis, 120)
        played = await used_memory(redis)
        print(f"played {args.boards} whole board(s) at every table: {sent:,} events in "
              f"{took:.0f} s ({sent / took:.0f}/s), {len(pipeline.failed)} refused or "
              f"unanswered{f' ({pipeline.failed[0]})' if pipeline.failed else ''}; every state "
              f"in Redis {waited:.1f} s after the last", flush=True)
        states, feeds, lengths = await per_table(redis, pipeline.tables)
        entries = sum(lengths)
        tables = args.tables
        # what Redis's allocator took per entry the boards added (MEMORY USAGE counts a stream's
        # nodes as allocated, more than used_memory grew by)
        per_entry = (played - created) / (entries - first)
        print("| Redis, used_memory | total | per table |\n|---|---|---|")
        print(f"| at rest (no table) | {at_rest / 2**20:,.1f} MB | – |")
        print(f"| tables created (board 1 started) | {created / 2**20:,.1f} MB | "
              f"{kb((created - at_rest) / tables)} |")
        print(f"| after {args.boards} whole board(s) each | {played / 2**20:,.1f} MB | "
              f"{kb((played - at_rest) / tables)} |")
        print(f"per table (MEMORY USAGE): state p50 {kb(statistics.median(states))} (max "
              f"{kb(max(states))}); feed p50 {kb(statistics.median(feeds))} holding "
              f"{statistics.median(lengths):.0f} entries ({sum(feeds) / entries:,.0f} bytes an "
              f"entry); used_memory grew {per_entry:,.0f} bytes an entry the boards added",
              flush=True)
        start = (created - at_rest) / tables
        more = FEED_LENGTH - first / tables
        print(f"projected, a feed at its cap of {FEED_LENGTH:,} entries: "
              f"{kb(start + more * per_entry)} a table (measured {kb(start)} at its creation, "
              f"plus {more:,.0f} entries × {per_entry:,.0f} bytes)", flush=True)
    finally:
        await pipeline.http.aclose()
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=1, help="whole boards each table plays")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shards", type=int, default=8)
    add_stack_options(parser, PORTS)
    args = parser.parse_args()
    with bench_stack(args, args.workers, args.shards) as stack:
        time.sleep(8)  # the workers join the group and take their shards
        asyncio.run(run(args, stack.url, stack.director,
                        f"redis://127.0.0.1:{args.ports[1]}/0"))
        print(f"machine after: {machine()}")
        print_service_errors(stack.data)


if __name__ == "__main__":
    main()
