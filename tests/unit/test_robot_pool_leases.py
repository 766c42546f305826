"""Pools side by side hold each seat once (robots.md, "Several pools"): a robot sits only while
its pool holds the seat's lease; a lease lost stands the robot up; a pool stopped gives its
leases up and the other takes the seats. Leases in memory here (Redis's on the real stack:
tests/integration/test_robot_pools.py); the robots replaced by a record of who sits where."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import ClassVar

import pytest

from services.common.settings import Settings
from services.robots import pool as pool_module
from services.robots.player import HostRefused
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


class ReplacedRobot:
    """`OurRobot` as the host treats a robot whose seat another connection took: it sits
    (recorded in `SITTINGS` with its pool's name) until `replace` is set, then is told
    `Error replaced: …` and the connection closed."""

    SITTINGS: ClassVar[list[str]] = []
    replace: asyncio.Event

    def __init__(self, *args: object, **kwargs: object) -> None:
        pass

    async def play(self, boards: int | None) -> None:
        ReplacedRobot.SITTINGS.append("a")
        await ReplacedRobot.replace.wait()
        raise HostRefused("replaced: another connection sat at East with this seat's token")


def test_a_robot_replaced_by_another_pools_does_not_sit_again_once_its_lease_is_lost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The double sitting of two pools: pool a's lease lapsed (its loop late) and pool c took
    it and seated its robot, which the host's one connection a seat put in a's robot's place.
    a's robot sat again half a second later, before a's next renewal (a third of a lease),
    and replaced c's in turn. Now it renews the lease first, finds it c's, and stands up."""
    monkeypatch.setattr(pool_module, "OurRobot", ReplacedRobot)
    ReplacedRobot.SITTINGS = []
    holders: dict[tuple[str, str], str] = {}
    leases = MemoryLeases(holders, "a")
    leases.lease_s = 30  # a's renewal 10 s away: the robot's own check must find it lost

    async def scenario() -> None:
        ReplacedRobot.replace = asyncio.Event()
        a = Pool(Settings(TABLESERVER_DATA=tmp_path), leases=leases)

        async def token(table: str, seat: Seat) -> str:
            return "token"
        a.token = token  # type: ignore[method-assign]
        try:
            a.apply("t1", ("E",))
            await wait_for_async(lambda: ReplacedRobot.SITTINGS, 5, "a's robot seated")
            holders[("t1", "E")] = "c"  # a's lease lapsed; c took it, and its robot sat
            ReplacedRobot.replace.set()
            await wait_for_async(lambda: ("t1", "E") not in a.held, 5,
                                 "a's robot stood up, its lease c's")
            assert ReplacedRobot.SITTINGS == ["a"]  # it did not sit again in c's place
            assert holders == {("t1", "E"): "c"}  # and c's lease stands
        finally:
            await a.close()
    asyncio.run(scenario())
