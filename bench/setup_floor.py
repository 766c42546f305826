"""The night's set-up floor (docs/performance.md, "The Funbridge night"): Kafka alone making the
tables' topics, the part of "board 1 at every table" no code of ours can shorten.

Starts Kafka alone (`--brokers` nodes, deploy/kafka) and Redis (the deploy scripts start both),
then creates the night's tournaments' topics at once, as the night bench's two creation requests
do: each tournament's topic and its tables' (`--tables` split into tournaments of at most 2,000),
by the gateway's own `create_tournament_topics` with `--replication`, which returns once every
partition has a leader; then a record appended to every table's topic at once, as board 1's
round does. Prints when each creation returned, when every append was acknowledged, and the
machine's line.

What it measured (2026-12-01): on one broker the metadata loader makes the new partitions' logs
one at a time, each with two fsyncs (its leader-epoch checkpoint and its directory) that wait
for the filesystem's journal; a new file there took ~2 ms, a partition ~12–14 ms. Three brokers
on the same 2 cores and disk (replication 1) were slower, not faster.
A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/setup_floor.py [--tables 3750] [--brokers 1] [--replication 1]
                                [--ports 29892 29879]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.stack_args import machine
from services.common.kafka import admin as kafka_admin
from services.common.names import table_topic
from tests.stack import running_stores

TOURNAMENT_TABLES = 2000  # the gateway's limit a tournament, as the night bench splits them


async def create(bootstrap: str, tournament: str, tables: int, replication: int,
                 began: float) -> list[str]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        names = [f"{tournament}-{n}" for n in range(1, tables + 1)]
        await kafka_admin.create_tournament_topics(admin, tournament, names, replication)
        print(f"{tournament}: {tables + 1} topics created and led "
              f"{time.perf_counter() - began:.2f} s after the first request", flush=True)
        return [table_topic(name) for name in names]
    finally:
        await admin.close()


async def night(bootstrap: str, tables: int, replication: int) -> None:
    sizes = [min(TOURNAMENT_TABLES, tables - start)
             for start in range(0, tables, TOURNAMENT_TABLES)]
    began = time.perf_counter()
    created = await asyncio.gather(*(create(bootstrap, f"floor{n + 1}", size, replication,
                                            began) for n, size in enumerate(sizes)))
    print(f"every table's topic led {time.perf_counter() - began:.2f} s after the first "
          f"request ({tables} tables, {len(sizes)} tournaments at once)", flush=True)
    # A partition is led in the broker's metadata before its log is made: the appends (board
    # 1's round) wait for the logs.
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all",
                                request_timeout_ms=600_000)
    await producer.start()
    try:
        sent = await asyncio.gather(*(producer.send(topic, b"{}")
                                      for names in created for topic in names))
        await asyncio.gather(*sent)
    finally:
        await producer.stop()
    print(f"every table's topic took an append {time.perf_counter() - began:.2f} s after the "
          "first request", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=3750)
    parser.add_argument("--brokers", type=int, default=1, choices=[1, 3])
    parser.add_argument("--replication", type=int, default=1)
    parser.add_argument("--ports", type=int, nargs=2, metavar=("KAFKA", "REDIS"),
                        default=[29892, 29879])
    args = parser.parse_args()
    # The gateway answers 503 after 30 s of waiting for the leaders; the floor is measured
    # to its end.
    kafka_admin.LEADERS_TIMEOUT_S = 600.0
    # aiokafka logs each append to a partition not led yet, as the logs are made: retried
    logging.getLogger("aiokafka").setLevel(logging.CRITICAL)
    print(f"machine: {machine()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "TABLESERVER_DATA": tmp,
               "TABLESERVER_KAFKA_PORT": str(args.ports[0]),
               "TABLESERVER_KAFKA_BROKERS": str(args.brokers),
               "TABLESERVER_REDIS_PORT": str(args.ports[1])}
        with running_stores(env):
            bootstrap = ",".join(f"127.0.0.1:{args.ports[0] + 2 * n}"
                                 for n in range(args.brokers))
            asyncio.run(night(bootstrap, args.tables, args.replication))


if __name__ == "__main__":
    main()
