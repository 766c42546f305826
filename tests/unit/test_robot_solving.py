"""The robot pool's cards solved in processes (robots.md, "The robot pool"): the same card as
on the one DDS thread for the same position and seed, and a process that dies is replaced and
its card asked again."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.robots.solving import ProcessSolving, ThreadSolving, card_for, solving_for
from shared.calls import Strain
from shared.cards import RANKS, SUITS, Card
from shared.robot.sampling import Seen, shown_out
from shared.seats import Seat

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def position(deal_seed: int, played_count: int) -> tuple[Seen, Seat, Strain]:
    """West on lead against South's notrump, `played_count` cards of the first trick played
    (each the lowest of its hand's longest suit, whatever: only the position matters)."""
    deck = [Card.parse(s + r) for s in SUITS for r in RANKS]
    random.Random(deal_seed).shuffle(deck)
    hands = {seat: tuple(deck[13 * i:13 * i + 13]) for i, seat in enumerate(SEATS)}
    played: list[tuple[Seat, Card]] = []
    seat = Seat.W
    for _ in range(played_count):
        led = played[0][1].suit if played else None
        follow = [c for c in hands[seat] if c.suit == led] or list(hands[seat])
        played.append((seat, follow[0]))
        seat = seat.lho
    seen_hands = {seat: hands[seat]}
    if played:  # dummy (North) faced after the opening lead (Law 41D)
        seen_hands[Seat.N] = hands[Seat.N]
    return Seen(seen_hands, played, shown_out(played), Seat.S, ()), seat, Strain.NT


POSITIONS = [position(deal, count) for deal in (1, 2, 3) for count in (0, 2)]


def test_processes_and_the_thread_choose_the_same_cards() -> None:
    async def cards(solving: ThreadSolving | ProcessSolving) -> list[Card]:
        return list(await asyncio.gather(*(solving.card(seen, hand, strain, f"1:1:{i}", 8)
                                           for i, (seen, hand, strain) in
                                           enumerate(POSITIONS))))
    thread, processes = ThreadSolving(), ProcessSolving(2)
    try:
        on_thread = asyncio.run(cards(thread))
        in_processes = asyncio.run(cards(processes))
    finally:
        thread.close()
        processes.close()
    expected = [card_for(seen, hand, strain, f"1:1:{i}", 8)
                for i, (seen, hand, strain) in enumerate(POSITIONS)]
    assert on_thread == in_processes == expected
    assert len({str(c) for c in expected}) > 1  # positions that differ, not one card


def dead(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie until the executor reaps it: its state says so
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ")[1].startswith("Z")


@pytest.mark.parametrize("while_solving", [False, True])
def test_a_solver_process_that_dies_is_replaced_and_its_card_asked_again(
        while_solving: bool) -> None:
    seen, hand, strain = POSITIONS[0]
    expected = card_for(seen, hand, strain, "7:1:0", 8)
    solving = ProcessSolving(1)

    async def scenario() -> Card:
        await solving.card(seen, hand, strain, "7:1:0", 8)  # the process started
        [pid] = solving.pids()
        if while_solving:
            asked = asyncio.ensure_future(solving.card(seen, hand, strain, "7:1:0", 8))
            await asyncio.sleep(0)  # sent to the process
            os.kill(pid, signal.SIGKILL)
            return await asked
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not dead(pid):
            assert time.monotonic() < deadline, "the killed process still runs"
            await asyncio.sleep(0.05)
        return await solving.card(seen, hand, strain, "7:1:0", 8)
    try:
        assert asyncio.run(scenario()) == expected
        assert solving.replaced == 1
        assert solving.pids() and pid_alive(solving.pids()[0])
    finally:
        solving.close()


def pid_alive(pid: int) -> bool:
    return not dead(pid)


def test_the_default_is_the_dds_thread_and_a_count_is_that_many_processes() -> None:
    assert isinstance(solving_for(0), ThreadSolving)
    processes = solving_for(2)
    try:
        assert isinstance(processes, ProcessSolving) and processes.processes == 2
    finally:
        processes.close()


POOL_THAT_WAITS = """
import asyncio, sys, time
from services.robots.solving import ProcessSolving
from tests.unit.test_robot_solving import POSITIONS
solving = ProcessSolving(1)
seen, hand, strain = POSITIONS[0]
asyncio.run(solving.card(seen, hand, strain, "1:1:0", 4))
print(solving.pids()[0], flush=True)
time.sleep(600)
"""


def test_the_solver_processes_leave_with_their_pool_when_it_is_killed() -> None:
    """A pool killed (supervisord starts another): its spawned solver processes, which no
    one tells, leave by themselves rather than wait for ever with DDS's memory."""
    pool = subprocess.Popen([sys.executable, "-c", POOL_THAT_WAITS], stdout=subprocess.PIPE,
                            cwd=Path(__file__).parents[2])
    try:
        assert pool.stdout is not None
        worker = int(pool.stdout.readline())
        assert not dead(worker)
    finally:
        pool.kill()
        pool.wait(10)
    deadline = time.monotonic() + 15
    while not gone(worker):
        assert time.monotonic() < deadline, "the killed pool's solver process still runs"
        time.sleep(0.1)


def gone(pid: int) -> bool:
    """Not running (exited and reaped by init, or a zombie)."""
    try:
        return dead(pid)
    except FileNotFoundError:  # reaped between the two looks
        return True
