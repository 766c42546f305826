"""CPU instructions per event of our own code in the pipeline, counted by valgrind's callgrind:
the figure that does not move with the machine (seconds of CPU per event depend on the
operating point and on the neighbours; the count of instructions for a fixed input does not).

A fixed slice, driven in one process through our real code with its I/O in memory (the unit
tests' fakes, tests/fakes.py: `gateway_adapters` = `MemoryKafka` + `MemoryAppender` (the
producer) + `MemoryStore` + `Switch` (the rate limits) …; the worker's shard logs
`MemoryShardLog`):
- `TABLES` tables each play one whole board of a real record (bench/whole_boards.py), then a
  second one: the first is the warm-up (not counted: imports, first calls, the tokens' checks
  cached), the second is counted;
- round after round, each table sends its next event (the director's board start before a
  board's first call), and then the worker takes the round's live copies as a fetch gives
  them: Kafka record batches, one a live partition;
- the gateway's side: each seat's `POST /api/tables/{t}/events` through the ASGI app in process
  (httpx's ASGI transport, as bench/state_read_bench.py): the token, the rate limit, the state
  read for a card (parsed from its stored bytes, as `RedisStore.read_state` does), the checks,
  the encoding, the append and the live copy;
- the worker's side: the fetched batches decoded (`services.common.kafka.batches.decode`), then
  `WorkerLoop.process` (the fold, the views, each shard's commit when there are alerts, and
  `RedisStore.write_batch`'s commands over pipelined lines that answer in memory).

Counting: callgrind starts with instrumentation and collection off (`--instr-atstart=no
--collect-atstart=no`); a small C helper (callgrind's client requests, compiled here with the
system's valgrind/callgrind.h) starts the instrumentation when the counted board begins (the
start-up and the warm-up run at valgrind's full speed) and toggles collection on and off around
each counted step (`CALLGRIND_TOGGLE_COLLECT`), so the warm-up, the set-up and the other side are
left out.
Each side is a run of its own; a third run (`idle`) makes the same toggles around nothing, and
its count (the toggles' own cost) is taken off. PYTHONHASHSEED is fixed: the same input gives
the same count run after run (the bench runs each side twice and prints the spread). The
runs go at once: a loaded machine slows them, and changes no count.

Where the instructions go: callgrind sees C functions, and our Python is the interpreter's
(86 %); so each side also prints the self instructions by library, the extensions' functions by
inclusive count (JSON, msgpack, the allocator), and a cProfile of the same steps run natively
(switched where callgrind's collection is) for our Python functions (their shares are times,
only indicative; their calls per event exact).

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/instructions_bench.py              # 20 tables, each side twice
    python bench/instructions_bench.py --tables 8 --runs 1 --top 25
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import ctypes
import gc
import itertools
import json
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/

from bench.whole_boards import Step, WholeBoard, whole_boards

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests/data/realbridge-2021-online-qualifier.pbn"
TABLES = 4  # a warm-up board and a counted one each: ~230 events counted a side
SIDES = ("gateway", "worker")
IDLE = "idle"  # the toggles around nothing: their own cost, taken off the sides'
HELPER = """#include <valgrind/callgrind.h>
void toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
void instrument(void) { CALLGRIND_START_INSTRUMENTATION; }
"""


@dataclass(frozen=True)
class Move:
    """One table's next event in a round: the board's start (the director's) before it when
    it is the board's first, and the seat's step."""

    table: str
    start: dict[str, Any] | None
    step: Step
    counted: bool  # of the counted board (else the warm-up's)


def slice_of(boards: list[WholeBoard], tables: int) -> list[list[Move]]:
    """The rounds: table `t<i>` plays board 1 (`boards[i]`, the warm-up) then board 2
    (`boards[i + tables]`, counted), one event a round; a table whose board is over waits
    for the others (the counted board starts in the same round at every table)."""
    if len(boards) < 2 * tables:
        raise ValueError(f"{tables} tables need {2 * tables} whole boards, the record has "
                         f"{len(boards)}")
    rounds: list[list[Move]] = []
    for number, counted in ((1, False), (2, True)):
        played = [boards[i + (number - 1) * tables] for i in range(tables)]
        for position in range(max(len(b.steps) for b in played)):
            rounds.append([
                Move(f"t{i}", {"board": number, **board.start} if position == 0 else None,
                     board.steps[position], counted)
                for i, board in enumerate(played) if position < len(board.steps)])
    return rounds


def counted_events(rounds: list[list[Move]]) -> int:
    """The seats' events of the counted board: the gateway's count is divided by these."""
    return sum(move.counted for moves in rounds for move in moves)


def per_event(total: int, idle: int, events: int) -> float:
    """Instructions per event: a side's count less the toggles' own (the idle run's)."""
    if events <= 0:
        raise ValueError("no event counted")
    return (total - idle) / events


def totals_of(callgrind_out: str) -> int:
    """The instructions collected, from a callgrind output file's `totals:` (or `summary:`)
    line."""
    for line in callgrind_out.splitlines():
        if line.startswith(("totals:", "summary:")):
            return int(line.split()[1])
    raise ValueError("no totals in callgrind's output")


def spread(counts: list[int]) -> float:
    """The runs' spread: (largest − smallest) / smallest."""
    return (max(counts) - min(counts)) / min(counts)


# --- the driven process (under valgrind) -----------------------------------------------------


class Toggle:
    """`CALLGRIND_TOGGLE_COLLECT` through the compiled helper (nothing without one), or a
    Python profiler's switch."""

    def __init__(self, library: str | None, profiler: cProfile.Profile | None = None) -> None:
        self.call: Callable[[], None] = (ctypes.CDLL(library).toggle if library
                                         else lambda: None)
        self.instrument: Callable[[], None] = (ctypes.CDLL(library).instrument if library
                                               else lambda: None)
        if profiler is not None:
            switch = iter(itertools.cycle((profiler.enable, profiler.disable)))
            self.call = lambda: next(switch)()
        self.toggles = 0

    def __call__(self) -> None:
        self.call()
        self.toggles += 1


async def drive(side: str, tables: int, toggle: Toggle) -> dict[str, int]:
    """Play the slice through the gateway's app and the worker's per-batch function, `toggle`
    around each counted step of `side` (around nothing at the same places for `IDLE`). The
    slice's counts: events sent, records folded, events counted of each side."""
    import httpx
    from aiokafka.record.default_records import DefaultRecordBatchBuilder
    from aiokafka.structs import TopicPartition

    from services.common.kafka.batches import decode
    from services.common.names import LIVE
    from services.common.settings import Settings
    from services.common.store import RedisStore, StateWrite, board_of
    from services.gateway.app import create_app
    from services.processor.shard import Folded, ShardRunner
    from services.processor.worker_loop import WorkerLoop
    from tests.fakes import (
        DIRECTOR,
        MemoryFetcher,
        MemoryKafka,
        MemoryShardLog,
        MemoryStore,
        gateway_adapters,
        supervisor,
    )

    class StoredBytes(MemoryStore):
        """`MemoryStore` whose state is read back from the bytes written, parsed at each read
        as `RedisStore.read_state` parses what Redis answers."""

        def __init__(self) -> None:
            super().__init__()
            self.raw: dict[str, tuple[int, bytes]] = {}

        async def write_batch(self, states: list[StateWrite]) -> None:
            await super().write_batch(states)
            for w in states:
                self.raw[w.table] = (w.version, json.dumps(w.board).encode())

        async def read_state(self, table: str) -> tuple[int, Any] | None:
            found = self.raw.get(table)
            return None if found is None else (found[0], board_of(found[1]))

    class AnsweringLines:
        """Pipelined lines that answer every command at once (`RedisStore.write_batch`'s
        commands are made, and not sent)."""

        async def execute_many(self, commands: list[tuple[str | int, ...]]) -> list[int]:
            return [1] * len(commands)

    data = Path(tempfile.mkdtemp())
    settings = Settings(TABLESERVER_DATA=data, TABLESERVER_SIGNING_KEY="k" * 32,
                        TABLESERVER_DIRECTOR_TOKEN=DIRECTOR)
    kafka = MemoryKafka(shards=settings.shards)
    store = StoredBytes()
    guard = create_app(settings, gateway_adapters(kafka, store=store))
    director = {"Authorization": f"Bearer {DIRECTOR}"}
    rounds = slice_of(whole_boards(RECORD), tables)
    seats: dict[str, dict[str, str]] = {}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(guard),
                                 base_url="http://bench") as client:
        for i in range(tables):
            created = await client.post("/api/tables", json={"table": f"t{i}"},
                                        headers=director)
            created.raise_for_status()
            seats[f"t{i}"] = created.json()["seats"]
        worker = WorkerLoop(RedisStore(None, AnsweringLines()),  # type: ignore[arg-type]
                            MemoryFetcher(kafka), lambda s: MemoryShardLog(kafka, s),
                            settings.shards, "w", supervisor())
        for shard in range(settings.shards):
            runner = ShardRunner(shard, worker.fetcher, MemoryShardLog(kafka, shard))
            await runner.prepare()
            worker.runners[shard] = runner
        read = {TopicPartition(LIVE, s): 0 for s in range(settings.shards)}
        found = {"sent": 0, "folded": 0, "gateway": 0, "worker": 0}
        gc.collect()
        gc.freeze()  # the set-up's objects out of the collector's sight, as in a long run
        for moves in rounds:
            counting = moves[0].counted
            if counting and not found["gateway"]:  # the counted board begins: instrumented
                toggle.instrument()  # from here on (the warm-up ran at valgrind's full speed)
            for move in moves:
                if move.start is not None:
                    (await client.post(f"/api/tables/{move.table}/boards", json=move.start,
                                       headers=director)).raise_for_status()
                scope, receive, send, answered = asgi_post(
                    f"/api/tables/{move.table}/events", seats[move.table][move.step.seat],
                    move.step.body)
                on = counting and side in ("gateway", IDLE)
                if on:
                    toggle()
                    if side == IDLE:
                        toggle()
                await guard(scope, receive, send)
                if on and side == "gateway":
                    toggle()
                if answered[0]["status"] != 202:
                    raise RuntimeError(f"{move.table} {move.step}: {answered}")
                found["sent"] += 1
                found["gateway"] += counting
            fetched = {tp: fetch_answer(DefaultRecordBatchBuilder, kafka, tp, start)
                       for tp, start in read.items() if start < len(kafka.records(LIVE,
                                                                                  tp.partition))}
            on = counting and side in ("worker", IDLE)
            if on:
                toggle()
                if side == IDLE:
                    toggle()
            batches = {}
            for tp, answer_bytes in fetched.items():
                batches[tp], read[tp] = decode(answer_bytes, read[tp])
            await worker.process(batches)
            if on and side == "worker":
                toggle()
            folded = sum(len(records) for records in batches.values())
            found["folded"] += folded
            found["worker"] += folded if counting else 0
            touched = {move.table for move in moves}  # the gateway's reads, not counted
            await store.write_batch(Folded(touched={
                t: worker.runners[s].tables[t] for s in worker.runners for t in touched
                if t in worker.runners[s].tables}).states())
    gc.unfreeze()
    shutil.rmtree(data, ignore_errors=True)
    return found


def asgi_post(path: str, token: str, body: bytes
              ) -> tuple[dict[str, Any], Callable[[], Any], Callable[[Any], Any], list[Any]]:
    """An HTTP request as uvicorn gives it to the app (scope, receive, send), and the list the
    answer's messages go to: the app called in process, with no client's code in the count."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1),
             "server": ("bench", 80),
             "headers": [(b"host", b"bench"), (b"authorization", f"Bearer {token}".encode()),
                         (b"content-type", b"application/json"),
                         (b"content-length", str(len(body)).encode())]}
    answered: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Any) -> None:
        answered.append(message)

    return scope, receive, send, answered


def fetch_answer(builder: Any, kafka: Any, tp: Any, start: int) -> bytes:
    """The live partition's records from `start` on as one record batch, as Kafka answers a
    fetch (the batch's base offset is `start`)."""
    batch = builder(magic=2, compression_type=0, is_transactional=0, producer_id=-1,
                    producer_epoch=-1, base_sequence=-1, batch_size=1 << 24)
    for i, (key, value) in enumerate(kafka.records(tp.topic, tp.partition)[start:]):
        batch.append(i, timestamp=None, key=key, value=value, headers=[])
    data = bytearray(batch.build())
    data[0:8] = start.to_bytes(8, "big")
    return bytes(data)


def python_profile(side: str, tables: int, count: int) -> list[str]:
    """The same slice natively under cProfile, switched on and off where callgrind counts:
    the Python functions that take the most of `side`'s time, inclusive, with their calls
    per event (the calls are exact; the shares are times, so only indicative)."""
    import logging

    logging.disable(logging.WARNING)
    profiler = cProfile.Profile()
    found = asyncio.run(drive(side, tables, Toggle(None, profiler)))
    stats = pstats.Stats(profiler)
    table: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = stats.total_tt  # type: ignore[attr-defined]
    ours = [(cumulative, calls, where) for where, (_, calls, _, cumulative, _) in table.items()
            if "/site-packages/" not in where[0] and "/lib/python3" not in where[0]
            and where[0] != "~" and not where[0].endswith("instructions_bench.py")]
    lines = []
    for cumulative, calls, (path, line, name) in sorted(ours, reverse=True)[:count]:
        short = path.split(str(ROOT) + "/", 1)[-1]
        lines.append(f"    {cumulative / total:6.1%} {calls / found[side]:6.2f} calls/event  "
                     f"{short}:{line} {name}")
    return lines


def child(side: str, tables: int, library: str | None, report: Path) -> None:
    import logging

    logging.disable(logging.WARNING)
    toggle = Toggle(library)
    found = asyncio.run(drive(side, tables, toggle))
    report.write_text(json.dumps({**found, "toggles": toggle.toggles}))


# --- the parent: valgrind, callgrind_annotate, the report ------------------------------------


def helper(tmp: Path) -> str | None:
    """The toggle's shared library, compiled here (None: no compiler or no callgrind.h)."""
    source, library = tmp / "toggle.c", tmp / "toggle.so"
    source.write_text(HELPER)
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    done = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(source)],
                          capture_output=True)
    return str(library) if done.returncode == 0 else None


