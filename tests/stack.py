"""The real stack, started for tests and benchmarks: Apache Kafka and Redis by the deploy
scripts, on ports of their own (so they never meet a `make up`), and the processor workers and
the gateway as the processes `make up` runs."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from services.common.stack_dump import END

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Stack:
    env: dict[str, str]
    data: Path
    kafka_port: int
    redis_port: int
    gateway_port: int
    brokers: int = 1  # Kafka nodes: node i on kafka_port + 2(i-1) (deploy/settings.sh)
    director: str = ""
    workers: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    gateway: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.gateway_port}"

    @property
    def bootstrap(self) -> str:
        return ",".join(f"127.0.0.1:{self.kafka_port + 2 * i}" for i in range(self.brokers))

    def kafka_pidfile(self, node: int = 1) -> Path:
        return kafka_pidfile(self.data, node)

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

    def client(self, token: str | None = None, url: str | None = None) -> httpx.Client:
        """A client of the stack's gateway (or of the gateway at `url`)."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=url or self.url, headers=headers, timeout=10)


def kafka_pidfile(data: Path, node: int = 1) -> Path:
    """Where Kafka node `node` (1, 2, …) started in `data` keeps its process id."""
    return data / "kafka" / ("" if node == 1 else f"node-{node}") / "kafka.pid"


@contextmanager
def another_gateway(stack: Stack, port: int, log_name: str,
                    extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """One more gateway process on the stack's Kafka and Redis (a replica, or a gateway that
    has seen nothing yet; `extra_env`, settings of its own); its URL. Stopped on exit."""
    with gateway_process(stack, port, log_name, extra_env):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def gateway_process(stack: Stack, port: int, log_name: str,
                    extra_env: dict[str, str] | None = None
                    ) -> Iterator[subprocess.Popen[bytes]]:
    """`another_gateway`'s process, listening on `port` once given. Stopped on exit."""
    log = (stack.data / log_name).open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "services.gateway"], cwd=ROOT,
                            env={**stack.env, "TABLESERVER_GATEWAY_PORT": str(port),
                                 **(extra_env or {})},
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(port, 30)
        yield proc
    finally:
        proc.terminate()
        try:
            stopped(proc, stack.data / log_name, 10)
        finally:
            log.close()


def stopped(proc: subprocess.Popen[bytes], log: Path, seconds: float) -> None:
    """`proc`, sent SIGTERM, has exited within `seconds`; else it is asked what it waits for
    (SIGUSR1: its threads' and tasks' stacks, in its log: services/common/stack_dump.py),
    killed, and the test fails with the end of its log."""
    try:
        proc.wait(seconds)
        return
    except subprocess.TimeoutExpired:
        size = log.stat().st_size
        proc.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and END not in _read_from(log, size):
            time.sleep(0.05)  # the poll's interval
        proc.kill()
        proc.wait()
    tail = log.read_text(errors="replace")[-6000:]
    raise AssertionError(f"pid {proc.pid} still ran {seconds} s after SIGTERM; its log ends:\n"
                         f"{tail}")


def _read_from(path: Path, offset: int) -> str:
    with path.open("rb") as f:
        f.seek(offset)
        return f.read().decode(errors="replace")


GATEWAY_START_S = 90  # a gateway's start on a loaded machine (load 10–17) took over 30 s


def wait_port(port: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)  # the poll's interval
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def _deploy(script: str, env: dict[str, str]) -> None:
    subprocess.run([str(ROOT / "deploy" / script)], cwd=ROOT, env=env, check=True)


@contextmanager
def running_stores(env: dict[str, str]) -> Iterator[None]:
    """Kafka and Redis by the deploy scripts, with `env`'s settings (`TABLESERVER_DATA`, the
    ports, …); both stopped on exit, and after a start that failed."""
    try:
        _deploy("kafka/start.sh", env)
        _deploy("redis/start.sh", env)
        yield
    finally:
        _deploy("kafka/stop.sh", env)
        _deploy("redis/stop.sh", env)


@contextmanager
def running_stack(data: Path, kafka_port: int, redis_port: int, gateway_port: int,
                  workers: int = 1, extra_env: dict[str, str] | None = None, brokers: int = 1
                  ) -> Iterator[Stack]:
    """Kafka (`brokers` nodes, on ports from `kafka_port`: 2 each), Redis, `workers`
    processor workers and the gateway; all stopped on exit, and so is what started when a
    later start fails. `extra_env={"TABLESERVER_REDIS_CLUSTER": "3"}` makes Redis a cluster of
    three primaries on ports `redis_port`… (deploy/redis/cluster-start.sh). The public sees
    the tables with no delay, unless `extra_env` sets `TABLESERVER_SPECTATOR_DELAY`: the tests
    of the delay run a gateway of their own (tests/integration/test_public_view.py)."""
    env = {**os.environ, "TABLESERVER_SPECTATOR_DELAY": "0", "TABLESERVER_DATA": str(data),
           "TABLESERVER_KAFKA_PORT": str(kafka_port), "TABLESERVER_KAFKA_BROKERS": str(brokers),
           "TABLESERVER_REDIS_PORT": str(redis_port),
           "TABLESERVER_GATEWAY_PORT": str(gateway_port), **(extra_env or {})}
    stack = Stack(env, data, kafka_port, redis_port, gateway_port, brokers)
    with running_stores(env):
        try:
            for i in range(workers):
                stack.start_worker(f"w{i + 1}")
            log = (data / "gateway.log").open("ab")
            stack.gateway = subprocess.Popen([sys.executable, "-m", "services.gateway"],
                                             cwd=ROOT, env=env, stdout=log,
                                             stderr=subprocess.STDOUT)
            wait_port(gateway_port, GATEWAY_START_S)
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
