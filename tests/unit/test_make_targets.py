"""The Makefile's test targets: `make test-unit` is the inner loop (the unit tests alone, no
lint, no types), `make check` the lint and the types, and `make test` runs `check` before the
whole suite. Read from `make -n` (what make would run, run by none), the venv's install taken
as done (`-o`)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def would_run(target: str) -> list[str]:
    """The commands `make TARGET` would run, in order (the flags of a make that runs this
    test left out)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(["make", "-n", "-o", ".venv/.installed", target], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.splitlines()


def test_test_unit_runs_the_unit_tests_and_nothing_else() -> None:
    commands = would_run("test-unit")
    assert [c for c in commands if " -m pytest " in c] == [
        "PYTHONDONTWRITEBYTECODE= .venv/bin/python -m pytest tests/unit -p no:schemathesis "
        "-p no:anyio -n auto"]  # its bytecode cached from one run to the next; a worker a core
    assert not any("ruff" in c or "mypy" in c for c in commands)


def test_check_runs_ruff_and_mypy_strict() -> None:
    assert would_run("check") == [".venv/bin/ruff check shared services tests bench",
                                  ".venv/bin/mypy shared", ".venv/bin/mypy --strict services"]


def test_test_runs_the_check_before_the_whole_suite() -> None:
    commands = would_run("test")
    suite = next(i for i, c in enumerate(commands) if " -m pytest" in c)
    # every folder (unit, integration, browser): no path, no marker, no -k; the slowest named
    assert commands[suite].endswith("-m pytest --durations=30")
    assert [c for c in commands[:suite] if "ruff" in c or "mypy" in c] == would_run("check")
