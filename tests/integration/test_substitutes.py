"""Substitutes on the real stack (docs/operations.md, "Substitutes"): the Director sets a
tournament's time (5 s here); North, East and South have their seat pages open (feed
sockets), West never opened his. At West's turn the table is told "waiting for West, not
connected"; after the time a robot of our pool sits in for him through the Table Manager host
(`substitute_seated`, his seat named "Robot (for Ann)") and makes his call. West's page opens:
the robot stands up (`substitute_left`) before his next turn, which is his own. The record
has both events, the robot's think apart from West's own, and the PBN names the
substitute."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.helpers import DEALS, TM_PORT, wait_for
from tests.robot_services import Robots
from tests.stack import Stack

T = "subs1"
TABLE = "subs1-a"
AFTER_S = 5


@pytest.fixture(scope="module")
def robots(stack: Stack) -> Iterator[Robots]:
    started = Robots(stack, TM_PORT + 6)  # +0 … +5: the other robots tests' hosts
    try:
        yield started
    finally:
        started.stop()


def _told(http: Any) -> dict[str, Any]:
    found = http.get(f"/api/tournaments/{T}/substitutes")
    assert found.status_code == 200, found.text
    table: dict[str, Any] = found.json()["tables"][TABLE]
    return table


def _board(http: Any) -> dict[str, Any]:
    board: dict[str, Any] = http.get(f"/api/tables/{TABLE}/state").json().get("board") or {}
    return board


def _call(stack: Stack, token: str, call: str) -> None:
    with stack.client(token) as seat:
        sent = seat.post(f"/api/tables/{TABLE}/events", json={"type": "call", "call": call})
        assert sent.status_code == 202, sent.text


def _calls(http: Any) -> list[dict[str, str]]:
    return list(_board(http).get("calls") or [])


def test_a_robot_sits_in_for_a_vanished_player_and_stands_up_when_he_is_back(
        stack: Stack, robots: Robots) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": [TABLE], "deals": DEALS,
            "players": {TABLE: {"N": "Nia", "E": "Eli", "S": "Sam", "W": "Ann"}}})
        assert made.status_code == 201, made.text
        seats = made.json()["tables"][0]["seats"]
        bad = http.put(f"/api/tournaments/{T}/substitutes", json={"after_s": 1})
        assert bad.status_code == 400 and bad.json()["field"] == "after_s", bad.text
        none = http.delete(f"/api/tournaments/{T}/tables/{TABLE}/substitutes/W")
        assert none.status_code == 409 and none.json()["field"] == "seat", none.text
        put = http.put(f"/api/tournaments/{T}/substitutes", json={"after_s": AFTER_S})
        assert put.status_code == 200 and put.json()["after_s"] == AFTER_S, put.text
        assert http.post(f"/api/tournaments/{T}/rounds",
                         json={"round": 1, "boards": [1]}).status_code == 202
        wait_for(lambda: _board(http).get("status") == "auction", 30, "board 1's auction")
    base = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/{TABLE}/feed?token="
    with connect(base + seats["N"], open_timeout=10), \
            connect(base + seats["E"], open_timeout=10), \
            connect(base + seats["S"], open_timeout=10), stack.client(stack.director) as http:
        wait_for(lambda: all(_told(http)["connected"][s] for s in "NES"), 10, "three pages")
        assert not _told(http)["connected"]["W"]
        for seat, call in zip("NES", ("1C", "P", "1D"), strict=True):
            _call(stack, seats[seat], call)
        turn = time.monotonic()  # West's turn, acknowledged: he has no page
        told = wait_for(lambda: (t := _told(http))["waiting"] and t, 10, "the table told")
        assert told["waiting"] == "waiting for West, not connected" and not told["substitutes"]
        wait_for(lambda: _told(http)["substitutes"] == ["W"], 30, "the substitute seated")
        assert time.monotonic() - turn >= AFTER_S - 1  # not before the Director's time (the
        # 1 s: the turn's start is stamped before the acknowledgement the test waited for)
        assert _board(http)["players"]["W"] == "Robot (for Ann)"
        robot = wait_for(lambda: len(c := _calls(http)) == 4 and c[3], 120, "West's call")
        assert robot["seat"] == "W"
        with connect(base + seats["W"], open_timeout=10):  # West is back, at North's turn
            wait_for(lambda: _told(http)["substitutes"] == [], 15, "the substitute stood up")
            wait_for(lambda: "W" not in http.get(f"/api/tables/{TABLE}/robots").json()[
                "seats"], 30, "the robot gone from West")
            again = {"P": "1H", "X": "XX"}.get(robot["call"], "X")  # the auction goes on
            for seat, call in zip("NES", (again, "P", "P"), strict=True):
                _call(stack, seats[seat], call)
            _call(stack, seats["W"], "P")  # his own call, at his next turn
            calls = wait_for(lambda: len(c := _calls(http)) == 8 and c, 15, "West's own call")
            assert calls[7] == {"seat": "W", "call": "P"}
            assert _told(http)["substitutes"] == [] and _told(http)["waiting"] is None
        assert _board(http)["players"]["W"] == "Robot (for Ann)"  # he played part of it
        record = http.get(f"/api/tables/{TABLE}/history", params={"board": 1})
        assert record.status_code == 200, record.text
        kinds = [e["event"]["type"] for e in record.json()["history"] if e["event"]]
        assert kinds.count("substitute_seated") == kinds.count("substitute_left") == 1
        thinks = {t["offset"]: t for t in record.json()["think_times"]["thinks"]}
        west = [t for t in thinks.values() if t["seat"] == "W"]
        assert [(t["player"], t["robot"]) for t in west] == [("Robot (for Ann)", True),
                                                            ("Ann", False)]
        pbn = http.get(f"/api/tables/{TABLE}/history", params={"board": 1, "format": "pbn"})
        assert '[West "Robot (for Ann)"]' in pbn.text, pbn.text[:400]
