"""`tableserver` run in the test's own process: `main(argv)` with a standard input and an
environment given, its exit status and its output captured as a process would show them, in
a few milliseconds instead of a process's start (tests/unit/test_cli.py keeps the process
smoke tests)."""

from __future__ import annotations

import io
import logging
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass

from services.cli.main import main


@dataclass(frozen=True)
class Ran:
    """What a run of the command showed: as `subprocess.CompletedProcess` names it."""

    returncode: int
    stdout: str
    stderr: str


@contextmanager
def _environment(env: Mapping[str, str]) -> Iterator[None]:
    before = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def _stdin(text: str) -> Iterator[None]:
    before, sys.stdin = sys.stdin, io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = before


def _exit_status(done: SystemExit) -> int:
    """argparse's exit (2 for a bad command line, 0 for --help) as a process's status."""
    return done.code if isinstance(done.code, int) else 0 if done.code is None else 1


def run_cli(*argv: str, stdin: str = "", env: Mapping[str, str] | None = None) -> Ran:
    """`tableserver ARGV` with `stdin` on its standard input and `env` added to the
    environment (both as they were afterwards, and the Kafka client's log level too, which
    `replay` and `import` quieten)."""
    out, err = io.StringIO(), io.StringIO()
    kafka_log = logging.getLogger("aiokafka")
    level = kafka_log.level
    try:
        with _environment(env or {}), _stdin(stdin), redirect_stdout(out), \
                redirect_stderr(err):
            try:
                code = main(list(argv))
            except SystemExit as done:
                code = _exit_status(done)
    finally:
        kafka_log.setLevel(level)
    return Ran(code, out.getvalue(), err.getvalue())
