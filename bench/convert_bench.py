"""Benchmark of the PBN and LIN readers: boards per second on the real records in tests/data.

A benchmark, not a test: it prints numbers and asserts nothing about speed. One core: the
readers are plain Python. Each file is read again and again for a few CPU seconds; the best
run is the code at the machine's full speed, the median what it gave on average. This VM
alternates, by the second, between its full speed and about half of it (seen within one
process pinned to one core), so the two can differ twofold; callgrind's count of instructions
per board is the measure that does not move.

    make bench
    python bench/convert_bench.py --seconds 10
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shared.notation import RecordError, lin_events, pbn_events

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def runs_seconds(read: Callable[[str], Any], text: str, seconds: float) -> list[float]:
    """CPU seconds of each read of `text`, read again and again for `seconds` of CPU time."""
    runs: list[float] = []
    while sum(runs) < seconds or len(runs) < 5:
        start = time.process_time()
        read(text)
        runs.append(time.process_time() - start)
    return runs


def instructions_per_board(path: Path, boards: int) -> float | None:
    """CPU instructions per board of reading `path` once (valgrind's callgrind): the same
    code gives the same count run after run, unlike seconds on a shared VM."""
    if shutil.which("valgrind") is None:
        return None
    script = ("import sys\n"
              "from shared.notation import lin_events, pbn_events\n"
              "text = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')\n"
              "if sys.argv[2] == 'read':\n"
              "    (pbn_events if sys.argv[1].endswith('.pbn') else lin_events)(text)\n")
    totals = []
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("load", "read"):
            out = Path(tmp) / f"cg.{mode}"
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            sys.executable, "-c", script, str(path), mode], check=True,
                           capture_output=True, cwd=DATA.parents[1])
            totals.append(next(int(line.split()[1]) for line in out.read_text().splitlines()
                               if line.startswith("totals:")))
    return (totals[1] - totals[0]) / boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds of reading per file (the VM's speed changes by the "
                             "second: long enough to see both)")
    args = parser.parse_args()
    print(f"{'record':40s} {'boards':>6s} {'best b/s':>9s} {'median b/s':>10s} "
          f"{'instr/board':>11s}")
    for path in sorted(DATA.glob("*.pbn")) + sorted(DATA.glob("*.lin")):
        read = pbn_events if path.suffix == ".pbn" else lin_events
        text = path.read_bytes().decode("utf-8", errors="replace")
        try:
            boards = sum(1 for e in read(text) if e["type"] == "board_started")
        except RecordError:
            continue  # the broken fixture
        runs = sorted(runs_seconds(read, text, args.seconds))
        instructions = instructions_per_board(path, boards)
        print(f"{path.name:40s} {boards:6d} {boards / runs[0]:9.0f} "
              f"{boards / runs[len(runs) // 2]:10.0f} "
              f"{'-' if instructions is None else f'{instructions:,.0f}':>11s}")
    record = DATA / "realbridge-2021-online-qualifier.pbn"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "services.cli.main", "convert", str(record)],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    boards = sum(1 for line in done.stdout.splitlines()
                 if json.loads(line)["type"] == "board_started")
    print(f"`tableserver convert {record.name}` end to end (process start, JSON out): "
          f"{boards} boards in {wall:.2f} s")


if __name__ == "__main__":
    main()
