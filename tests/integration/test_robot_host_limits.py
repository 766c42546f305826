"""The Table Manager host's limits on the real stack (robots.md): one connection sits at
a seat, the newest (the one it replaces is told so and closed); the connections from one
address are bounded; a robot that owes the host a line and sends none is disconnected, one
that waits for the table is not. And the director sees a robot the table has waited for long
as `stalled` (item 5). The host runs as supervisord runs it (`python -m services.robots`),
with small limits given by its settings."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import TM_PORT, new_table, run, wait_for, wait_for_async
from tests.robot_services import Robots
from tests.stack import Stack
from tests.tm_robot import Robot

IDLE_S, PER_ADDRESS, STALL_S = 6, 8, 1


@pytest.fixture(scope="module")
def host(stack: Stack) -> Iterator[int]:
    started = Robots(stack, TM_PORT + 4, pool=False, env={  # +1…+3: the other robot tests'
        "TABLESERVER_TM_IDLE": str(IDLE_S), "TABLESERVER_TM_PER_ADDRESS": str(PER_ADDRESS),
        "TABLESERVER_TM_STALL": str(STALL_S)})
    try:
        yield started.port
    finally:
        started.stop()


async def closed(robot: Robot) -> bytes:
    """What the host sends until it closes the connection."""
    assert robot.reader is not None
    return await asyncio.wait_for(robot.reader.read(), 20)


async def ready(robot: Robot) -> None:
    """From `ready for teams` to its cards."""
    for line in ("ready for teams", "ready to start", "ready for deal", "ready for cards"):
        await robot.send(f"{robot.seat} {line}")
        await robot.receive()


def test_one_connection_sits_at_a_seat_and_the_newest_replaces_the_one_before(
        stack: Stack, host: int) -> None:
    """Host limits: 300 connections with East's token were all seated (0.8 MB each). Now
    each new one replaces the one before, which is told why and closed: of 30, one is left,
    and it plays on."""
    tokens = new_table(stack, "limits1")
    name = f"robot-E {tokens['seats']['E']}"

    async def scenario() -> tuple[list[bytes], Robot]:
        robots = [Robot("East", name, host) for _ in range(30)]
        rests = []
        for before, robot in zip([None, *robots], robots, strict=False):
            assert await robot.connect() == 'East ("robot-E") seated'
            if before is not None:
                rests.append(await closed(before))
        last = robots[-1]
        await last.send("East ready for teams")
        assert (await last.receive()).startswith("Teams")
        await last.close()
        return rests, last

    rests, _ = run(scenario())
    assert rests == [b"Error replaced: another connection sat at East with this seat's "
                     b"token\r\n"] * 29


def test_connections_past_the_bound_from_one_address_are_refused(stack: Stack, host: int
                                                                 ) -> None:
    """Host limits: no bound per address. The connection past `TABLESERVER_TM_PER_ADDRESS`
    is refused at once and closed, before any line; a place freed admits the next."""
    async def scenario() -> tuple[bytes, str]:
        held = [await asyncio.open_connection("127.0.0.1", host) for _ in range(PER_ADDRESS)]
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", host)
            refused = await asyncio.wait_for(reader.read(), 20)
            writer.close()
            held.pop()[1].close()

            async def admitted() -> str | None:
                probe = Robot("North", "robot", host)  # no token: refused for that, after
                answer = await probe.connect()  # it was admitted (or refused for the bound)
                await probe.close()
                return answer if "no robot token" in answer else None
            answer = await wait_for_async(admitted, 20, "a place freed")
            return refused, answer
        finally:
            for _, w in held:
                w.close()

    refused, answer = run(scenario())
    assert refused == (f"Error refused: too many connections from 127.0.0.1 (at most "
                       f"{PER_ADDRESS} at once)\r\n").encode()
    assert answer.startswith("Error refused: no robot token in the name")


def test_a_robot_that_owes_a_line_is_disconnected_when_idle_and_one_that_waits_is_not(
        stack: Stack, host: int) -> None:
    """Host limits: no idle timeout. North (the dealer) is told its cards and sends no call:
    after `TABLESERVER_TM_IDLE` it is told so and disconnected. East asked for North's call
    before North sat, and waits for it: it stays, and is told the call made later."""
    tokens = new_table(stack, "limits2")
    north = Robot("North", f"robot-N {tokens['seats']['N']}", host)
    east = Robot("East", f"robot-E {tokens['seats']['E']}", host)

    async def scenario() -> tuple[bytes, str]:
        await east.connect()
        await ready(east)
        await east.send("East ready for North's bid")
        await north.connect()
        await ready(north)
        rest = await closed(north)  # idle: it owed its call
        assert east.reader is not None and not east.reader.at_eof()
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, post, stack, "limits2", tokens["seats"]["N"],
                                   {"type": "call", "call": "P"})
        told = await east.receive()
        await east.close()
        return rest, told

    rest, told = run(scenario())
    assert rest == (f"Error idle: no line for {IDLE_S} s while the host waited for one; the "
                    "connection is closed\r\n").encode()
    assert told == "North passes"


def post(stack: Stack, table: str, token: str, event: dict[str, Any]) -> None:
    with stack.client(token) as http:
        response = http.post(f"/api/tables/{table}/events", json=event)
        assert response.status_code == 202, response.text


def robots_at(stack: Stack, table: str) -> dict[str, Any]:
    with stack.client(stack.director) as http:
        response = http.get(f"/api/tables/{table}/robots")
        assert response.status_code == 200, response.text
        seats: dict[str, Any] = response.json()["seats"]
        return seats


def test_the_director_sees_a_robot_the_table_waits_for_as_stalled_until_it_acts(
        stack: Stack, host: int) -> None:
    """Presence: robots that had stopped acting were all shown `connected`. A robot whose
    call the table has awaited for `TABLESERVER_TM_STALL` is shown `stalled`, with the
    seconds; once it calls, `connected` again."""
    tokens = new_table(stack, "limits3")
    north = Robot("North", f"robot-N {tokens['seats']['N']}", host)

    async def scenario() -> dict[str, Any]:
        loop = asyncio.get_running_loop()

        def status(wanted: str) -> Any:
            return loop.run_in_executor(None, lambda: (s := robots_at(stack, "limits3"))
                                        .get("N", {}).get("status") == wanted and s["N"])
        await north.connect()
        await ready(north)
        seat = await wait_for_async(lambda: status("stalled"), IDLE_S - 1, "North stalled")
        await north.send("North passes")
        await wait_for_async(lambda: status("connected"), 10, "North acting again")
        await north.close()
        return dict(seat)

    seat = run(scenario())
    assert seat["awaited_s"] >= STALL_S and seat["label"] == "robot-N"
    wait_for(lambda: robots_at(stack, "limits3")["N"]["status"] == "waiting", 20, "North left")
