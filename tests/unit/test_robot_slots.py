"""Robot slots (services/robots/slots.py): a stock robot that sends its own name, with no token
(`Connecting "WBridge5" as ANYPL`), is seated only in a slot opened first on the host with the
seat's token (checked with the gateway), bound to that label, once, for a short time."""

from __future__ import annotations

import asyncio

import pytest

from services.robots.credentials import CredentialError
from services.robots.gateway_link import Refusal
from services.robots.host import TableManagerHost
from services.robots.slots import Slots, parse_slot_line
from shared.seats import Seat
from tests.unit.test_robot_host import FakeLink, FakeWriter, token

pytestmark = pytest.mark.unit

HELLO = 'Connecting "WBridge5" as {} using protocol version 18'


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_slot_line_is_read() -> None:
    assert parse_slot_line(f'Robot slot "WBridge5" {token()}\r\n') == ("WBridge5", token())
    assert parse_slot_line('Connecting "WBridge5" as ANYPL using protocol version 18') is None


def test_a_slot_seats_its_label_once_at_its_seat_until_it_lapses() -> None:
    clock = Clock()
    slots = Slots(120, clock)
    slots.add(slots.credential("WBridge5", token(seat="E")))
    assert slots.take("Jack", None) is None  # another label
    assert slots.take("WBridge5", Seat.N) is None  # another seat than the token's
    taken = slots.take("WBridge5", None)
    assert taken is not None and (taken.table, taken.seat, taken.label) == ("t1", Seat.E,
                                                                            "WBridge5")
    assert slots.take("WBridge5", None) is None  # once
    slots.add(slots.credential("WBridge5", token(seat="E")))
    clock.now = 120
    assert slots.take("WBridge5", Seat.E) is None  # lapsed


def test_two_slots_one_label_seat_only_a_robot_that_names_its_seat() -> None:
    slots = Slots(120, Clock())
    slots.add(slots.credential("WBridge5", token(seat="E")))
    slots.add(slots.credential("WBridge5", token(seat="W")))
    assert slots.take("WBridge5", None) is None  # which? neither
    taken = slots.take("WBridge5", Seat.W)
    assert taken is not None and taken.seat is Seat.W


@pytest.mark.parametrize(("label", "tok"), [("WBridge5", token(role="spectator", seat=None)),
                                             (f"bot {token()}", token())])
def test_a_slot_needs_a_seat_token_and_a_plain_label(label: str, tok: str) -> None:
    with pytest.raises(CredentialError):
        Slots(120).credential(label, tok)


async def _say(host: TableManagerHost, *lines: str, stay: bool = False) -> FakeWriter:
    reader = asyncio.StreamReader()
    writer = FakeWriter(reader)
    for line in lines:
        reader.feed_data((line + "\r\n").encode())
    if not stay:
        reader.feed_eof()
    task = asyncio.create_task(host.connection(reader, writer))  # type: ignore[arg-type]
    if stay:
        while not writer.lines:
            await asyncio.sleep(0.01)
        reader.feed_eof()
    await asyncio.wait_for(task, 5)
    return writer


async def test_the_host_seats_a_stock_robot_in_the_slot_the_token_opened() -> None:
    link = FakeLink()
    host = TableManagerHost("http://gateway", lambda table, tok: link)  # type: ignore[arg-type, return-value]
    refused = await _say(host, HELLO.format("ANYPL"))
    assert refused.lines[0].startswith("Error refused: no robot token in the name")
    opened = await _say(host, f'Robot slot "WBridge5" {token(seat="E")}')
    assert opened.lines == ['Slot open: "WBridge5" sits at East of t1 if it connects within '
                            "120 s"]
    seated = await _say(host, HELLO.format("ANYPL"), stay=True)
    assert seated.lines[0] == 'East ("WBridge5") seated'


async def test_a_slot_whose_token_the_gateway_refuses_is_not_opened() -> None:
    link = FakeLink(refuse=Refusal(401, "token expired"))
    host = TableManagerHost("http://gateway", lambda table, tok: link)  # type: ignore[arg-type, return-value]
    opened = await _say(host, f'Robot slot "WBridge5" {token(seat="E")}')
    assert opened.lines == ["Error refused: token expired (status 401)"]
    assert not host.slots.open


async def test_a_slot_seats_one_robot_at_once_and_is_open_again_for_it_once_it_left() -> None:
    """The slot taken, a second robot of that name is refused while the first sits; once the
    first left (its connection dropped mid-board), the slot is open again for the slot's time,
    so that it comes back by its name, as a robot with its token does; then it lapses."""
    clock = Clock()
    link = FakeLink()
    host = TableManagerHost("http://gateway", lambda table, tok: link)  # type: ignore[arg-type, return-value]
    host.slots.clock = clock
    await _say(host, f'Robot slot "WBridge5" {token(seat="E")}')
    reader = asyncio.StreamReader()
    first = FakeWriter(reader)
    reader.feed_data((HELLO.format("East") + "\r\n").encode())
    sitting = asyncio.create_task(host.connection(reader, first))  # type: ignore[arg-type]
    while not first.lines:
        await asyncio.sleep(0.01)
    assert first.lines[0] == 'East ("WBridge5") seated'
    second = await _say(host, HELLO.format("ANYPL"))  # the slot is taken while it sits
    assert second.lines[0].startswith("Error refused: no robot token in the name")
    reader.feed_eof()  # the first leaves
    await asyncio.wait_for(sitting, 5)
    back = await _say(host, HELLO.format("ANYPL"), stay=True)
    assert back.lines[0] == 'East ("WBridge5") seated'
    clock.now += 121  # left, and not back within the slot's time: the slot lapsed
    late = await _say(host, HELLO.format("ANYPL"))
    assert late.lines[0].startswith("Error refused: no robot token in the name")


def test_a_slot_the_director_opens_closes_those_open_again_for_that_label() -> None:
    """A stock robot's name tells no table: the slot open again for WBridge5, which left East
    of t1, is closed when the director opens one for WBridge5 at East of t2 (else neither
    could be taken: two slots for one name and seat)."""
    slots = Slots(120, Clock())
    slots.add(slots.credential("WBridge5", token("t1", "E")), returning=True)
    slots.add(slots.credential("WBridge5", token("t2", "E")))
    taken = slots.take("WBridge5", Seat.E)
    assert taken is not None and taken.table == "t2"
    slots.add(slots.credential("WBridge5", token("t1", "E")), returning=True)
    slots.add(slots.credential("Jack", token("t3", "W")))  # another label's: left open
    taken = slots.take("WBridge5", None)
    assert taken is not None and taken.table == "t1"
