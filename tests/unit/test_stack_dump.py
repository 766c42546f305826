"""`kill -USR1` on a service writes what it waits for: its threads' and its tasks' stacks
(services/common/stack_dump.py), as the tests' stack asks of a gateway that outlives its stop."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from services.common.stack_dump import END
from tests.stack import ROOT

PROGRAM = """
import asyncio, sys
from services.common.stack_dump import install

async def waits_for_a_reply_that_never_comes():
    await asyncio.Event().wait()

async def main():
    install()
    task = asyncio.create_task(waits_for_a_reply_that_never_comes())
    await asyncio.sleep(0)
    print("ready", flush=True)
    await task

asyncio.run(main())
"""


def test_sigusr1_writes_each_tasks_stack_and_the_process_goes_on() -> None:
    proc = subprocess.Popen([sys.executable, "-c", PROGRAM], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        proc.send_signal(signal.SIGUSR1)
        assert proc.stderr is not None
        lines: list[str] = []
        deadline = time.monotonic() + 10
        while END not in lines and time.monotonic() < deadline:
            lines.append(proc.stderr.readline().rstrip("\n"))
        dump = "\n".join(lines)
        assert END in lines, dump
        assert "in waits_for_a_reply_that_never_comes" in dump  # the task, where it waits
        assert "Current thread" in dump or "Thread 0x" in dump  # faulthandler's threads
        assert proc.poll() is None  # asked, not stopped
    finally:
        proc.kill()
        proc.wait()
