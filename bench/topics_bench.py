"""How many table topics one broker here holds: a lone Kafka broker (KRaft, `deploy/kafka`)
given 1,000, then 4,000, then 10,000 tables' topics (each one partition, as the gateway makes
them: `services/common/kafka/admin.py`), and at each level:

- the produce round trip (acks=all, one ~200-byte event, linger 0) to tables picked at random,
  at a steady rate with a few in flight: p50 / p99;
- the broker's resident memory, its open files and its memory maps (each partition maps its
  offset and time indexes: the kernel's `vm.max_map_count`, 65,530 by default, bounds them);
- the broker's CPU while idle (its background threads visit every partition);
- optionally (`--restart`) a clean restart: the stop (SIGTERM, waited for: `stop.sh` would
  kill a broker still closing its logs after 10 s), and the start until every topic has its
  leader.

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/topics_bench.py --levels 1000,4000,10000 --restart [--port 29792]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stack_args import machine  # noqa: E402
from services.common.kafka.admin import create_tournament_topics, leaders_elected  # noqa: E402
from services.common.names import table_topic  # noqa: E402

EVENT = b'{"type":"card_played","seat":"W","card":"S4","client_seq":17,' + b" " * 140 + b"}"
TICKS = os.sysconf("SC_CLK_TCK")


def broker_pid(data: Path) -> int:
    return int((data / "kafka" / "kafka.pid").read_text().strip())


def proc_figures(pid: int) -> dict[str, float]:
    """Resident MB, open files, memory maps and CPU seconds of process `pid`."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(stat[11]) + int(stat[12])) / TICKS  # utime + stime
    return {"rss_mb": rss / 1024, "files": len(os.listdir(f"/proc/{pid}/fd")),
            "maps": sum(1 for _ in open(f"/proc/{pid}/maps", "rb")), "cpu_s": cpu}


def deploy(script: str, env: dict[str, str]) -> None:
    subprocess.run([str(ROOT / "deploy" / "kafka" / script)], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


async def create_tables(bootstrap: str, start: int, stop: int) -> float:
    """Topics for tables `start`…`stop - 1`, a tournament at a time; seconds taken."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=120_000)
    await admin.start()
    began = time.perf_counter()
    try:
        for first in range(start, stop, 1000):
            tables = [f"cap-{i}" for i in range(first, min(first + 1000, stop))]
            try:
                await create_tournament_topics(admin, f"cap-{first}", tables, 1)
            except TimeoutError:  # the leaders took longer than the gateway waits: wait on
                await all_led(admin, [table_topic(t) for t in tables])
    finally:
        await admin.close()
    return time.perf_counter() - began


async def all_led(admin: AIOKafkaAdminClient, topics: list[str], tries: int = 10) -> None:
    """`leaders_elected` (30 s at a time), asked again while the broker is slow to elect:
    on a loaded machine 1,000 new partitions can take longer than one wait."""
    for attempt in range(tries):
        try:
            return await leaders_elected(admin, topics)
        except TimeoutError:
            print(f"  ({len(topics)} topics not all led after {attempt + 1} × 30 s)",
                  file=sys.stderr, flush=True)
    raise TimeoutError(f"{len(topics)} topics without their leaders after {tries} × 30 s")


async def round_trips(bootstrap: str, tables: int, sends: int, rate: float,
                      rng: random.Random) -> list[float]:
    """`sends` events to random tables' topics at `rate` a second; each one's round trip (ms)."""
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all", linger_ms=0,
                                enable_idempotence=True)
    await producer.start()
    times: list[float] = []

    async def one(topic: str) -> None:
        sent = time.perf_counter()
        await (await producer.send(topic, EVENT))
        times.append((time.perf_counter() - sent) * 1000)

    try:  # a first event on every topic (its metadata, its leader's first write): not timed
        for first in range(0, tables, 1000):
            await asyncio.gather(*[await producer.send(table_topic(f"cap-{i}"), EVENT)
                                   for i in range(first, min(first + 1000, tables))])
        picked = [table_topic(f"cap-{rng.randrange(tables)}") for _ in range(sends)]
        pending: list[asyncio.Task[None]] = []
        began = time.perf_counter()
        for i, topic in enumerate(picked):
            await asyncio.sleep(max(0.0, began + i / rate - time.perf_counter()))
            pending.append(asyncio.create_task(one(topic)))
        await asyncio.gather(*pending)
    finally:
        await producer.stop()
    return times


async def idle_cpu(pid: int, seconds: float) -> float:
    """The broker's CPU (% of a core) over `seconds` with nothing asked of it."""
    before = proc_figures(pid)["cpu_s"]
    await asyncio.sleep(seconds)
    return 100 * (proc_figures(pid)["cpu_s"] - before) / seconds


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def ports_freed(ports: list[int], limit_s: float = 60.0) -> None:
    """Waits until nothing listens on `ports`: a JVM whose main thread has exited shows as a
    zombie (`Z` to ps) while its other threads still close its sockets, so the stop script
    may return while the controller's port is still held."""
    began = time.perf_counter()
    while any(map(listening, ports)):
        if time.perf_counter() - began > limit_s:
            raise TimeoutError(f"ports {ports} still taken {limit_s:.0f} s after the stop")
        await asyncio.sleep(0.1)


def stop_cleanly(data: Path, limit_s: float = 600.0) -> float:
    """SIGTERM to the broker, and the seconds until it has exited (its logs closed cleanly:
    `deploy/kafka/stop.sh` would kill it after 10 s, and a killed broker recovers its logs at
    the next start)."""
    pid = broker_pid(data)
    began = time.perf_counter()
    os.kill(pid, signal.SIGTERM)
    while Path(f"/proc/{pid}").exists() and time.perf_counter() - began < limit_s:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] \
            if Path(f"/proc/{pid}/stat").exists() else "Z"
        if state == "Z" and len(os.listdir(f"/proc/{pid}/task")) <= 1:
            break  # exited, not reaped (its parent is gone: init reaps it)
        time.sleep(0.1)
    return time.perf_counter() - began


