"""Our robot (services/robots/player.py) discloses its agreements like any pair (Laws 20F,
40B): a call the ACBL alert procedure has alerted or announced goes to the host with its
text (`Alert. <text>`, the seat page's alert and explanation); a call explained only on
request goes alone. Against a host of a few lines, on a real socket."""

from __future__ import annotations

import asyncio

import pytest

from services.robots.player import OurRobot
from shared.seats import Seat

pytestmark = pytest.mark.unit


async def scripted_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                        cards: str, heard: list[str]) -> None:
    """North opens 1NT, East passes: South's call is heard, then the host hangs up."""
    calls = iter(["North bids 1NT", "East passes"])
    answers = {"ready for teams": 'Teams : N/S : "North-South" E/W : "East-West"',
               "ready to start": "Start of board",
               "ready for deal": "Board number 1. Dealer North. Neither vulnerable.",
               "ready for cards": f"South's cards : {cards}"}
    while raw := await reader.readline():
        line = raw.decode().strip()
        heard.append(line)
        if line.startswith("South bids") or line.startswith("South passes"):
            break
        if line.startswith("Connecting"):
            out = ['South ("pool") seated']
        elif "'s bid" in line:
            out = [next(calls)]
        else:
            out = [answers[key] for key in answers if line == f"South {key}"]
        writer.write("".join(f"{o}\r\n" for o in out).encode())
        await writer.drain()
    writer.close()


async def south_calls(cards: str) -> str:
    heard: list[str] = []
    server = await asyncio.start_server(lambda r, w: scripted_host(r, w, cards, heard),
                                        "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        robot = OurRobot(Seat.S, "v1.token", port, label="pool", samples=2)
        with pytest.raises(ConnectionError):  # the host hangs up after the call
            await asyncio.wait_for(robot.play(1), 30)
    return heard[-1]


async def test_a_transfer_goes_with_its_announcement() -> None:
    """1NT Responses (Jacoby transfers): 2D shows five hearts, announced "transfer"."""
    line = await south_calls("S K 6. H J 9 7 4 2. D Q 8 3. C 9 7 2.")
    assert line == "South bids 2D Alert. Announced: transfer: five or more hearts"


async def test_stayman_goes_without_an_alert() -> None:
    """1NT Responses (Stayman): not alerted; its meaning is given on request."""
    line = await south_calls("S K 6 5 2. H A 4 2. D Q 8 3. C 9 7 2.")
    assert line == "South bids 2C"
