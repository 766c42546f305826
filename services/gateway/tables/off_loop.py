"""Work too heavy for the gateway's event loop, done in a process of its own.

One loop serves every table: a request that computes for a second holds up every other for
that second. A 1.9 MiB deals file with play sections (~3,600 boards) took 28 s to create a
tournament, and `/livez` went unanswered for 27.6 s: every table stalled and robots whose posts
timed out were dropped (bench/overload_bench.py). Such work (a deals file parsed, a tournament's
export written) runs here instead, in a pool of `WORKERS` processes, and the loop awaits it: a
thread would hold the GIL against the loop (measured: beside the same parse in a thread, a
1 ms timer on the loop fired a fifth as often as beside a process).

The processes come from a fork server that has imported `PRELOAD` only (not the gateway, its
sockets and clients): a worker starts without the gateway's imports, and nothing of the loop's
state is copied into it. The pool starts with the first piece of work, from a thread: its
start is waited for there, not on the loop. A worker that dies
(killed, out of memory) breaks the pool: that work is answered 503 (retry) and the next starts
a new pool. A gateway killed (SIGKILL) cannot tell its workers to go, and they would wait for
work for ever (keeping the fork server alive: found so after a bench's gateway was killed):
each watches the gateway's process and exits once it has gone (`_die_with`).

Work in the background, which no one waits for (a tournament's hand records solved from its
creation: 750 boards of an evening, a core's half for minutes), runs in a pool of its own
whose process is niced (`BACKGROUND_NICE`): it takes the CPU the gateway, the processor and
Redis leave, and the work someone waits for (a round's unfinished boards scored, an export)
never queues behind it.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from services.common.errors import Unavailable

T = TypeVar("T")
WORKERS = 1  # two cores: one for the loop, one for this
PRELOAD = ["services.gateway.tables.off_loop", "shared.tournament.session",
           "shared.tournament.export"]
WATCH_S = 1.0  # how often a worker looks whether its gateway is still there
BACKGROUND_NICE = 10  # the background pool's niceness (`os.nice`): spare CPU only


class OffLoop:
    def __init__(self, workers: int = WORKERS, nice: int = 0) -> None:
        self.workers = workers
        self.nice = nice  # its processes' niceness
        self.pool: ProcessPoolExecutor | None = None
        self.running = 0  # pieces of work submitted and not answered yet

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(PRELOAD)
            self.pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                            initializer=_started, initargs=(os.getpid(), self.nice))
        return self.pool

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """`work(*args)` in a worker process (`work` and its arguments and result must
        pickle: a module's function, plain data); its exception raised here as it was."""
        pool = self._pool()
        self.running += 1
        try:
            # submitted from a thread: a submit may start the pool's process, and the fork
            # server's start and fork are waited for in `submit` (3.5 s of the loop held at a
            # busy evening's first hand records, `loop_watch`)
            submitted = await asyncio.to_thread(pool.submit, work, *args)
            return await asyncio.wrap_future(submitted)
        except BrokenProcessPool:
            if self.pool is pool:
                self.pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise Unavailable("the gateway's worker process stopped; retry",
                              retry_after=1) from None
        finally:
            self.running -= 1

    def stop(self) -> None:
        """The pool stopped, what waits given up, without waiting for the work in progress (a
        board's double-dummy solve may take seconds): the app's lifespan ends at once, and the
        worker exits once it sees its gateway gone (`_die_with`)."""
        if self.pool is not None:
            # the workers ended now: a solve in progress is abandoned with its caller, and the
            # interpreter's exit does not wait for it (it joins the pool's processes)
            processes = list((self.pool._processes or {}).values())
            self.pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
            self.pool = None


def _started(gateway: int, nice: int) -> None:
    """A worker's start: niced by `nice`, and dying with the gateway (`_die_with`)."""
    if nice:
        os.nice(nice)
    _die_with(gateway)


def _die_with(gateway: int) -> None:
    """A worker's start: it exits once the process `gateway` has gone, looked at every
    `WATCH_S`."""

    def watch() -> None:
        while True:
            time.sleep(WATCH_S)
            try:
                os.kill(gateway, 0)
            except ProcessLookupError:
                os._exit(0)

    threading.Thread(target=watch, name="gateway-watch", daemon=True).start()
