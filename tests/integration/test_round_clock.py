"""The rounds' clock on the real stack (docs/scoring.md, "The clock"): a Howell of two tables
timed at a compressed pace (0.05 minutes a board: a round of two boards lasts 6 s). Round 1 is
started by the Director; a board is left in its auction at one table; with no further word the
round ends by the clock at every table (its board in progress left unfinished, a call after it
passed over), round 2 starts by itself, the Director gives it more time, and holds it; ending it
by hand starts round 3, whose end starts nothing."""

from __future__ import annotations

from typing import Any

from tests.helpers import DEALS, wait_for
from tests.stack import Stack

T = "clocked"
PAIRS = [{"name": f"pair {n}", "players": [f"C{n}a", f"C{n}b"]} for n in range(1, 5)]
MINUTES = 0.05


def _state(http: Any, table: str) -> dict[str, Any]:
    found: dict[str, Any] = http.get(f"/api/tables/{table}/state").json()
    return found


def _clock(http: Any, table: str) -> dict[str, Any] | None:
    board = _state(http, table).get("board") or {}
    clock: dict[str, Any] | None = board.get("clock")
    return clock


def test_rounds_end_on_the_clock_and_the_next_starts_by_itself(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": [f"{T}-a", f"{T}-b"], "deals": DEALS,
            "entrants": PAIRS, "movement": {"kind": "howell", "boards_per_round": 2,
                                            "minutes_per_board": MINUTES}})
        assert made.status_code == 201, made.text
        seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
        assert http.post(f"/api/tournaments/{T}/rounds", json={"round": 1}).status_code == 202
        first = wait_for(lambda: _clock(http, f"{T}-a"), 15, "round 1's clock at table a")
        assert first["round"] == 1 and not first["over"]
    with stack.client(seats[f"{T}-a"]["N"]) as north:  # board 1 left in its auction
        assert north.post(f"/api/tables/{T}-a/events",
                          json={"type": "call", "call": "1C"}).status_code == 202
    with stack.client(stack.director) as http:
        second = wait_for(lambda: (c := _clock(http, f"{T}-a")) and c["round"] == 2 and c,
                          30, "round 2 started by the clock")
        assert second["ends_at"] > first["ends_at"]
        assert wait_for(lambda: (c := _clock(http, f"{T}-b")) and c["round"] == 2, 15,
                        "round 2 at table b")
        board = _state(http, f"{T}-a")["board"]
        assert board["board"] == 3  # round 2's first board at table a (the Howell's boards 3–4)
        assert board["previous"]["board"] == 1 and board["previous"]["result"] is None
        more = http.post(f"/api/tournaments/{T}/clock", json={"action": "extend",
                                                              "minutes": 1})
        assert more.status_code == 200, more.text
        assert more.json()["ends_at"] >= second["ends_at"] + 60_000
        wait_for(lambda: (c := _clock(http, f"{T}-a")) and c["ends_at"] == more.json()[
            "ends_at"], 15, "the extension at the table")
        held = http.post(f"/api/tournaments/{T}/clock", json={"action": "hold"})
        assert held.status_code == 200 and held.json()["held"]
        wait_for(lambda: (c := _clock(http, f"{T}-a")) and c["held"], 15, "the hold shown")
        ended = http.post(f"/api/tournaments/{T}/clock", json={"action": "end"})
        assert ended.status_code == 200 and ended.json()["next"] == 3, ended.text
        wait_for(lambda: (c := _clock(http, f"{T}-b")) and c["round"] == 3, 15, "round 3")
        last = http.post(f"/api/tournaments/{T}/clock", json={"action": "end"})
        assert last.status_code == 200 and last.json()["next"] is None
        again = http.post(f"/api/tournaments/{T}/clock", json={"action": "extend",
                                                               "minutes": 1})
        assert again.status_code == 409 and again.json()["field"] == "round"
        bad = http.post(f"/api/tournaments/{T}/clock", json={"action": "extend"})
        assert bad.status_code == 400 and bad.json()["field"] == "minutes"
