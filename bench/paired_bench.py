"""The pipeline and its floors measured in alternating slices, on one stack started once, so
that a shared machine's load falls on both sides of each ratio alike.

One Kafka and one Redis; beside them the real pipeline (the gateway and two processor workers,
`tests/stack.py`), the bare floor (`floor_bench.py`'s whole path: an append, a copy, a plain
Redis write) and the matched floor (`matched_floor.py`: the pipeline's I/O per event exactly,
none of our logic). At each operating point (events/s over the tables in turn, whole boards:
the auction, the play card by card, the claim, `whole_boards.py`),
`--slices` rounds of: the pipeline, the matched floor, the bare floor, `--seconds` each,
after a warm-up of each. Each slice's CPU per event is the sum over the side's processes with
Kafka and Redis (the load generator left out), its events the answers it got. Printed, per
operating point: each side's median and min–max of CPU ms per event, and of the ratios ours /
matched and ours / bare taken slice by slice (each pipeline slice against the floors' slices
beside it in the same round). CPU instructions per event: from `perf stat` where the machine
exposes the counter (`--perf`), else said so.

    python bench/paired_bench.py pipeline [--rates 400,1000] [--slices 6] [--seconds 20]
                                          [--tables 1000] [--ports KAFKA REDIS GATEWAY]
    python bench/paired_bench.py hot [--sockets 10000] [--slices 6] [--seconds 5]

`hot`: the hot table (`--sockets` on one table, two gateway processes, the audience read by
`feed_reader.c`) and the kernel floor (`fanout_floor.c`: two senders, one reader, as ours; each
update as many bytes a socket as ours were sent, measured in the round) in alternating rounds
on feed_bench's one stack (`feed_bench.py --pair-floor`): each side's p99 from the write to
the reading, and the ratio's, round by round, with their spread; both sizes printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import uvloop
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from redis.asyncio import Redis

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/

from bench.floor_bench import SHARDS, Load, Route, create_topics
from bench.matched_floor import LIVE as MATCHED_LIVE, WORKERS, table_name
from bench.pair_figures import pair_lines
from bench.pipeline_bench import Pipeline, Runner, cpu_seconds
from bench.stack_args import add_stack_options, machine
from services.common.names import state_key
from tests.stack import ROOT, running_stack, wait_port

HERE = Path(__file__).resolve().parent
SIDES = ("ours", "matched", "bare")


def perf_instructions() -> bool:
    """Whether `perf stat` can count this machine's instructions (a VM may not expose the
    hardware counters)."""
    if shutil.which("perf") is None:
        return False
    done = subprocess.run(["perf", "stat", "-x,", "-e", "instructions", "--", "true"],
                          capture_output=True, text=True, check=False)
    return done.returncode == 0 and "<not supported>" not in done.stderr \
        and "<not counted>" not in done.stderr


class Side:
    """One side of the pair: its processes and how to put `seconds` of load at `rate` on it
    (returning the events answered)."""

    def __init__(self, name: str, pids: dict[str, int],
                 load: Callable[[float, float], Awaitable[int]]) -> None:
        self.name, self.pids, self.load = name, pids, load
        self.ms: dict[int, list[float]] = {}  # rate → CPU ms per event, slice by slice

    async def slice(self, rate: float, seconds: float) -> str:
        """One slice measured: its CPU ms per event kept; the slice's line returned."""
        before = {n: cpu_seconds(p) for n, p in self.pids.items()}
        started = time.perf_counter()
        answered = await self.load(rate, seconds)
        took = time.perf_counter() - started
        await asyncio.sleep(1)  # the workers write the slice's last states
        spent = sum(cpu_seconds(p) - before[n] for n, p in self.pids.items())
        ms = 1000 * spent / max(answered, 1)
        self.ms.setdefault(int(rate), []).append(ms)
        return f"{self.name} {ms:.3f} ({answered / took:.0f}/s held)"


def spawn(script: str, *role: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(HERE / script), *role], cwd=ROOT,
                            stdout=log.open("ab"), stderr=subprocess.STDOUT)


