"""Our robot (services/robots/player.py) when a claim ends the play (docs/robots.md): the
host tells it `Timing` in place of the next card (the claim agreed, Law 69A), and the robot
takes the board as over, ready for the next, instead of calling the line a fault and
disconnecting. Against a host of a few lines, on a real socket."""

from __future__ import annotations

import asyncio

import pytest

from services.robots.player import OurRobot
from shared.seats import Seat

pytestmark = pytest.mark.unit

TIMING = "Timing - N/S : this board  [0:00],  total  [0:00:00].  E/W : this board  [0:00]"


async def scripted_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        heard: list[str]) -> None:
    """North and West pass, East opens 1H: South leads; West (dummy) shown; then the claim
    agreed: `Timing` where South waits for dummy's card."""
    calls = iter(["North passes", "East bids 1H", "West passes", "North passes"])
    answers = {"ready for teams": 'Teams : N/S : "North-South" E/W : "East-West"',
               "ready to start": "Start of board",
               "ready for deal": "Board number 1. Dealer North. Neither vulnerable.",
               "ready for cards": "South's cards : S 9 7 5 3 2. H T. D J T 6. C T 9 8 5.",
               "ready for dummy": "Dummy's cards : S Q 6. H A 9 5 4. D Q 9 7 3. C K J 6.",
               "ready for dummy's card to trick 1": TIMING}
    while raw := await reader.readline():
        line = raw.decode().strip()
        heard.append(line)
        if line.startswith("Connecting"):
            out = ['South ("pool") seated']
        elif "'s bid" in line:
            out = [next(calls)]
            if sum("'s bid" in h for h in heard) == 4:  # the auction is over: 1H by East
                out.append("South to lead")
        else:
            out = [answers[key] for key in answers if line == f"South {key}"]
        writer.write("".join(f"{o}\r\n" for o in out).encode())
        await writer.drain()
    writer.close()


async def test_our_robot_takes_timing_in_the_play_as_the_boards_end() -> None:
    heard: list[str] = []
    server = await asyncio.start_server(lambda r, w: scripted_host(r, w, heard), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        robot = OurRobot(Seat.S, "v1.token", port, label="pool", samples=2)
        await asyncio.wait_for(robot.play(1), 30)  # before: HostRefused ("got Timing")
    assert heard[-1] == "South ready for dummy's card to trick 1"
    assert any(line.startswith("South plays") for line in heard)  # its opening lead
