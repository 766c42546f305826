"""The Table Manager host's limits on fakes (services/robots/host.py, seating.py; docs/robots.md,
item 6): one seated connection a seat, a new one replacing the old; an idle timeout for a
robot that owes the host a line, none for one that waits for the table; a bound on the
connections from one address. And what the director is told of the table's wait for each
robot (item 5): since when, from the states the host follows."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from services.robots.host import HostLimits, TableManagerHost
from tests.helpers import wait_for_async
from tests.unit.test_robot_host import BOARD, FakeLink, FakeWriter, token

pytestmark = pytest.mark.unit


class QueuedLink(FakeLink):
    """A link whose feed gives the states put on `boards`."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def states(self) -> AsyncIterator[dict[str, Any] | None]:
        while True:
            yield await self.boards.get()


class Recorded:
    """A presence that records what the host tells it."""

    def __init__(self) -> None:
        self.said: list[tuple[Any, ...]] = []

    async def seated(self, table: str, seat: str, label: str) -> None:
        self.said.append(("seated", table, seat, label))

    async def left(self, table: str, seat: str, label: str) -> None:
        self.said.append(("left", table, seat, label))

    async def awaited(self, table: str, seat: str, since: int | None) -> None:
        self.said.append(("awaited", table, seat, since))


class Robot:
    """One connection to `host`, fed lines by the test."""

    def __init__(self, host: TableManagerHost) -> None:
        self.reader = asyncio.StreamReader()
        self.writer = FakeWriter(self.reader)
        self.task = asyncio.create_task(host.connection(self.reader, self.writer))  # type: ignore[arg-type]

    def say(self, *lines: str) -> None:
        for line in lines:
            self.reader.feed_data((line + "\r\n").encode())

    def sit(self, seat: str = "North") -> None:
        self.say(f'Connecting "bot {token(seat=seat[0])}" as {seat} using protocol version 18')

    async def heard(self, line: str) -> None:
        await wait_for_async(lambda: line in self.writer.lines, 5, f"{line!r} heard")

    async def leave(self) -> None:
        if not self.reader.at_eof():
            self.reader.feed_eof()
        await asyncio.wait_for(self.task, 5)


def host_of(link: FakeLink, limits: HostLimits | None = None, presence: Any = None
            ) -> TableManagerHost:
    return TableManagerHost("http://gateway", lambda table, tok: link,  # type: ignore[arg-type, return-value]
                            presence=presence, limits=limits)


async def test_a_second_connection_with_the_seats_token_replaces_the_first() -> None:
    """Host limits: 300 connections with East's token were all seated. Now the newest sits;
    the one it replaces is told so and closed, and the seat stays the newest's (not shown
    left)."""
    presence = Recorded()
    host = host_of(FakeLink(), presence=presence)
    first, second = Robot(host), Robot(host)
    first.sit()
    await first.heard('North ("bot") seated')
    second.sit()
    await second.heard('North ("bot") seated')
    await first.heard("Error replaced: another connection sat at North with this seat's token")
    await asyncio.wait_for(first.task, 5)  # its conversation is over
    assert first.writer.closed and not second.writer.closed
    second.say("North ready to start")
    await second.heard("Start of board")
    assert ("left", "t1", "N", "bot") not in presence.said
    await second.leave()
    assert presence.said[-1] == ("left", "t1", "N", "bot")  # the last one's leaving is told


async def test_a_robot_that_owes_a_line_is_dropped_when_idle_and_one_that_waits_is_not(
        ) -> None:
    """Host limits: no idle timeout. Now a seated robot that owes the host a line (here its
    first request) and sends none for the idle time is told so and disconnected; one that
    waits for the table (North's call, not made) owes nothing and stays."""
    host = host_of(FakeLink(), HostLimits(idle_s=0.3))
    waiting = Robot(host)
    waiting.sit("East")
    waiting.say("East ready to start")
    await waiting.heard("Start of board")
    waiting.say("East ready for deal")
    await waiting.heard("Board number 1. Dealer North. Neither vulnerable.")
    waiting.say("East ready for North's bid")
    await wait_for_async(lambda: not waiting.reader._buffer, 5, "East's request read")
    idle = Robot(host)  # seated after East's last line: its idle time ends after East's
    idle.sit("North")
    await idle.heard("Error idle: no line for 0.3 s while the host waited for one; the "
                     "connection is closed")
    await asyncio.wait_for(idle.task, 5)
    assert idle.writer.closed and not waiting.writer.closed
    await waiting.leave()


