"""Pools side by side hold each seat once (robots.md, "Several pools"): a robot sits only while
its pool holds the seat's lease; a lease lost stands the robot up; a pool stopped gives its
leases up and the other takes the seats. Leases in memory here (Redis's on the real stack:
tests/integration/test_robot_pools.py); the robots replaced by a record of who sits where."""

from __future__ import annotations

import asyncio
from pathlib import Path

from services.common.settings import Settings
from services.robots.pool import Pool
from shared.seats import Seat
from tests.helpers import wait_for_async

LEASE_S = 0.3


class MemoryLeases:
    """One Redis's leases, shared by the pools; `holders` a lease's holder (no expiry: a
    lease here lasts until given up, or taken by the test)."""

    def __init__(self, holders: dict[tuple[str, str], str], holder: str) -> None:
        self.holders, self.holder, self.lease_s = holders, holder, LEASE_S

    async def take(self, table: str, seat: str) -> bool:
        return self.holders.setdefault((table, seat), self.holder) == self.holder

    async def renew(self, table: str, seat: str) -> bool:
        return self.holders.get((table, seat)) == self.holder

    async def give_up(self, table: str, seat: str) -> None:
        if self.holders.get((table, seat)) == self.holder:
            del self.holders[(table, seat)]


def test_pools_hold_each_seat_once_and_take_over_what_another_gives_up(tmp_path: Path) -> None:
    holders: dict[tuple[str, str], str] = {}
    sitting: dict[tuple[str, str], list[str]] = {}  # seat → the pools whose robot sits there
    twice: list[tuple[str, str]] = []

    def pool(name: str) -> Pool:
        made = Pool(Settings(TABLESERVER_DATA=tmp_path, TABLESERVER_ROBOT_PROCESSES=1),
                    leases=MemoryLeases(holders, name))

        async def robot(table: str, seat: Seat) -> None:
            at = sitting.setdefault((table, seat.name), [])
            if at:
                twice.append((table, seat.name))
            at.append(name)
            try:
                await asyncio.Event().wait()
            finally:
                at.remove(name)
        made._robot = robot  # type: ignore[method-assign]
        return made

    def who() -> dict[str, str]:
        return {seat: at[0] for (_, seat), at in sitting.items() if at}

    async def scenario() -> None:
        a, b = pool("a"), pool("b")
        open_pools = [a, b]
        try:
            for each in (a, b):
                each.apply("t1", ("N", "E", "S", "W"))
            await wait_for_async(lambda: len(who()) == 4, 10, "4 seated")
            assert who() == {seat: holder for (_, seat), holder in holders.items()}
            # a third pool took East's lease (its holder's lapsed meanwhile): East stands up
            east = who()["E"]
            holders[("t1", "E")] = "c"
            await wait_for_async(lambda: "E" not in who(), 5, "E stood up")
            del holders[("t1", "E")]  # the third pool gone: its lease lapsed
            await wait_for_async(lambda: "E" in who(), 5, "E seated again")
            # the pool holding South stopped: its leases given up, the other takes them
            stopped = a if who()["S"] == "a" else b
            other = "b" if stopped is a else "a"
            await stopped.close()
            open_pools.remove(stopped)
            await wait_for_async(lambda: who() == dict.fromkeys("NESW", other),
                                 5, f"every seat {other}'s")
            assert not twice and east in "ab"
            other_pool = b if stopped is a else a
            other_pool.apply("t1", ())  # taken away: every lease given up
            await wait_for_async(lambda: not holders and not who(), 5,
                                 "the leases given up")
        finally:
            for each in open_pools:
                await each.close()
    asyncio.run(scenario())