async def restart(env: dict[str, str], bootstrap: str, tables: int, port: int,
                  data: Path) -> tuple[float, float]:
    """A clean stop and a start: seconds the stop took, and seconds from the start until
    every table's topic has its leader."""
    stopped = stop_cleanly(data)
    deploy("stop.sh", env)  # forgets the pid file
    await ports_freed([port, port + 1])
    began = time.perf_counter()
    deploy("start.sh", env)
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=120_000)
    await admin.start()
    try:
        topics = [table_topic(f"cap-{i}") for i in range(tables)]
        for first in range(0, len(topics), 1000):
            await all_led(admin, topics[first:first + 1000])
    finally:
        await admin.close()
    return stopped, time.perf_counter() - began


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


async def main(args: argparse.Namespace) -> None:
    print(f"machine: {machine()}; vm.max_map_count "
          f"{Path('/proc/sys/vm/max_map_count').read_text().strip()}", flush=True)
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        env = {**os.environ, "TABLESERVER_DATA": str(data),
               "TABLESERVER_KAFKA_PORT": str(args.port), "TABLESERVER_KAFKA_BROKERS": "1",
               # a start loads every partition's log before it listens: minutes at 10,000
               "TABLESERVER_KAFKA_START_TIMEOUT": "900"}
        bootstrap = f"127.0.0.1:{args.port}"
        deploy("start.sh", env)
        try:
            made = 0
            print("| table topics | created in | produce p50 / p99 | broker resident | open files "
                  "| memory maps | idle CPU | clean restart: stop, start until all led |")
            print("|---|---|---|---|---|---|---|---|")
            for level in args.levels:
                took = await create_tables(bootstrap, made, level)
                made = level
                pid = broker_pid(data)
                times = await round_trips(bootstrap, level, args.sends, args.rate, rng)
                idle = await idle_cpu(pid, args.idle)
                figures = proc_figures(pid)
                back = "–"
                if args.restart:
                    stopped, started = await restart(env, bootstrap, level, args.port, data)
                    back = f"stop {stopped:.1f} s, start {started:.1f} s"
                print(f"| {level:,} | {took:.1f} s | {pct(times, 50):.1f} / {pct(times, 99):.1f}"
                      f" ms | {figures['rss_mb']:,.0f} MB | {figures['files']:,.0f} | "
                      f"{figures['maps']:,.0f} | {idle:.1f} % | {back} |", flush=True)
        finally:
            deploy("stop.sh", env)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="1000,4000,10000",
                        type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--sends", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=200.0, help="sends a second")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle CPU measured")
    parser.add_argument("--restart", action="store_true")
    parser.add_argument("--port", type=int, default=29792)
    asyncio.run(main(parser.parse_args()))
