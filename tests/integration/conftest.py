"""The real thing: Apache Kafka and Redis started by the deploy scripts (once per test
session, on ports of their own so they never meet a `make up`), and the processor and gateway
as the processes `make up` runs."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 19092, 16379, 18000


@dataclass
class Stack:
    env: dict[str, str]
    data: Path
    director: str = ""
    workers: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    gateway: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{GATEWAY_PORT}"

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{KAFKA_PORT}"

    def start_worker(self, name: str) -> subprocess.Popen[bytes]:
        log = (self.data / f"{name}.log").open("ab")
        proc = subprocess.Popen([sys.executable, "-m", "services.processor", name], cwd=ROOT,
                                env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.workers[name] = proc
        return proc

    def kill_worker(self, name: str) -> None:
        proc = self.workers.pop(name)
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10)


def _wait_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def _deploy(script: str, env: dict[str, str]) -> None:
    subprocess.run([str(ROOT / "deploy" / script)], cwd=ROOT, env=env, check=True)


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    data = tmp_path_factory.mktemp("tableserver-data")
    env = {**os.environ, "TABLESERVER_DATA": str(data),
           "TABLESERVER_KAFKA_PORT": str(KAFKA_PORT), "TABLESERVER_REDIS_PORT": str(REDIS_PORT),
           "TABLESERVER_GATEWAY_PORT": str(GATEWAY_PORT), "TABLESERVER_SHARDS": "4",
           "TABLESERVER_CALLS_PER_SECOND": "20"}
    stack = Stack(env, data)
    _deploy("kafka/start.sh", env)
    _deploy("redis/start.sh", env)
    try:
        stack.start_worker("w1")
        log = (data / "gateway.log").open("ab")
        stack.gateway = subprocess.Popen([sys.executable, "-m", "services.gateway"], cwd=ROOT,
                                         env=env, stdout=log, stderr=subprocess.STDOUT)
        _wait_port(GATEWAY_PORT, 30)
        stack.director = (data / "director.token").read_text().strip()
        yield stack
    finally:
        for proc in [*stack.workers.values(), stack.gateway]:
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        _deploy("kafka/stop.sh", env)
        _deploy("redis/stop.sh", env)


def wait_for(check: Any, seconds: float, what: str) -> Any:
    """Poll `check()` until it returns something true; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.05)


def run(coro: Any) -> Any:
    return asyncio.run(coro)
