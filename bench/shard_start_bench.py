"""Benchmark of a shard's start: how long after a worker starts every table of its shard is in
Redis, folded up to its topic's last event.

Starts its own stack (Kafka, Redis, the gateway, no worker, one shard: tests/stack.py), fills
N tables through the gateway (the real auctions of `pipeline_bench.py`, `--calls` calls a
table), then, `--runs` times: empties Redis, starts one worker, and times (a) the worker's
start to its shard's "started" line (faust's group, the shard's producer, registry and
checkpoints read) and (b) from there until every state is in Redis at its topic's last offset
(the catch-up: every table topic fetched at once, then dropped one by one); then stops the
worker (SIGTERM: it leaves the group at once, so the next one gets the shard at once).
A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/shard_start_bench.py [--tables 1000] [--calls 30] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from aiokafka import AIOKafkaConsumer, TopicPartition
from redis.asyncio import Redis

from services.common.names import state_key, table_topic

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.pipeline_bench import Pipeline
from tests.stack import running_stack

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 29092, 26379, 28000  # pipeline_bench.py's
REDIS_URL = f"redis://127.0.0.1:{REDIS_PORT}/0"
STARTED = re.compile(r"^\[(\S+ \S+)\] \[\d+\] \[INFO\] shard \d+: started with (\d+) tables")


async def fill(url: str, director: str, tables: int, calls: int) -> None:
    """`tables` tables, `calls` calls each (boards started by the director as they end)."""
    pipeline = Pipeline(url, director, tables)
    await pipeline.setup()
    pending: set[asyncio.Task[None]] = set()
    for n in range(tables * calls):
        task = asyncio.create_task(pipeline.call(pipeline.tables[n % tables]))
        pending.add(task)
        task.add_done_callback(pending.discard)
        if len(pending) >= 100:
            await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
    await asyncio.gather(*pending)
    await pipeline.http.aclose()
    print(f"{tables} tables: {len(pipeline.sent)} calls accepted, {len(pipeline.failed)} not",
          flush=True)


async def last_offsets(bootstrap: str, tables: list[str]) -> dict[str, int]:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    await consumer.start()
    try:
        partitions = [TopicPartition(table_topic(table), 0) for table in tables]
        consumer.assign(partitions)  # their metadata looked up all at once
        ends = await consumer.end_offsets(partitions)
        return {table: ends[tp] - 1 for table, tp in zip(tables, partitions, strict=True)}
    finally:
        await consumer.stop()


async def all_in_redis(want: dict[str, int], limit_s: float) -> float:
    """When every table's state in Redis has reached its version in `want`."""
    redis = Redis.from_url(REDIS_URL)
    try:
        deadline = time.time() + limit_s
        while time.time() < deadline:
            async with redis.pipeline(transaction=False) as pipe:
                for table in want:
                    pipe.hget(state_key(table), "version")
                versions = await pipe.execute()
            if all(version is not None and int(version) >= want[table]
                   for table, version in zip(want, versions, strict=True)):
                return time.time()
            await asyncio.sleep(0.02)
        raise TimeoutError(f"not every state in Redis within {limit_s} s")
    finally:
        await redis.aclose()


async def flush() -> None:
    redis = Redis.from_url(REDIS_URL)
    await redis.flushall()
    await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--calls", type=int, default=30, help="calls per table")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, running_stack(
            Path(tmp), KAFKA_PORT, REDIS_PORT, GATEWAY_PORT, workers=0,
            extra_env={"TABLESERVER_SHARDS": "1"}) as stack:
        print(f"filling {args.tables} tables …", flush=True)
        asyncio.run(fill(stack.url, stack.director, args.tables, args.calls))
        want = asyncio.run(last_offsets(stack.bootstrap, [f"b{i}" for i in range(args.tables)]))
        print(f"  {sum(want.values()) / len(want) + 1:.1f} events a table on average", flush=True)
        for run in range(args.runs):
            asyncio.run(flush())
            name = f"w{run + 1}"
            began = time.time()
            worker = stack.start_worker(name)
            done = asyncio.run(all_in_redis(want, 120))
            log = (Path(tmp) / f"{name}.log").read_text()
            found = next((m for m in map(STARTED.match, log.splitlines()) if m), None)
            started = datetime.strptime(found[1], "%Y-%m-%d %H:%M:%S,%f").timestamp() \
                if found else float("nan")
            print(f"  run {run + 1}: every state in Redis {done - began:.2f} s after the "
                  f"worker's start: shard started after {started - began:.2f} s, "
                  f"caught up {done - started:.2f} s later", flush=True)
            worker.terminate()
            worker.wait(30)
            del stack.workers[name]
            time.sleep(2)


if __name__ == "__main__":
    main()
