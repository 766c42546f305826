"""Our robot (services/robots/player.py) sitting in at a seat whose player already called and
played on the board (a substitute, docs/robots.md): the host (shared/table_manager/session.py)
tells it the board from its start, and answers a call or card of its own for a turn its seat
already took with the one that stands. The robot takes that one as its own, connects again and
goes on from the board's point, instead of disconnecting on the refusal for ever. Against the
host's real session, on a real socket, the board folded by the real engine."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from services.robots.player import OurRobot
from shared.codec import from_map
from shared.deal import format_deal, parse_deal
from shared.seats import Seat
from shared.table.engine import fold
from shared.table_manager import Connect, HostError, Seated, parse_client_line, write
from shared.table_manager.session import RobotSession

pytestmark = pytest.mark.unit

DEAL = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
# East's player opened 1H (with five spades: not the robot's call) and became declarer; South
# led the ace of spades, East played dummy's queen under it and his own seven (Law 45): then
# the player left, and South led trick 2. East (the robot) plays dummy's card next.
PAST: list[dict[str, Any]] = [
    {"type": "board_started", "board": 1, "deal": DEAL, "ruleset": "duplicate", "ts": 1000},
    *({"type": "call", "seat": s, "call": c}
      for s, c in [("N", "P"), ("E", "1H"), ("S", "P"), ("W", "P"), ("N", "P")]),
    *({"type": "card_played", "seat": s, "card": c}
      for s, c in [("S", "SA"), ("W", "SQ"), ("N", "S4"), ("E", "S7"), ("S", "HT")]),
]


def view(events: list[dict[str, Any]], seat: Seat) -> dict[str, Any]:
    """The board as `seat` sees it: its own hand, and dummy's once the lead is faced (41D)."""
    folded = fold([from_map(e) for e in events]).board
    assert folded is not None
    board: dict[str, Any] = dict(folded.to_dict())
    shown = {seat}
    if board.get("play") and board.get("contract"):
        shown.add(Seat.parse(board["contract"]["declarer"]).partner)
    hands = parse_deal(DEAL)
    return {**board, "started_ts": 1000, "deal": format_deal({s: hands[s] for s in shown})}


class Host:
    """The host's session for East over each connection, the table's events in `events`."""

    def __init__(self) -> None:
        self.events = list(PAST)
        self.connections = 0
        self.refusals: list[str] = []
        self.appended = asyncio.Event()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        session = RobotSession(Seat.E)
        session.on_view(view(self.events, Seat.E))

        async def send(messages: list[Any]) -> None:
            writer.write("".join(f"{write(m)}\r\n" for m in messages).encode())
            await writer.drain()

        while raw := await reader.readline():
            message = parse_client_line(raw.decode())
            if isinstance(message, Connect):
                await send([Seated(Seat.E, "pool")])
                continue
            outcome = session.on_line(message)
            self.refusals += [m.reason for m in outcome.replies if isinstance(m, HostError)]
            await send(outcome.replies)
            if outcome.event is not None:
                self.events.append({**outcome.event, "seat": outcome.event.get("seat", "E")})
                self.appended.set()
                await send(session.on_view(view(self.events, Seat.E)))
        writer.close()


async def test_a_substitute_robot_takes_its_seats_calls_and_cards_and_goes_on() -> None:
    host = Host()
    server = await asyncio.start_server(host.serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        robot = OurRobot(Seat.E, "v1.token", port, label="pool", samples=2)
        playing = asyncio.create_task(robot.play(1))
        appended = asyncio.create_task(host.appended.wait())
        done, _ = await asyncio.wait({playing, appended}, timeout=60,
                                     return_when=asyncio.FIRST_COMPLETED)
        playing.cancel()
        appended.cancel()
        await asyncio.gather(playing, appended, return_exceptions=True)
        # before: the robot's own 1H turned down ("your call here was 1H: it stands") and
        # HostRefused out of `play`, connecting again for ever; nothing appended
        assert appended in done, (host.refusals, playing)
    assert host.events[:len(PAST)] == PAST  # nothing of the board appended again
    new = host.events[len(PAST):]
    assert len(new) == 1 and new[0]["type"] == "card_played"
    assert new[0]["seat"] == "W"  # dummy's card to trick 2, played by declarer (Law 45)
    assert new[0]["card"] in {"H9", "H5", "H4", "HA"}  # follows suit (Law 44C)
    # one refusal, and one connection again, for each turn of its seat it would have taken
    # otherwise (the call, at most the two cards): bounded, never a loop
    assert "your call here was 1H: it stands" in host.refusals
    assert "the card played here was SQ: it stands" in host.refusals  # dummy's, under the ace
    assert all(r.endswith("it stands") for r in host.refusals)
    assert host.connections == len(host.refusals) + 1 <= 4
