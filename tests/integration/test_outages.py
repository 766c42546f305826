"""The gateway through outages (operations.md): Redis stopped, the broker killed. Each gets a
clear, retryable answer (503 with Retry-After, never a 500 or a hang), `/healthz` says which
is down, and everything answers again once it is back. On a stack of its own, since the
faults would disturb the other tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.helpers import DEAL, run, wait_for
from tests.integration.kafka_reading import replay
from tests.stack import ROOT, Stack, another_gateway, running_stack

PRODUCE_TIMEOUT = 3
SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))  # as conftest.py's


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    data = tmp_path_factory.mktemp("tableserver-faults")
    with running_stack(data, 19392 + SHIFT, 16679 + SHIFT, 18300 + SHIFT, workers=1, extra_env={
            "TABLESERVER_SHARDS": "2",
            "TABLESERVER_PRODUCE_TIMEOUT": str(PRODUCE_TIMEOUT)}) as stack:
        yield stack


def _deploy(stack: Stack, script: str) -> None:
    subprocess.run([str(ROOT / "deploy" / script)], cwd=ROOT, env=stack.env, check=True,
                   capture_output=True)


def _table(stack: Stack, table: str) -> dict[str, Any]:
    with stack.client(stack.director) as http:
        created = http.post("/api/tables", json={"table": table})
        assert created.status_code == 201, created.text
        assert http.post(f"/api/tables/{table}/boards",
                         json={"board": 1, "deal": DEAL}).status_code == 202
    tokens: dict[str, Any] = created.json()
    return tokens


def _health(stack: Stack) -> tuple[int, dict[str, Any]]:
    with httpx.Client(base_url=stack.url, timeout=30) as http:
        response = http.get("/healthz")
        return response.status_code, response.json()


def test_redis_stopped_answers_503_and_recovers(faulty: Stack) -> None:
    tokens = _table(faulty, "down1")
    _deploy(faulty, "redis/stop.sh")
    try:
        with faulty.client(tokens["seats"]["N"]) as http:
            state = http.get("/api/tables/down1/state")
        assert state.status_code == 503, state.text
        assert int(state.headers["Retry-After"]) > 0
        assert "Redis" in state.json()["error"]
        with faulty.client(faulty.director) as http:
            unknown = http.post("/api/tables/never/events", json={"type": "call", "call": "P"})
            alerts = http.get("/api/alerts")
        assert unknown.status_code == 503
        assert alerts.status_code == 200  # the alerts come from Kafka, not from Redis
        assert "Retry-After" in unknown.headers
        status, body = _health(faulty)
        assert (status, body["redis"], body["kafka"]) == (503, "unreachable", "ok")
        with httpx.Client(base_url=faulty.url) as http:
            assert http.get("/readyz").status_code == 503
        url = f"ws://127.0.0.1:{faulty.gateway_port}/api/tables/down1/feed?token=" \
              f"{tokens['spectator']}"
        with connect(url, open_timeout=10) as ws, pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
    finally:
        _deploy(faulty, "redis/start.sh")
    wait_for(lambda: _health(faulty)[0] == 200, 30, "healthy again")
    with faulty.client(tokens["seats"]["N"]) as http:
        assert http.get("/api/tables/down1/state").status_code == 200


def test_broker_killed_a_call_gets_503_in_bounded_time_and_a_retry_counts_once(
        faulty: Stack) -> None:
    """With the broker gone a call is answered 503 within the produce timeout (not after
    aiokafka's 30–100 s); once it is back, the same call retried with its client_seq is
    appended and folds once, even if the first attempt was appended after all."""
    tokens = _table(faulty, "down2")
    pid = int((faulty.data / "kafka" / "kafka.pid").read_text())
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: _pid_gone(pid), 30, "the broker gone")
    try:
        call = {"type": "call", "call": "1S", "client_seq": 1}
        with faulty.client(tokens["seats"]["N"]) as http:
            started = time.monotonic()
            refused = http.post("/api/tables/down2/events", json=call)
            waited = time.monotonic() - started
        assert refused.status_code == 503, refused.text
        assert "Retry-After" in refused.headers and "client_seq" in refused.json()["error"]
        assert waited < PRODUCE_TIMEOUT + 5, waited
        status, body = _health(faulty)
        assert (status, body["kafka"], body["redis"]) == (503, "unreachable", "ok")
    finally:
        (faulty.data / "kafka" / "kafka.pid").unlink(missing_ok=True)
        _deploy(faulty, "kafka/start.sh")
    wait_for(lambda: _health(faulty)[0] == 200, 60, "healthy again")

    def retried() -> bool:
        with faulty.client(tokens["seats"]["N"]) as http:
            return http.post("/api/tables/down2/events", json=call).status_code == 202

    wait_for(retried, 60, "the retry accepted")
    folded, _ = run(replay(faulty.bootstrap, "down2"))
    assert folded.board is not None
    assert [(c.seat.name, str(c.call)) for c in folded.board.calls] == [("N", "1S")]


def _pid_gone(pid: int) -> bool:
    return not Path(f"/proc/{pid}").exists() or \
        "zombie" in Path(f"/proc/{pid}/status").read_text().lower()


def test_no_table_answers_404_because_redis_lost_its_data(faulty: Stack) -> None:
    """Redis loses its data (FLUSHALL) while no worker runs to write the tables again: a
    gateway that has not seen the table finds its record in the registry topic (Kafka, the
    tables' record), answers, and writes Redis's copy again."""
    tokens = _table(faulty, "lost1")
    for name in list(faulty.workers):
        faulty.kill_worker(name)
    client = redis.Redis(port=faulty.redis_port)
    client.flushall()
    try:
        with another_gateway(faulty, faulty.gateway_port + 1, "gateway-fresh.log") as url, \
                httpx.Client(base_url=url, timeout=30, headers={
                    "Authorization": f"Bearer {tokens['seats']['N']}"}) as http:
            state = http.get("/api/tables/lost1/state")
        assert state.status_code == 200, state.text
        record = client.hget("tableserver:tables", "lost1")
        assert record is not None and json.loads(record)["ruleset"] == "duplicate"
    finally:
        client.close()