def counted(side: str, tables: int, library: str, tmp: Path, run: int
            ) -> tuple[int, dict[str, int], Path]:
    out, report = tmp / f"cg.{side}.{run}", tmp / f"report.{side}.{run}.json"
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT)}
    subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no",
                    f"--callgrind-out-file={out}", sys.executable, __file__, "--child", side,
                    "--tables", str(tables), "--library", library, "--report", str(report)],
                   check=True, capture_output=True, cwd=ROOT, env=env)
    return totals_of(out.read_text()), json.loads(report.read_text()), out


INTERPRETER = ("libpython", "/bin/python", "_asyncio", "ld-linux", "Python-3.", "csu/",
               "libc_start", "toggle")  # the interpreter's own frames: they hold every Python call


@dataclass(frozen=True)
class Row:
    """A line of callgrind_annotate's table: instructions, the function, its object file."""

    count: int
    function: str
    where: str  # the shared object (the interpreter's for its inlined headers)


def rows_of(annotated: str) -> list[Row]:
    """The function lines of `callgrind_annotate`'s output."""
    rows = []
    for line in annotated.splitlines():
        head, _, rest = line.strip().partition(" ")
        if not head.replace(",", "").isdigit() or "PROGRAM TOTALS" in rest:
            continue
        name = rest.split(")", 1)[-1].strip()
        function, _, where = name.partition(" [")
        where = where.rstrip("]") or function.split(":", 1)[0]
        rows.append(Row(int(head.replace(",", "")), function.rsplit(":", 1)[-1], where))
    return rows


