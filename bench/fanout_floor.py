"""The floor under the hot table's target: one update to N loopback sockets, in C, with no
Python, WebSocket or framework on either side (`bench/fanout_floor.c`, compiled here with the
machine's `cc`). Beside `bench/feed_bench.py`'s figures for the gateway, it says how much of the
hot table's p99 is this machine's (its kernel, its two cores) and how much is ours.

    python bench/fanout_floor.py [--sockets 1000 5000 10000] [--updates 20]

For each count of sockets: one sender and one reader process, then two of each (as two
gateway processes and an audience read in two). A benchmark: it asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for bench/
from bench.stack_args import compiled

SOURCE = Path(__file__).with_name("fanout_floor.c")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, nargs="+", default=[1000, 5000, 10000])
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--interval-ms", type=int, default=500, help="between two updates")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        binary = compiled(SOURCE, Path(tmp) / "fanout_floor")
        for sockets in args.sockets:
            for processes in (1, 2):
                subprocess.run([str(binary), str(sockets), str(args.updates), str(processes),
                                str(processes), str(args.interval_ms)], check=False)


if __name__ == "__main__":
    main()
