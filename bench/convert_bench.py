"""Benchmark of the PBN and LIN readers: boards per second on the real records in tests/data.

A benchmark, not a test: it prints numbers and asserts nothing about speed. One core: the
readers are plain Python; the best of `--repeat` runs (CPU time) is reported per file, since
this kind of machine wanders by tens of percent between identical runs.

    make bench
    python bench/convert_bench.py --repeat 50
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


def best_seconds(read: Callable[[str], Any], text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        read(text)
        best = min(best, time.process_time() - start)
    return best


def instructions_per_board(boards: int) -> float | None:
    """CPU instructions per board of reading every record once (valgrind's callgrind): the
    same code gives the same count run after run, unlike seconds on a shared VM."""
    if shutil.which("valgrind") is None:
        return None
    script = ("import sys\nfrom pathlib import Path\n"
              "from shared.notation import RecordError, lin_events, pbn_events\n"
              f"files = sorted(Path({str(DATA)!r}).glob('*.[pl][bi]n'))\n"
              "texts = [(f.suffix, f.read_bytes().decode('utf-8', 'replace')) for f in files]\n"
              "if sys.argv[1] == 'read':\n"
              "    for suffix, text in texts:\n"
              "        try:\n"
              "            (pbn_events if suffix == '.pbn' else lin_events)(text)\n"
              "        except RecordError:\n"
              "            pass\n")
    totals = []
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("load", "read"):
            out = Path(tmp) / f"cg.{mode}"
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                            sys.executable, "-c", script, mode], check=True,
                           capture_output=True, cwd=DATA.parents[1])
            totals.append(next(int(line.split()[1]) for line in out.read_text().splitlines()
                               if line.startswith("totals:")))
    return (totals[1] - totals[0]) / boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    total_boards, total_seconds = 0, 0.0
    print(f"{'record':45s} {'boards':>6s} {'boards/s':>9s}")
    for path in sorted(DATA.glob("*.pbn")) + sorted(DATA.glob("*.lin")):
        read = pbn_events if path.suffix == ".pbn" else lin_events
        text = path.read_bytes().decode("utf-8", errors="replace")
        try:
            boards = sum(1 for e in read(text) if e["type"] == "board_started")
        except RecordError:
            continue  # the broken fixture
        seconds = best_seconds(read, text, args.repeat)
        total_boards, total_seconds = total_boards + boards, total_seconds + seconds
        print(f"{path.name:45s} {boards:6d} {boards / seconds:9.0f}")
    print(f"{'all records (pure readers)':45s} {total_boards:6d} "
          f"{total_boards / total_seconds:9.0f}")
    per_board = instructions_per_board(total_boards)
    if per_board is not None:
        print(f"{per_board:,.0f} CPU instructions per board (callgrind, every record read "
              "once; a stable measure)")
    record = DATA / "realbridge-2021-online-qualifier.pbn"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "services.cli", "convert", str(record)],
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    boards = sum(1 for line in done.stdout.splitlines()
                 if json.loads(line)["type"] == "board_started")
    print(f"`tableserver convert {record.name}` end to end (process start, JSON out): "
          f"{boards} boards in {wall:.2f} s")


if __name__ == "__main__":
    main()
