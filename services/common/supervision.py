"""One policy, in both services, for a long-lived background task that dies: crash-only.

A gateway's feed readers and a worker's fetch loop run for the life of their process. One
that ends with an exception no outage explains (outages are ridden out inside the task: it
retries) is a bug, and a process that went on without it would look well while doing half its
job (a gateway whose feeds had gone quiet still answered `/readyz` 200). So a task given to
`Supervisor.supervised` that dies is logged with its name and its traceback, and the process
stops as it does on SIGTERM (uvicorn and faust shut down cleanly: a worker leaves its group at
once), then exits with `DIED` (70, EX_SOFTWARE) instead of 0: its supervisor (supervisord,
`autorestart`; a container's restart policy) starts it again. A task cancelled, or that
returns, is no death.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable
from functools import partial
from typing import TypeVar

log = logging.getLogger("tableserver.supervision")

DIED = 70  # the exit code of a process whose background task died (EX_SOFTWARE)
T = TypeVar("T")


def _terminate() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


class Supervisor:
    """Watches a process's long-lived tasks; `stop` ends the process (SIGTERM to itself;
    tests give their own)."""

    def __init__(self, stop: Callable[[], None] = _terminate) -> None:
        self.stop = stop
        self.died: list[str] = []  # the tasks that died, in order

    def supervised(self, task: asyncio.Task[T], name: str) -> asyncio.Task[T]:
        """`task`, whose death (an exception) stops the process."""
        task.add_done_callback(partial(self._ended, name))
        return task

    def _ended(self, name: str, task: asyncio.Task[T]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            self.fail(name, exc)

    def fail(self, name: str, exc: BaseException) -> None:
        """`name` died of `exc` (a task run by a framework calls this itself)."""
        log.error("background task %r died; stopping the process (exit code %d) for its "
                  "supervisor to start it again", name, DIED, exc_info=exc)
        self.died.append(name)
        if len(self.died) == 1:
            self.stop()

    def exit_code(self) -> int:
        """The process's exit code: `DIED` once a task died, else 0."""
        return DIED if self.died else 0