async def pipeline_pair(args: argparse.Namespace, data: Path, bootstrap: str, url: str,
                        director: str, pids: dict[str, int],
                        stack_procs: dict[str, subprocess.Popen[bytes]]) -> None:
    kafka_redis = {"kafka": pids["kafka"], "redis": pids["redis"]}
    pipeline = Pipeline(url, director, args.tables)
    print(f"creating {args.tables} tables, and the floors' topics …", flush=True)
    await pipeline.setup()
    # whole boards from the first event (each board started with its record's deal): the
    # calls-only load's boards started with no deal stopped the processor's fetch loop once
    # a later board was started (`board_end`'s KeyError 'deal', 2026-11-29)
    pipeline.play_whole_boards()
    await create_topics(bootstrap, args.tables)
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    await admin.create_topics([NewTopic(MATCHED_LIVE, SHARDS, 1)])
    await admin.close()
    runner = Runner(argparse.Namespace(rate=args.rates[0]), pipeline, bootstrap,
                    Redis.from_url(f"redis://127.0.0.1:{args.ports[1]}/0"), pids)

    async def ours(rate: float, seconds: float) -> int:
        before = len(pipeline.sent)
        await runner.load(seconds, rate=rate)
        return len(pipeline.sent) - before

    await ours(args.rates[0], args.warmup)  # the tables' states in Redis, Kafka's JIT warm
    redis = Redis.from_url(f"redis://127.0.0.1:{args.ports[1]}/0")
    stored = await redis.hget(state_key(pipeline.tables[0]), "board") or b"{}"
    state = stored if isinstance(stored, bytes) else stored.encode()
    await redis.aclose()
    state_file = data / "matched-state.json"
    state_file.write_bytes(state)
    print(f"a table's state in the pipeline's Redis: {len(state)} bytes (the matched floor "
          "writes one of that size)", flush=True)
    redis_port = str(args.ports[1])
    bare_port, matched_port = args.ports[2] + 1, args.ports[2] + 2
    procs = {
        "bare gateway": spawn("floor_bench.py", "--gateway", Route.COPIES.name, str(bare_port),
                              bootstrap, log=data / "bare-gateway.log"),
        "bare worker": spawn("floor_bench.py", "--worker", Route.COPIES.name, bootstrap,
                             redis_port, str(args.tables), log=data / "bare-worker.log"),
        "matched gateway": spawn("matched_floor.py", "--gateway", str(matched_port), bootstrap,
                                 redis_port, log=data / "matched-gateway.log"),
        **{f"matched worker {i}": spawn("matched_floor.py", "--worker", str(i), bootstrap,
                                        redis_port, str(state_file),
                                        log=data / f"matched-worker-{i}.log")
           for i in range(WORKERS)},
    }
    try:
        wait_port(bare_port, 30)
        wait_port(matched_port, 30)
        bare_load, matched_load = Load(bare_port, args.tables), Load(matched_port, args.tables)

        async def floor(load: Load, rate: float, seconds: float) -> int:
            return await load.run(rate, seconds)

        sides = [
            Side("ours", {n: p for n, p in pids.items() if n != "load generator"}, ours),
            Side("matched", {**{n: p.pid for n, p in procs.items() if n.startswith("matched")},
                             **kafka_redis},
                 lambda r, s: floor(matched_load, r, s)),
            Side("bare", {**{n: p.pid for n, p in procs.items() if n.startswith("bare")},
                          **kafka_redis},
                 lambda r, s: floor(bare_load, r, s)),
        ]
        for side in sides[1:]:
            await side.load(args.rates[0], args.warmup)  # each floor's positions found, warm
        written = await runner.redis.hget(state_key(table_name(0)), "version")
        print(f"the matched floor's workers wrote its tables' states (table 0 at version "
              f"{written!r}); the bare one's plain hashes beside", flush=True)
        for rate in args.rates:
            print(f"{rate} events/s, {args.slices} rounds of {args.seconds} s a side "
                  f"({machine()}) …", flush=True)
            for n in range(args.slices):
                dead = [name for name, proc in stack_procs.items() if proc.poll() is not None]
                if dead:  # its CPU would be missing from ours: no figure, the cause said
                    sys.exit(f"the pipeline's {', '.join(dead)} stopped (its log in "
                             f"{data}, kept with --keep): nothing measured")
                line = [await side.slice(rate, args.seconds) for side in sides]
                print(f"  round {n + 1}: CPU ms per event " + ", ".join(line), flush=True)
            print_pair(rate, sides)
        failed = pipeline.failed + bare_load.failed + matched_load.failed
        print(f"refused or unanswered over the run: {len(failed)}"
              + (f" (the first: {failed[0]})" if failed else ""))
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            proc.wait(10)
        await pipeline.http.aclose()
        await runner.redis.aclose()


def print_pair(rate: int, sides: list[Side]) -> None:
    print("\n".join(pair_lines(rate, {side.name: side.ms[rate] for side in sides})),
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pair", choices=["pipeline", "hot"])
    parser.add_argument("--sockets", type=int, default=10000, help="hot: on one table")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rates", type=lambda t: [int(r) for r in t.split(",")],
                        default=[400, 1000])
    parser.add_argument("--slices", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=15)
    add_stack_options(parser, [29092, 26379, 28000])
    args = parser.parse_args()
    if args.pair == "hot":  # feed_bench's stack and gateways, the kernel floor between rounds
        sys.exit(subprocess.run([
            sys.executable, str(HERE / "feed_bench.py"), "--layouts", "hot", "--sockets",
            str(args.sockets), "--gateways", "2", "--client", "c", "--calls", "0",
            "--seconds", str(args.seconds), "--pair-floor", str(args.slices),
            "--ports", *map(str, args.ports)], check=False).returncode)
    print(f"machine: {machine()}", flush=True)
    print("CPU instructions per event: " + (
        "perf stat counts them here (not yet wired)" if perf_instructions() else
        "not measured, `perf stat` has no instructions counter on this machine (a VM without "
        "the hardware counters)"), flush=True)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    with (contextlib.nullcontext(str(args.keep)) if args.keep
          else tempfile.TemporaryDirectory()) as tmp, running_stack(
            Path(tmp), *args.ports, workers=2,
            extra_env={"TABLESERVER_SHARDS": str(SHARDS)}) as stack:
        data = Path(tmp)
        time.sleep(8)  # the workers join the group and take their shards
        assert stack.gateway is not None
        pids = {"gateway": stack.gateway.pid,
                **{f"worker {name}": proc.pid for name, proc in stack.workers.items()},
                "kafka": int((data / "kafka" / "kafka.pid").read_text()),
                "redis": int((data / "redis" / "redis.pid").read_text()),
                "load generator": os.getpid()}
        procs = {"gateway": stack.gateway,
                 **{f"worker {name}": proc for name, proc in stack.workers.items()}}
        uvloop.run(pipeline_pair(args, data, stack.bootstrap, stack.url, stack.director,
                                 pids, procs))


if __name__ == "__main__":
    main()
