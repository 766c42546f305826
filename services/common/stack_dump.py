"""What a process is waiting for, on demand: `kill -USR1 <pid>` writes every thread's stack
and every asyncio task's to standard error (the service's log).

A gateway that does not stop on SIGTERM is waiting for something: a connection, a request's
handler, a task. Its threads' stacks (`faulthandler`) show only the event loop's select; the
tasks' stacks show what each coroutine awaits. The tests' stack asks for both when a process
outlives its stop (tests/stack.py), so the log of the run says why.
"""

from __future__ import annotations

import asyncio
import faulthandler
import signal
import sys
from types import FrameType

SIGNAL = signal.SIGUSR1
END = "--- end of the stacks ---"


def install() -> None:
    """On `SIGNAL`, the threads' stacks and the running loop's tasks' stacks written to
    stderr (the handler runs on the main thread, inside the loop that `asyncio.run` runs)."""

    def dump(signum: int, frame: FrameType | None) -> None:
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        try:
            tasks = asyncio.all_tasks()
        except RuntimeError:  # no loop running yet, or any more
            tasks = set()
        print(f"--- {len(tasks)} asyncio tasks ---", file=sys.stderr)
        for task in tasks:
            task.print_stack(limit=12, file=sys.stderr)
        print(END, file=sys.stderr)
        sys.stderr.flush()

    signal.signal(SIGNAL, dump)
