"""Benchmark of replay: a table of 10,000 events rebuilt from its Kafka topic.

Starts its own Kafka (the deploy scripts, ports of its own), appends a generated table log of
`--events` events (legal auctions, an irregularity on one board in ten) to one table topic,
then times, best of `--runs`:
- reading the topic and building the history (what `tableserver replay` and
  `GET /api/tables/{table}/history` do: every event with its alerts, and the state);
- `tableserver replay TABLE` end to end, a new process (imports, connecting, JSON out).

A benchmark, not a test: it prints numbers and asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from fold_bench import generate  # beside this file

from services.common.kafka.admin import create_table_topic
from services.common.kafka.reader import read_table
from services.common.names import table_topic
from services.replay.history import build_history
from shared.codec import encode, from_map

ROOT = Path(__file__).resolve().parents[1]
KAFKA_PORT, CONTROLLER_PORT = 29192, 29193


async def fill(bootstrap: str, table: str, count: int) -> None:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    await create_table_topic(admin, table, 1)
    await admin.close()
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all",
                                enable_idempotence=True, linger_ms=5)
    await producer.start()
    try:
        futures = [await producer.send(table_topic(table), encode(from_map(m)))
                   for m in generate(count)]
        for future in futures:
            await future
    finally:
        await producer.stop()


async def replay_once(bootstrap: str, table: str) -> tuple[float, int, int]:
    start = time.perf_counter()
    records = await read_table(bootstrap, table)
    read = time.perf_counter()
    document = build_history(table, records)
    done = time.perf_counter()
    return done - start, int(1000 * (read - start)), len(document["history"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "TABLESERVER_DATA": tmp,
               "TABLESERVER_KAFKA_PORT": str(KAFKA_PORT),
               "TABLESERVER_KAFKA_CONTROLLER_PORT": str(CONTROLLER_PORT)}
        subprocess.run([str(ROOT / "deploy/kafka/start.sh")], env=env, check=True, cwd=ROOT)
        try:
            bootstrap = f"127.0.0.1:{KAFKA_PORT}"
            asyncio.run(fill(bootstrap, "bench", args.events))
            results = [asyncio.run(replay_once(bootstrap, "bench")) for _ in range(args.runs)]
            best = min(results)
            print(f"replay of a table of {best[2]:,} events from Kafka (read + history + "
                  f"state, best of {args.runs}): {best[0]:.3f} s "
                  f"(reading the topic {best[1]} ms)")
            walls = []
            for _ in range(args.runs):
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "services.cli.main", "replay", "bench"],
                               env={**env, "TABLESERVER_KAFKA": bootstrap}, cwd=ROOT,
                               check=True, stdout=subprocess.DEVNULL)
                walls.append(time.perf_counter() - start)
            print(f"`tableserver replay` of it end to end (new process, JSON out, best of "
                  f"{args.runs}): {min(walls):.3f} s")
        finally:
            subprocess.run([str(ROOT / "deploy/kafka/stop.sh")], env=env, check=False, cwd=ROOT)


if __name__ == "__main__":
    main()
