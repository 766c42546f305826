"""Which seats are robots' as the director sees them, which seats have no person, and the
robot pool's reading of its requests (shared/robot/seats.py, services/robots/pool.py)."""

from __future__ import annotations

import json

import pytest

from services.robots.pool import read_request
from shared.robot.seats import (
    POOL_LABEL,
    SeatError,
    empty_seats,
    parse_seats,
    person_seats,
    robot_seats,
)

CONNECTED = {"label": POOL_LABEL, "connected": True, "since": 5}
LEFT = {"label": POOL_LABEL, "connected": False, "since": 9}
THEIRS = {"label": "BEN", "connected": False, "since": 7}


def test_seats_are_read_in_the_tables_order_in_letters_or_words() -> None:
    assert parse_seats(["w", "East", " N "]) == ("N", "E", "W")
    assert parse_seats([]) == ()


@pytest.mark.parametrize(("given", "says"), [
    (["X"], "'X' is not a seat"), (["N", "north"], "N is given twice"),
    ("N", "a list of seats"), ([1], "1 is not a seat"), ([None], "None is not a seat")])
def test_a_bad_seat_is_named(given: object, says: str) -> None:
    with pytest.raises(SeatError, match=says):
        parse_seats(given)


def test_a_requested_seat_is_connected_or_waiting() -> None:
    seats = robot_seats(["E", "W"], {"E": CONNECTED, "W": LEFT})
    assert seats["E"] == {"status": "connected", "requested": True, "label": POOL_LABEL,
                          "since": 5, "awaited_s": None}
    assert seats["W"] == {"status": "waiting", "requested": True, "label": POOL_LABEL,
                          "since": 9, "awaited_s": None}
    assert robot_seats(["S"], {})["S"] == {"status": "waiting", "requested": True,
                                           "label": None, "since": None, "awaited_s": None}


def test_a_robot_not_asked_for_shows_while_connected_or_when_another_robot_left() -> None:
    seats = robot_seats([], {"N": CONNECTED, "E": LEFT, "S": THEIRS})
    assert set(seats) == {"N", "S"}  # E: our robot taken away, its seat not a robot's
    assert seats["N"]["status"] == "connected" and not seats["N"]["requested"]
    assert seats["S"]["status"] == "waiting" and seats["S"]["label"] == "BEN"


def test_a_robot_the_table_has_waited_on_for_long_is_stalled_with_the_seconds() -> None:
    """Presence: the host says how long the table has waited for a robot's call or card,
    and whether that is long (its TABLESERVER_TM_STALL): the director sees it, though the
    robot is connected. A robot that left is waiting, whatever its record says."""
    awaited = {**CONNECTED, "awaited_since": 1_000, "stalled": False}
    stalled = {**CONNECTED, "awaited_since": 1_000, "stalled": True}
    gone = {**LEFT, "awaited_since": 1_000, "stalled": True}
    seats = robot_seats(["N", "E", "S"], {"N": awaited, "E": stalled, "S": gone}, now=96_500)
    assert (seats["N"]["status"], seats["N"]["awaited_s"]) == ("connected", 95)
    assert (seats["E"]["status"], seats["E"]["awaited_s"]) == ("stalled", 95)
    assert (seats["S"]["status"], seats["S"]["awaited_s"]) == ("waiting", None)
    assert robot_seats(["E"], {"E": stalled})["E"]["awaited_s"] is None  # no clock given


def test_a_named_seat_is_a_persons_unless_the_name_is_the_robots() -> None:
    named = {"N": "Ann", "E": "Robot", "S": " ", "W": ""}
    assert person_seats(named) == {"N"}
    assert empty_seats(named) == ("E", "S", "W")
    assert empty_seats({}) == ("N", "E", "S", "W")


def test_the_pool_reads_a_request_and_passes_over_what_is_not_one() -> None:
    request = json.dumps({"table": "t1", "seats": ["W", "E"], "ts": 1}).encode()
    assert read_request(request) == ("t1", ("E", "W"))
    for bad in (b"", b"[]", b'{"table": "t1"}', b'{"table": "t1", "seats": ["Q"]}', None):
        assert read_request(bad) is None