def library_of(where: str) -> str:
    """A short name for an object file: the interpreter, or the extension's module."""
    if any(mark in where for mark in INTERPRETER):
        return "the interpreter (Python code)"
    base = where.rsplit("/", 1)[-1]
    return base.split(".cpython", 1)[0].split(".so", 1)[0]


def annotate(out: Path, inclusive: bool) -> list[Row]:
    return rows_of(subprocess.run(
        ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}",
         "--threshold=100", str(out)], capture_output=True, text=True, check=True).stdout)


def by_library(rows: list[Row]) -> list[tuple[int, str]]:
    """Self instructions summed by object file, largest first."""
    sums: dict[str, int] = {}
    for row in rows:
        sums[library_of(row.where)] = sums.get(library_of(row.where), 0) + row.count
    return sorted(((count, name) for name, count in sums.items()), reverse=True)


def outside_interpreter(rows: list[Row], count: int) -> list[Row]:
    """The `count` functions with the most inclusive instructions outside the interpreter's
    own frames (which hold every Python call): the extensions' work (JSON, msgpack, the
    validators, HMAC, the allocator …), by function; recursion's duplicates (`'2`) left out."""
    kept = [r for r in rows if not any(mark in r.where for mark in INTERPRETER)
            and "'" not in r.function and not r.function.startswith(("0x", "(below", "__libc"))]
    return sorted(kept, key=lambda r: -r.count)[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=TABLES)
    parser.add_argument("--runs", type=int, default=2, help="runs of each side (the spread)")
    parser.add_argument("--top", type=int, default=15, help="functions shown for each side")
    parser.add_argument("--child", choices=(*SIDES, IDLE), help=argparse.SUPPRESS)
    parser.add_argument("--library", help=argparse.SUPPRESS)
    parser.add_argument("--report", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.tables, args.library, args.report)
        return
    if shutil.which("valgrind") is None:
        print("instructions per event: not measured (install valgrind)")
        return
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        library = helper(tmp)
        if library is None:
            print("instructions per event: not measured (no C compiler or valgrind/callgrind.h "
                  "for the toggle)")
            return
        jobs = [(IDLE, 0), *((side, run) for side in SIDES for run in range(args.runs))]
        with ThreadPoolExecutor(len(jobs)) as pool:  # all at once: the counts ignore the load
            done = dict(zip(jobs, pool.map(lambda job: counted(job[0], args.tables, library,
                                                               tmp, job[1]), jobs),
                            strict=True))
        idle, found, _ = done[IDLE, 0]
        print(f"a slice of {found['sent']:,} events over {args.tables} tables (one whole board "
              f"each warming up, then one counted: {found['gateway']:,} seats' events, "
              f"{found['worker']:,} records folded); the toggles' own cost "
              f"{idle:,} instructions ({found['toggles']} toggles), taken off")
        for side in SIDES:
            counts, last = [], None
            for run in range(args.runs):
                total, found, out = done[side, run]
                counts.append(total)
                last = out
            events = found[side]
            figures = [per_event(c, idle, events) for c in counts]
            print(f"{side}: {sum(figures) / len(figures):,.0f} instructions per event "
                  f"({', '.join(f'{f:,.0f}' for f in figures)} in {args.runs} runs, spread "
                  f"{spread(counts):.2%}; {events:,} events)")
            assert last is not None
            total = counts[-1]
            print("  self instructions by library:")
            for value, name in by_library(annotate(last, inclusive=False))[:8]:
                print(f"    {value / total:6.1%} {value / events:>10,.0f}/event  {name}")
            print("  the top functions outside the interpreter's frames, inclusive:")
            for row in outside_interpreter(annotate(last, inclusive=True), args.top):
                print(f"    {row.count / total:6.1%} {row.count / events:>10,.0f}/event  "
                      f"{row.function} ({library_of(row.where)})")
            print("  the top functions of our code, inclusive (cProfile, the same steps run "
                  "natively: shares of time, calls exact):")
            print("\n".join(python_profile(side, args.tables, args.top)))


if __name__ == "__main__":
    main()
