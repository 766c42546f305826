"""What the benches that start a stack of their own share: the machine's line, the `--keep`
and `--ports` options, and the stack started in a temporary (or kept) directory."""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.stack import Stack, running_stack


def compiled(source: Path, binary: Path) -> Path:
    """`source` (a bench's C program) compiled by the machine's C compiler into `binary`."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.exit(f"no C compiler (cc) on this machine for {source.name}: nothing measured")
    subprocess.run([cc, "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def machine() -> str:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"{os.cpu_count()} cores, load average {load}"


def add_stack_options(parser: argparse.ArgumentParser, ports: list[int]) -> None:
    parser.add_argument("--keep", type=Path, help="run in this directory and keep its logs")
    parser.add_argument("--ports", type=int, nargs=3, metavar=("KAFKA", "REDIS", "GATEWAY"),
                        default=ports)


@contextlib.contextmanager
def bench_stack(args: argparse.Namespace, workers: int, shards: int) -> Iterator[Stack]:
    """The stack for a bench, in `args.keep` (kept) or a temporary directory; the machine's
    line printed first."""
    print(f"machine: {machine()}", flush=True)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    with (contextlib.nullcontext(str(args.keep)) if args.keep
          else tempfile.TemporaryDirectory()) as tmp, running_stack(
            Path(tmp), *args.ports, workers=workers,
            extra_env={"TABLESERVER_SHARDS": str(shards)}) as stack:
        yield stack
