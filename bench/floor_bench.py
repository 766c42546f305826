"""The floor under the pipeline's CPU target (≤ 1 ms of CPU per event over every process):
what the customer's fixed components cost per event when they do only the I/O the pipeline's
design needs, and nothing of ours, at the same rate, on the same machine.

At the least, an event of the pipeline is
- an HTTP request answered: uvicorn with httptools on uvloop, as the gateway serves it;
- its append to its table's topic, awaited (aiokafka: acks=all, idempotent, linger 0, as the
  gateway's producer), then its live copy to the shard's partition, not awaited;
- the copy fetched and the table's state written to Redis (a hash's fields and a stream
  entry, as the processor's script writes them), each fetch's writes on one pipelined
  connection (`services/common/redis_lines.py`, the processor's); after a fetch that brought
  records, the next waits 5 ms, as the processor's do.

Three windows of `--seconds` each, after a warm-up (the JVM compiles Kafka's hot paths), the
same load as `pipeline_bench.py`'s (1,000 tables in turn, each table's request after its last
one's answer, a light keep-alive client):
- *the whole path*: the bare gateway appends and copies, and one bare worker (aiokafka's
  consumer of the live topic's 8 partitions) writes the states to Redis;
- *no copies*: the bare gateway only appends, and the worker reads the 1,000 tables' topics
  (what the live copies were made to spare, docs/architecture.md);
- *HTTP alone*: the bare gateway answers 202 at once.
Printed: CPU per event by process (the bare gateway, the bare worker, Kafka, Redis), beside
which `pipeline_bench.py` gives the real pipeline's. A benchmark: it asserts nothing.

    python bench/floor_bench.py [--tables 1000] [--rate 1000] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import tempfile
import time
from enum import StrEnum
from pathlib import Path
from typing import Any

import msgpack
import uvloop
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/

from bench.pipeline_bench import cpu_seconds
from bench.pipeline_clients import HttpConnection, IdleConnections
from bench.stack_args import add_stack_options, machine
from bench.tournament_bench import leaders_elected
from services.common.redis_lines import RedisLines
from tests.stack import ROOT, running_stores, wait_port

LIVE = "floor.live"
SHARDS = 8
LINGER_S = 0.005
BODY = b'{"type": "call", "call": "1NT"}'


def topic(table: int) -> str:
    return f"floor.t{table}"


class Route(StrEnum):
    """What a bare event goes through."""

    COPIES = "the whole path"  # appended and copied; the worker reads the copies (the design)
    TABLES = "no copies"  # appended only; the worker reads the tables' own topics
    HTTP = "HTTP alone"  # answered at once


# The bare gateway: `python bench/floor_bench.py --gateway ROUTE PORT BOOTSTRAP`.

def gateway_app(route: Route, bootstrap: str) -> Any:
    producer: AIOKafkaProducer | None = None

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        nonlocal producer
        if scope["type"] == "lifespan":
            await receive()
            if route is not Route.HTTP:
                producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all",
                                            enable_idempotence=True, linger_ms=0)
                await producer.start()
            await send({"type": "lifespan.startup.complete"})
            await receive()
            if producer is not None:
                await producer.stop()
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = (await receive())["body"]
        table = int(scope["path"].rpartition("/")[2])
        offset = 0
        if producer is not None:
            key = str(table).encode()
            offset = (await producer.send_and_wait(topic(table), body, key=key)).offset
            if route is Route.COPIES:
                await producer.send(LIVE, msgpack.packb([offset, body]), key=key,
                                    partition=table % SHARDS)
        data = b'{"offset": %d}' % offset
        await send({"type": "http.response.start", "status": 202,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})

    return app


def run_gateway(route: Route, port: int, bootstrap: str) -> None:
    import uvicorn

    uvicorn.run(gateway_app(route, bootstrap), host="127.0.0.1", port=port, loop="uvloop",
                http="httptools", lifespan="on", log_level="warning", access_log=False,
                timeout_keep_alive=30)


# The bare worker: `python bench/floor_bench.py --worker ROUTE BOOTSTRAP REDIS_PORT TABLES`.

async def run_worker(route: Route, bootstrap: str, redis_port: int, tables: int) -> None:
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                auto_offset_reset="latest")
    await consumer.start()
    consumer.assign([TopicPartition(LIVE, p) for p in range(SHARDS)] if route is Route.COPIES
                    else [TopicPartition(topic(t), 0) for t in range(tables)])
    redis = RedisLines(f"redis://127.0.0.1:{redis_port}/0")
    while True:
        fetched = await consumer.getmany(timeout_ms=1000)
        writes: list[tuple[Any, ...]] = []
        for records in fetched.values():
            for record in records:
                offset, event = msgpack.unpackb(record.value) if route is Route.COPIES \
                    else (record.offset, record.value)
                table = (record.key or b"").decode()
                writes.append(("HSET", f"floor:{table}", "version", offset, "board", event))
                writes.append(("XADD", f"floor:{table}:feed", "MAXLEN", "~", 1000, "*",
                               "version", offset, "board", event))
        if writes:
            await redis.execute_many(writes)
            # The processor's fetch linger (TABLESERVER_FETCH_LINGER_MS): after a fetch that
            # brought records, the next waits 5 ms, so each carries more. aiokafka's consumer
            # asks again for a partition once its records are taken, so the wait goes here.
            await asyncio.sleep(LINGER_S)


# The bench.

class Load:
    """Requests at a steady rate over the tables in turn; a table's next after its last
    one's answer, as `pipeline_bench.py` sends them."""

    def __init__(self, port: int, tables: int) -> None:
        self.port, self.tables = port, tables
        self.idle = IdleConnections([HttpConnection(port) for _ in range(64)])
        self.locks = [asyncio.Lock() for _ in range(tables)]
        self.answered = 0
        self.failed: list[str] = []

    async def one(self, table: int) -> None:
        async with self.locks[table]:
            connection = await self.idle.take()
            status, body = await connection.post(f"/t/{table}", BODY, "-")
            self.idle.give(connection)
            if status == 202:
                self.answered += 1
            else:
                self.failed.append(f"{status} {body!r}")

    async def run(self, rate: float, seconds: float) -> int:
        pending: set[asyncio.Task[None]] = set()
        started, sent = time.perf_counter(), 0
        before = self.answered
        while time.perf_counter() - started < seconds:
            task = asyncio.create_task(self.one(sent % self.tables))
            pending.add(task)
            task.add_done_callback(pending.discard)
            sent += 1
            await asyncio.sleep(max(0.0, started + sent / rate - time.perf_counter()))
        await asyncio.gather(*pending)
        return self.answered - before


