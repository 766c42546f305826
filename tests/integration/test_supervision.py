"""`make up`'s processes under supervisord (operations.md): one that dies is started again; `make
down` stops everything; a `make up` that fails stops what it started and says why. Runs
deploy/up.sh and deploy/down.sh themselves, on ports and a data folder of their own."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.helpers import wait_for
from tests.stack import ROOT

SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))  # as conftest.py's
KAFKA, REDIS, GATEWAY = 19692 + SHIFT, 16979 + SHIFT, 18600 + SHIFT
TM = 12600 + SHIFT  # the Table Manager host (services/robots)


def _env(data: Path, **more: str) -> dict[str, str]:
    return {**os.environ, "TABLESERVER_DATA": str(data), "TABLESERVER_KAFKA_PORT": str(KAFKA),
            "TABLESERVER_REDIS_PORT": str(REDIS), "TABLESERVER_GATEWAY_PORT": str(GATEWAY),
            "TABLESERVER_TM_PORT": str(TM),
            "TABLESERVER_WORKERS": "1", "TABLESERVER_SHARDS": "2",
            "TABLESERVER_UP_TIMEOUT": "30", **more}


def _deploy(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ROOT / "deploy" / script)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240, check=False)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _pid(env: dict[str, str], name: str) -> int:
    """The pid supervisord gives for a process (0 while it is not running)."""
    answer = subprocess.run([str(ROOT / "deploy" / "ctl.sh"), "pid", name], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=30, check=False)
    text = answer.stdout.strip()
    return int(text) if text.isdigit() else 0


def _healthy() -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{GATEWAY}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture
def data(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    _deploy("down.sh", _env(tmp_path))  # whatever a failed test left running


def test_a_process_that_dies_is_started_again_and_down_stops_all(data: Path) -> None:
    env = _env(data)
    up = _deploy("up.sh", env)
    assert up.returncode == 0, up.stdout + up.stderr
    assert "healthy" in up.stdout and _healthy()
    assert _listening(TM)
    for name in ("gateway", "processor:processor-1", "robots", "robot-pool"):
        before = _pid(env, name)
        os.kill(before, signal.SIGKILL)

        def again(name: str = name, before: int = before) -> bool:
            return _pid(env, name) not in (0, before)

        wait_for(again, 30, f"{name} started again")
    wait_for(_healthy, 30, "the gateway answering again")
    down = _deploy("down.sh", env)
    assert down.returncode == 0, down.stderr
    assert not any(_listening(p) for p in (KAFKA, REDIS, GATEWAY, TM))
    assert _pid(env, "gateway") == 0  # supervisord is gone too


def test_up_refuses_a_taken_gateway_port_before_starting_anything(data: Path) -> None:
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past a TIME_WAIT
        taken.bind(("127.0.0.1", GATEWAY))
        taken.listen()
        up = _deploy("up.sh", _env(data))
    assert up.returncode == 1 and f"port {GATEWAY} is already taken" in up.stderr
    assert not _listening(KAFKA) and not _listening(REDIS)


def test_a_failed_up_stops_what_it_started_and_says_why(data: Path) -> None:
    """The services cannot start (production without its secrets): up.sh gives up after its
    timeout, stops supervisord, Kafka and Redis, and says why."""
    up = _deploy("up.sh", _env(data, TABLESERVER_ENV="production", TABLESERVER_UP_TIMEOUT="8"))
    assert up.returncode == 1
    assert "make up failed" in up.stderr and "stopping what it started" in up.stderr
    assert not any(_listening(p) for p in (KAFKA, REDIS, GATEWAY))
