"""The Table Manager host's connection handling on fakes (services/robots/host.py): refusals
before any seat, the robot's event through the link, a refused event undone and told, a feed
that fails hangs up (the robot may come back)."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest

from services.robots.gateway_link import Refusal
from services.robots.host import TableManagerHost
from tests.helpers import wait_for_async

pytestmark = pytest.mark.unit

DEAL = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
BOARD = {"board": 1, "dealer": "N", "vulnerability": "None", "status": "auction",
         "calls": [], "contract": None, "play": None, "result": None, "started_ts": 5,
         "deal": "N:4.KJ32.842.AQ743 - - -"}


def token(table: str = "t1", seat: str | None = "N", role: str = "seat") -> str:
    claims = json.dumps({"t": table, "s": seat, "r": role, "e": 2**40}).encode()
    return "v1." + base64.urlsafe_b64encode(claims).rstrip(b"=").decode() + ".c2ln"


class FakeLink:
    def __init__(self, refuse: Refusal | None = None, fail: bool = False,
                 refuse_events: bool = False) -> None:
        self.refuse, self.fail, self.refuse_events = refuse, fail, refuse_events
        self.sent: list[Mapping[str, Any]] = []

    async def check(self) -> None:
        if self.refuse:
            raise self.refuse

    async def send(self, event: Mapping[str, Any]) -> None:
        if self.refuse_events:
            raise Refusal(400, "not your turn (field call)")
        self.sent.append(event)

    async def states(self) -> AsyncIterator[dict[str, Any] | None]:
        yield BOARD
        if self.fail:
            raise RuntimeError("a bug in the feed")
        await asyncio.Event().wait()

    async def close(self) -> None:
        pass


class FakeWriter:
    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.lines: list[str] = []
        self.reader = reader
        self.closed = False

    def write(self, data: bytes) -> None:
        self.lines += data.decode().splitlines()

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True
        self.reader.feed_eof() if not self.reader.at_eof() else None

    async def wait_closed(self) -> None:
        pass

    def get_extra_info(self, name: str) -> Any:
        return ("127.0.0.1", 1) if name == "peername" else None


async def converse(lines: list[str], link: FakeLink, stay: bool = False) -> FakeWriter:
    host = TableManagerHost("http://gateway", lambda table, tok: link)  # type: ignore[arg-type, return-value]
    reader = asyncio.StreamReader()
    writer = FakeWriter(reader)
    for line in lines:
        reader.feed_data((line + "\r\n").encode())
    if not stay:
        reader.feed_eof()
    await asyncio.wait_for(host.connection(reader, writer), 5)  # type: ignore[arg-type]
    return writer


@pytest.mark.parametrize(("hello", "answer"), [
    ('Connecting "robot" as North using protocol version 18',
     "Error refused: no robot token in the name"),
    (f'Connecting "robot {token(seat="S")}" as North using protocol version 18',
     "Error refused: the token is for South's seat, not North's"),
    (f'Connecting "robot {token(role="spectator", seat=None)}" as North using protocol '
     "version 18", "Error refused: not a seat token"),
    (f'Connecting "robot {token()}" as North using protocol version 17',
     "Error refused: protocol version 17; this host speaks 18"),
    ("North ready for teams", "Error refused: the first line is"),
    ("hello", "Error refused: not a line of the protocol"),
])  # fmt: skip
async def test_a_robot_without_its_seat_is_refused_and_told_why(hello: str, answer: str) -> None:
    link = FakeLink()
    writer = await converse([hello], link)
    assert len(writer.lines) == 1 and writer.lines[0].startswith(answer), writer.lines
    assert writer.closed and not link.sent


async def test_a_token_the_gateway_refuses_is_told_with_its_status() -> None:
    link = FakeLink(refuse=Refusal(401, "token expired"))
    writer = await converse([f'Connecting "bot {token()}" as North using protocol version 18'],
                            link)
    assert writer.lines == ["Error refused: token expired (status 401)"]


@pytest.mark.parametrize("refused", [False, True])
async def test_the_robots_call_goes_through_the_link_or_its_refusal_comes_back(
        refused: bool) -> None:
    link = FakeLink(refuse_events=refused)
    host = TableManagerHost("http://gateway", lambda table, tok: link)  # type: ignore[arg-type, return-value]
    reader = asyncio.StreamReader()
    writer = FakeWriter(reader)
    task = asyncio.create_task(host.connection(reader, writer))  # type: ignore[arg-type]

    def feed(*lines: str) -> None:
        for line in lines:
            reader.feed_data((line + "\r\n").encode())

    feed(f'Connecting "bot {token()}" as ANYPL using protocol version 18',
         "North ready to start")
    await wait_for_async(lambda: "Start of board" in writer.lines, 5, "the board announced")
    feed("North ready for deal", "North bids 1C Alert. could be short")
    if refused:
        await wait_for_async(lambda: writer.lines[-1].startswith("Error"), 5, "the refusal")
        assert writer.lines[-1] == "Error not your turn (field call) (status 400)"
        assert not link.sent
    else:
        await wait_for_async(lambda: link.sent, 5, "the call sent")
        assert link.sent == [{"type": "call", "call": "1C", "client_seq": 128,
                              "alert": True, "explanation": "could be short"}]
    assert "Board number 1. Dealer North. Neither vulnerable." in writer.lines
    reader.feed_eof()
    await asyncio.wait_for(task, 5)
    assert writer.closed


async def test_a_feed_that_fails_hangs_up() -> None:
    link = FakeLink(fail=True)
    writer = await converse([f'Connecting "bot {token()}" as North using protocol version 18'],
                            link, stay=True)
    assert writer.lines[0] == 'North ("bot") seated' and writer.closed