async def create_topics(bootstrap: str, tables: int) -> None:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        await admin.create_topics([NewTopic(LIVE, SHARDS, 1)])
        for start in range(0, tables, 200):
            await admin.create_topics([NewTopic(topic(t), 1, 1)
                                       for t in range(start, min(start + 200, tables))])
        # a new partition's leader is known a moment after its creation: waited for here,
        # aiokafka's producer logged each topic it sent to before then at error level (once
        # a metadata round: thousands of lines)
        await leaders_elected(admin, [topic(t) for t in range(tables)], time.perf_counter())
    finally:
        await admin.close()
    # Each topic answers an append before the load starts. The metadata names a leader a
    # moment before that broker serves the partition: these first appends are retried on
    # NotLeaderForPartition, each retry a warning of aiokafka's sender (60-70 lines at 1,000
    # tables), which the retries are here to absorb: quiet while they run.
    sender = logging.getLogger("aiokafka.producer.sender")
    level = sender.level
    sender.setLevel(logging.ERROR)
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")
    await producer.start()
    try:
        await asyncio.gather(*(producer.send_and_wait(topic(t), b"") for t in range(tables)))
    finally:
        await producer.stop()
        sender.setLevel(level)


def spawn(*role: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, __file__, *role], cwd=ROOT,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT)


async def window(name: str, load: Load, args: argparse.Namespace,
                 pids: dict[str, int]) -> None:
    before = {n: cpu_seconds(p) for n, p in pids.items()}
    answered = await load.run(args.rate, args.seconds)
    spent = {n: cpu_seconds(p) - before[n] for n, p in pids.items()}
    per_event = {n: 1000 * s / max(answered, 1) for n, s in spent.items()}
    services = sum(ms for n, ms in per_event.items() if n != "load generator")
    print(f"{name}: {answered} events answered, {len(load.failed)} refused; CPU per event "
          + ", ".join(f"{n} {ms:.3f} ms" for n, ms in per_event.items())
          + f"; the services {services:.2f} ms", flush=True)


async def bench(args: argparse.Namespace, data: Path) -> None:
    bootstrap = f"127.0.0.1:{args.ports[0]}"
    kafka = int((data / "kafka" / "kafka.pid").read_text())
    redis = int((data / "redis" / "redis.pid").read_text())
    await create_topics(bootstrap, args.tables)
    port = args.ports[2]
    warm = False
    for route in Route:
        gateway = spawn("--gateway", route.name, str(port), bootstrap, log=data / "gateway.log")
        worker = None if route is Route.HTTP else spawn(
            "--worker", route.name, bootstrap, str(args.ports[1]), str(args.tables),
            log=data / "worker.log")
        try:
            wait_port(port, 30)
            load = Load(port, args.tables)
            if not warm:
                print(f"warming up for {args.warmup} s …", flush=True)
                await load.run(args.rate, args.warmup)
                warm = True
            else:
                await load.run(args.rate, 3)  # the worker's positions found
            pids = {"bare gateway": gateway.pid,
                    **({"bare worker": worker.pid} if worker else {}),
                    "kafka": kafka, "redis": redis, "load generator": os.getpid()}
            await window(route.value, load, args, pids)
        finally:
            for proc in (gateway, worker):
                if proc is not None:
                    proc.terminate()
                    proc.wait(10)


def main() -> None:
    if sys.argv[1:2] == ["--gateway"]:
        run_gateway(Route[sys.argv[2]], int(sys.argv[3]), sys.argv[4])
        return
    if sys.argv[1:2] == ["--worker"]:
        uvloop.run(run_worker(Route[sys.argv[2]], sys.argv[3], int(sys.argv[4]),
                              int(sys.argv[5])))
        return
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=20)
    add_stack_options(parser, [29092, 26379, 28000])
    args = parser.parse_args()
    print(machine(), flush=True)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    with (contextlib.nullcontext(str(args.keep)) if args.keep
          else tempfile.TemporaryDirectory()) as tmp, \
            running_stores({**os.environ, "TABLESERVER_DATA": str(tmp),
                            "TABLESERVER_KAFKA_PORT": str(args.ports[0]),
                            "TABLESERVER_REDIS_PORT": str(args.ports[1])}):
        uvloop.run(bench(args, Path(tmp)))


if __name__ == "__main__":
    main()
