"""Which seats of a table robots hold, as the director sees them; which seats of a tournament
have no person (pure: the gateway reads the requests and the host's presence records, and
asks here what they mean)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from typing_extensions import TypedDict

SEATS = ("N", "E", "S", "W")
ROBOT_NAME = "Robot"  # the name the director's robots are given at their seats
POOL_LABEL = "robot-pool"  # the label our robot pool's robots connect with


class RobotStatus(StrEnum):
    CONNECTED = "connected"  # a robot sits there now, through the Table Manager host
    # connected, but the table has waited for its call or card for long (the host's
    # TABLESERVER_TM_STALL): the robot does not act, the director looks
    STALLED = "stalled"
    WAITING = "waiting"  # a robot was asked for, or left: the seat's turn waits for it


class RobotSeat(TypedDict):
    """A robot's seat as the director sees it (GET /api/tables/{t}/robots). The string
    under a key is its description in the route's schema (`services.gateway.http.
    state_models`)."""

    status: RobotStatus
    """connected; stalled (connected, but the table has waited for its call or card longer
    than the host's TABLESERVER_TM_STALL); or waiting (its turn waits for it)"""
    requested: bool
    """the director asked our robot pool for this seat"""
    label: str | None
    """the name the robot connected with (null: not yet connected)"""
    since: int | None
    """ms since the epoch: connected, or left, then"""
    awaited_s: int | None
    """seconds the table has waited for the robot's call or card (null: it does not, or the
    robot is away)"""


class RobotPresence(TypedDict):
    """What the Table Manager host records of a robot at a seat (Redis, `robot_key`)."""

    label: str  # the name the robot connected with
    connected: bool  # it sits there now (False: it left, recorded for a while)
    since: int  # ms since the epoch: connected, or left, then
    awaited_since: int | None  # ms since the epoch the table has waited for it (None: not)
    stalled: bool  # the table has waited for it for the host's TABLESERVER_TM_STALL


class SeatError(ValueError):
    """Not a list of seats; the text says which value."""


WORDS = {"n": "N", "north": "N", "e": "E", "east": "E", "s": "S", "south": "S", "w": "W",
         "west": "W"}


def parse_seats(values: Any) -> tuple[str, ...]:
    """Seats (N, E, S, W, or their words), each once, in the table's order; `SeatError`
    names a bad one."""
    if not isinstance(values, list | tuple):
        raise SeatError("a list of seats such as [\"E\", \"W\"]")
    seats: list[str] = []
    for value in values:
        seat = WORDS.get(value.strip().lower()) if isinstance(value, str) else None
        if seat is None:
            raise SeatError(f"{value!r} is not a seat (N, E, S or W)")
        if seat in seats:
            raise SeatError(f"{seat} is given twice")
        seats.append(seat)
    return tuple(s for s in SEATS if s in seats)


def robot_seats(requested: Iterable[str], present: Mapping[str, RobotPresence | None],
                now: int | None = None) -> dict[str, RobotSeat]:
    """Each seat a robot holds: asked for by the director (`requested`), or found by the host
    (`present`: seat → its record, `connected`, `label`, `since`, `awaited_since`, `stalled`;
    None or absent: none). A seat is `connected` while a robot sits there (`stalled` when the
    host says the table has waited for it for long), else `waiting`. A robot of our pool that
    left a seat no longer asked for was taken away: that seat is not a robot's any more.
    `now` (ms since the epoch) gives `awaited_s`."""
    wanted = set(requested)
    seats: dict[str, RobotSeat] = {}
    for seat in SEATS:
        record = present.get(seat)
        if seat not in wanted and (record is None or (
                not record.get("connected") and record.get("label") == POOL_LABEL)):
            continue
        connected = bool(record and record.get("connected"))
        awaited = record.get("awaited_since") if record and connected else None
        status = (RobotStatus.WAITING if not connected else RobotStatus.STALLED
                  if record and record.get("stalled") else RobotStatus.CONNECTED)
        seats[seat] = RobotSeat(
            status=status, requested=seat in wanted,
            label=str(record["label"]) if record and record.get("label") else None,
            since=int(record["since"]) if record and record.get("since") else None,
            awaited_s=max(0, now - int(awaited)) // 1000
            if awaited is not None and now is not None else None)
    return seats


def person_seats(named: Mapping[str, str]) -> set[str]:
    """The seats a person holds, as far as the system knows: a name given at the seat (the
    tournament's players, or `players_named` at the table) that is not the robots'."""
    return {seat for seat, name in named.items()
            if seat in SEATS and name.strip() and name.strip() != ROBOT_NAME}


def empty_seats(named: Mapping[str, str]) -> tuple[str, ...]:
    """The seats with no person: those a tournament's robots fill."""
    people = person_seats(named)
    return tuple(s for s in SEATS if s not in people)
