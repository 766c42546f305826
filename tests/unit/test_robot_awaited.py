"""Whom a table waits for, as a robot acts (shared/table_manager/awaited.py; docs/robots.md):
from the board as a seat sees it, folded by the real engine; and the Redis record the host
writes of it for the director (services/robots/presence.py), stalled once long."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from services.common.names import robot_key
from services.robots.presence import RedisPresence
from shared.seats import Seat
from shared.table_manager.awaited import awaited, position
from tests.helpers import wait_for_async
from tests.unit.test_robot_session import AUCTION, PLAYED, START, call, view

pytestmark = pytest.mark.unit

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def claim(seat: str, tricks: int) -> dict[str, Any]:
    return {"type": "claim", "seat": seat, "tricks": tricks}


def answer(seat: str, accept: bool) -> dict[str, Any]:
    return {"type": "claim_response", "seat": seat, "accept": accept}


@pytest.mark.parametrize(("events", "seats"), [
    ([START], {N}),  # Law 17C: the dealer calls first
    ([START, call("N", "P")], {E}),  # then each in turn
    (AUCTION, {W}),  # Law 41A: declarer's left-hand opponent leads
    ([*AUCTION, *PLAYED[:1]], {S}),  # Law 45A: dummy's card is due, declarer plays it
    ([*AUCTION, *PLAYED[:2]], {E}),
    ([*AUCTION, *PLAYED[:16]], {S}),  # dummy won trick 4: declarer leads from dummy
    ([*AUCTION, *PLAYED[:4], claim("S", 12)], {E, W}),  # Law 69A: both defenders answer
    ([*AUCTION, *PLAYED[:4], claim("S", 12), answer("W", True)], {E}),
    ([*AUCTION, *PLAYED[:4], claim("W", 1)], {S}),  # a defender's claim: declarer answers
    ([*AUCTION, *PLAYED[:4], claim("W", 1), answer("E", False)],
     {W}),  # Law 68B2: his partner objects to the concession: play continues, W on lead
    ([*AUCTION, *PLAYED[:4], claim("S", 12), answer("W", False)], set()),  # Law 70: the TD's
    ([*AUCTION, *PLAYED[:4], claim("S", 12), answer("W", True), answer("E", True)],
     set()),  # Law 69A: agreed, the board is over
    ([START, call("N", "P"), call("E", "P"), call("S", "P"), call("W", "P")], set()),  # 22A
])  # fmt: skip
def test_the_seat_the_table_waits_for(events: list[dict[str, Any]], seats: set[Seat]) -> None:
    assert awaited(view(events, N)) == seats
    assert awaited(view(events, E)) == seats  # any seat's view tells it alike


def test_a_new_position_at_each_call_card_and_claim() -> None:
    boards = [view(e, N) for e in ([START], AUCTION, [*AUCTION, *PLAYED[:1]],
                                   [*AUCTION, *PLAYED[:4]],
                                   [*AUCTION, *PLAYED[:4], claim("S", 12)])]
    assert len({position(b) for b in boards}) == len(boards)
    assert position(view(AUCTION, N)) == position(view(AUCTION, W))


class Recording:
    """A Redis that keeps what is set."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}

    async def set(self, key: str, value: str, ex: int) -> None:
        self.values[key] = json.loads(value)


async def test_the_hosts_record_says_since_when_and_stalled_once_long() -> None:
    """Robots' presence: every robot was shown `connected` while its table had stopped. The
    record now carries since when the table waits for the robot, and `stalled` once that is
    the host's TABLESERVER_TM_STALL long (written again by the keep-up)."""
    redis, now = Recording(), [1_000.0]
    presence = RedisPresence(redis, stall_s=60, clock=lambda: now[0])  # type: ignore[arg-type]
    await presence.seated("t1", "E", "BEN")
    await presence.awaited("t1", "E", 1_000_000)
    (record,) = redis.values.values()
    assert (record["awaited_since"], record["stalled"]) == (1_000_000, False)
    now[0] = 1_060.0
    await presence._write("t1", "E", "BEN", True, 1_000_000)  # what keep_up does
    (record,) = redis.values.values()
    assert record["connected"] and record["stalled"]
    await presence.awaited("t1", "E", None)
    (record,) = redis.values.values()
    assert (record["awaited_since"], record["stalled"]) == (None, False)
    await presence.awaited("t1", "E", 1_000_000)
    await presence.left("t1", "E", "BEN")  # a robot away is not stalled: its seat waits
    (record,) = redis.values.values()
    assert (record["connected"], record["stalled"]) == (False, False)


async def test_a_wait_that_lasts_is_recorded_stalled_when_it_becomes_one() -> None:
    """Not only at the next keep-up (5 s later): the record says `stalled` once the wait is
    the stall's length; a wait that ended before is not."""
    redis = Recording()
    presence = RedisPresence(redis, stall_s=0.05)  # type: ignore[arg-type]
    await presence.seated("t1", "N", "BEN")
    await presence.seated("t1", "E", "BEN")
    since = int(time.time() * 1000)
    await presence.awaited("t1", "N", since)
    await presence.awaited("t1", "E", since)
    await presence.awaited("t1", "E", None)  # East acted at once
    await wait_for_async(lambda: redis.values[robot_key("t1", "N")]["stalled"], 5,
                         "North stalled")
    assert not redis.values[robot_key("t1", "E")]["stalled"]
