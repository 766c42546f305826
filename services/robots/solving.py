"""Where our robots' cards are solved: on one DDS thread of the robot's own process
(`ThreadSolving`: a robot run by hand, and the robot pool by default), or spread over
processes (`ProcessSolving`: the pool with `TABLESERVER_ROBOT_PROCESSES` set), so that two
tables' cards solve at once on two cores. Each process loads the solver once, when it starts.

The work sent is the whole card (`card_for`: sampling and solving, pure but for DDS), with
the seed as a string, so that a card is the same on either path for the same position. A
process that dies (killed, out of memory, a fault in DDS) breaks the executor: it is
replaced by a new one and the card asked again, the robots never see the fault.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol

from services.robots.solver import solve
from shared.calls import Strain
from shared.cards import Card
from shared.robot.play import choose_card
from shared.robot.sampling import Seen
from shared.seats import Seat

log = logging.getLogger("tableserver.robots.solving")
RETRIES = 3  # a card asked again after its process died, at most this many times
PARENT_WATCH_S = 1.0  # a solver process looks this often whether its pool is still there


def card_for(seen: Seen, hand: Seat, strain: Strain, seed: str, samples: int) -> Card:
    """The card to play from `hand`, its samples drawn from `random.Random(seed)`."""
    return choose_card(seen, hand, strain, random.Random(seed), solve, samples)


def _load_solver(parent: int) -> None:
    """A new process's start: naming this function imported this module, and with it DDS
    (`services.robots.solver`), once, before its first card. It leaves when the pool that
    started it is gone (killed: a spawned process is not told, and would wait for ever)."""
    threading.Thread(target=_leave_with, args=(parent,), daemon=True,
                     name="parent watch").start()


def _leave_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_WATCH_S)
    os._exit(0)


class Solving(Protocol):
    async def card(self, seen: Seen, hand: Seat, strain: Strain, seed: str,
                   samples: int) -> Card: ...

    def close(self) -> None: ...


class ThreadSolving:
    """One DDS thread: the robots of a process take turns at it, off the event loop."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dds")

    async def card(self, seen: Seen, hand: Seat, strain: Strain, seed: str,
                   samples: int) -> Card:
        return await asyncio.get_running_loop().run_in_executor(
            self.executor, card_for, seen, hand, strain, seed, samples)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def solving_for(processes: int) -> Solving:
    """`TABLESERVER_ROBOT_PROCESSES`: 0 (the default) the DDS thread; n, n processes. The
    thread stays the default: at 32 tables on this 2-core VM the processes' p95 was 3.1 s
    against the thread's 0.73 s at the same load (docs/robots.md), the cause not yet found."""
    return ProcessSolving(processes) if processes > 0 else ThreadSolving()


class ProcessSolving:
    """`processes` processes, each with its DDS: as many cards solved at once."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.executor = self._start()
        self.replaced = 0  # executors replaced after a process died (the tests read it)

    def _start(self) -> Executor:
        # spawned, not forked: the pool's process has threads (its HTTP and Kafka clients)
        return ProcessPoolExecutor(max_workers=self.processes, initializer=_load_solver,
                                   initargs=(os.getpid(),),
                                   mp_context=multiprocessing.get_context("spawn"))

    def pids(self) -> list[int]:
        """The processes' ids, those started so far (the tests kill one)."""
        found = getattr(self.executor, "_processes", None) or {}
        return list(found)

    async def card(self, seen: Seen, hand: Seat, strain: Strain, seed: str,
                   samples: int) -> Card:
        loop = asyncio.get_running_loop()
        for attempt in range(RETRIES + 1):
            executor = self.executor
            try:
                return await loop.run_in_executor(executor, card_for, seen, hand, strain,
                                                  seed, samples)
            except BrokenProcessPool:
                if attempt == RETRIES:
                    raise
                if executor is self.executor:  # the first robot to see it replaces it
                    log.warning("a solver process died: its processes replaced, "
                                "the card asked again")
                    self.executor = self._start()
                    self.replaced += 1
                    executor.shutdown(wait=False, cancel_futures=True)
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