async def test_connections_from_one_address_are_bounded() -> None:
    """Host limits: no bound per address. Now the connection past the bound is refused and
    closed at once; a place freed admits the next."""
    host = host_of(FakeLink(), HostLimits(per_address=2))
    first, second, third = Robot(host), Robot(host), Robot(host)
    await asyncio.wait_for(third.task, 5)
    assert third.writer.lines == [
        "Error refused: too many connections from 127.0.0.1 (at most 2 at once)"]
    assert third.writer.closed and not first.writer.closed and not second.writer.closed
    await first.leave()
    fourth = Robot(host)
    fourth.sit()
    await fourth.heard('North ("bot") seated')
    for robot in (second, fourth):
        await robot.leave()
    assert host.addresses.counts == {}  # every place given back


async def test_the_director_is_told_since_when_the_table_waits_for_the_robot() -> None:
    """Presence: the table's wait for a robot's call (Law 17C: the dealer calls first),
    from the first state that awaits it until one that does not; a new position is a new
    wait."""
    presence = Recorded()
    link = QueuedLink()
    host = host_of(link, presence=presence)
    north = Robot(host)
    north.sit()
    await north.heard('North ("bot") seated')
    link.boards.put_nowait({**BOARD, "turn": "N"})
    await wait_for_async(lambda: any(s[0] == "awaited" for s in presence.said), 5, "a wait")
    waits = [s for s in presence.said if s[0] == "awaited"]
    assert waits[0][1:3] == ("t1", "N") and isinstance(waits[0][3], int)
    link.boards.put_nowait({**BOARD, "turn": "N"})  # the same position: the same wait
    link.boards.put_nowait({**BOARD, "turn": "E", "calls": [{"seat": "N", "call": "P"}]})
    await wait_for_async(lambda: presence.said[-1] == ("awaited", "t1", "N", None), 5,
                         "the wait over")
    assert len([s for s in presence.said if s[0] == "awaited"]) == 2
    await north.leave()


class UnansweringLink(FakeLink):
    """A link whose gateway does not answer in time (a busy evening's round start)."""

    async def check(self) -> None:
        raise httpx.ReadTimeout("no answer")


async def test_a_gateway_that_does_not_answer_closes_the_robots_connection_with_an_error(
        caplog: pytest.LogCaptureFixture) -> None:
    """The host's check of the robot's seat times out: the robot is told so and its
    connection closed (it connects again), not an exception out of the host's handler
    (asyncio's "Unhandled exception in client_connected_cb", 70 of them on a busy evening)."""
    host = host_of(UnansweringLink())
    robot = Robot(host)
    robot.sit()
    await robot.heard("Error the table server did not answer in time; connect again")
    await asyncio.wait_for(robot.task, 5)
    assert robot.task.exception() is None
    assert any("did not answer" in r.getMessage() for r in caplog.records)


async def test_a_connection_ended_by_the_hosts_stop_is_no_unhandled_exception() -> None:
    """Host limits: at the host's stop, each open connection's task was cancelled and Python
    3.11's streams logged it as an unhandled exception with its traceback (256 at a busy
    evening's stop). Now a cancelled connection ends quietly."""
    loop = asyncio.get_running_loop()
    told: list[dict[str, Any]] = []
    before = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: told.append(context))
    server = await host_of(FakeLink()).serve("127.0.0.1", 0)
    try:
        port = server.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        await wait_for_async(lambda: _connections() != [], 5, "the host's connection task")
        [task] = _connections()
        task.cancel()  # as the host's stop does
        await asyncio.gather(task, return_exceptions=True)
        await asyncio.sleep(0)  # the streams' done-callback runs after the task's end
        assert told == []
        writer.close()
    finally:
        server.close()
        loop.set_exception_handler(before)


def _connections() -> list[asyncio.Task[Any]]:
    """The host's connections' tasks (a task the server started for a connection)."""
    return [t for t in asyncio.all_tasks()
            if getattr(t.get_coro(), "__qualname__", "").startswith("TableManagerHost.")]
