"""The robots' services for tests on the real stack: the Table Manager host and the robot
pool, started as supervisord starts them (`python -m services.robots`, `python -m
services.robots.pool`), on a port of the caller's; the pool may be killed and started again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.stack import ROOT, Stack, stopped, wait_port


class Robots:
    """The Table Manager host and the robot pool, as supervisord runs them."""

    def __init__(self, stack: Stack, port: int, env: dict[str, str] | None = None,
                 pool: bool = True) -> None:
        """`env`: more settings for both (the host's limits); `pool`: False for the host
        alone (the pool started later by `start_pool`)."""
        self.port = port
        self.env = {**stack.env, "TABLESERVER_TM_PORT": str(port), **(env or {})}
        self.log = (stack.data / "robot-pool.log").open("ab")
        self.host = self._start("services.robots")
        wait_port(port, 30)
        self.pool: subprocess.Popen[bytes] | None = None
        if pool:
            self.start_pool()

    def _start(self, module: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", module], cwd=ROOT, env=self.env,
                                stdout=self.log, stderr=subprocess.STDOUT)

    def kill_pool(self) -> None:
        assert self.pool is not None
        os.kill(self.pool.pid, signal.SIGKILL)
        self.pool.wait(10)

    def start_pool(self) -> None:
        self.pool = self._start("services.robots.pool")

    def stop(self) -> None:
        """Both stopped (SIGTERM); one still running 15 s later is asked for its stacks,
        killed, and the caller fails with its log's end, the other stopped all the same."""
        running = [proc for proc in (self.pool, self.host) if proc is not None]
        for proc in running:
            proc.terminate()
        failures = []
        for proc in running:
            try:
                stopped(proc, Path(self.log.name), 15)
            except AssertionError as exc:
                failures.append(str(exc))
        self.log.close()
        if failures:
            raise AssertionError("\n".join(failures))
