"""A round on the real stack: the director starts three boards at once, and each of the later
ones starts by itself when the one before is over (a pass-out, Law 22A, or the end of its
play: here a result recorded, Law 79A); a held table waits. The state in Redis equals a replay
all along."""

from __future__ import annotations

from typing import Any

from shared.table.board_end import board_end
from tests.helpers import DEAL, run, state_at, wait_for
from tests.integration.kafka_reading import replay
from tests.stack import Stack


def _post(stack: Stack, token: str, path: str, body: dict[str, Any]) -> int:
    with stack.client(token) as http:
        response = http.post(path, json=body)
    assert response.status_code == 202, response.text
    offset: int = response.json()["offset"]
    return offset


def _board_at(stack: Stack, table: str, offset: int) -> dict[str, Any] | None:
    """The board in Redis once the table's state reflects `offset` (None before)."""
    found = state_at(stack, table, offset)
    return None if found is None else dict(found["board"])


def test_a_rounds_boards_start_by_themselves_and_a_held_table_waits(stack: Stack) -> None:
    table = "round1"
    with stack.client(stack.director) as http:
        tokens = http.post("/api/tables", json={"table": table}).json()
    seats, director = tokens["seats"], stack.director
    events = f"/api/tables/{table}/events"
    _post(stack, director, f"/api/tables/{table}/players", {"players": {"N": "Ann", "E": "Di"}})
    offset = _post(stack, director, f"/api/tables/{table}/rounds",
                   {"round": 1, "boards": [{"board": b, "deal": DEAL} for b in (1, 2, 3)]})
    assert wait_for(lambda: _board_at(stack, table, offset), 60, "board 1")["board"] == 1
    for seat in "NESW":  # board 1 passed out: board 2 starts, East deals (Law 2)
        offset = _post(stack, seats[seat], events, {"type": "call", "call": "P"})
    board = wait_for(lambda: _board_at(stack, table, offset), 10, "board 2")
    assert (board["board"], board["turn"]) == (2, "E")
    _post(stack, director, f"/api/tables/{table}/hold", {"held": True})
    for seat, call in (("E", "1H"), ("S", "P"), ("W", "P"), ("N", "P")):
        _post(stack, seats[seat], events, {"type": "call", "call": call})
    offset = _post(stack, seats["S"], events, {"type": "opening_lead", "card": "SA"})
    board = wait_for(lambda: _board_at(stack, table, offset), 10, "the lead folded")
    assert board["board"] == 2 and board["play"]["turn"] == "W"  # the play goes on
    offset = _post(stack, director, events, {"type": "result_recorded", "tricks": 7})
    board = wait_for(lambda: _board_at(stack, table, offset), 10, "the result folded")
    assert board["board"] == 2 and board["result"]["declarer_tricks"] == 7  # held: 3 waits
    offset = _post(stack, director, f"/api/tables/{table}/hold", {"held": False})
    board = wait_for(lambda: _board_at(stack, table, offset), 10, "board 3")
    assert (board["board"], board["turn"]) == (3, "S")
    assert board["players"] == {"N": "Ann", "E": "Di"}
    folded, last = run(replay(stack.bootstrap, table))
    assert last == offset and folded.board is not None
    assert folded.board.to_dict() == {k: v for k, v in board.items() if k != "previous"}
    assert board["previous"] == board_end(folded.boards[1])  # board 2 as it ended
    assert board["previous"]["result"]["declarer_tricks"] == 7
    assert [b.board for b in folded.boards] == [1, 2, 3]


def test_a_round_with_a_bad_board_is_refused_and_appends_nothing(stack: Stack) -> None:
    table = "round2"
    with stack.client(stack.director) as http:
        http.post("/api/tables", json={"table": table})
        refused = http.post(f"/api/tables/{table}/rounds", json={
            "round": 1, "boards": [{"board": 1, "deal": DEAL}, {"board": 2, "deal": "N:AKQ"}]})
        history = http.get(f"/api/tables/{table}/history")
    assert refused.status_code == 400 and refused.json()["field"] == "boards[1].deal"
    assert history.status_code == 200 and history.json()["history"] == []


def test_a_rounds_board_is_exported_alone_from_its_history(stack: Stack) -> None:
    """`/history?board=N&format=pbn|lin` of a board a round started: its record, not a 500.
    The board has no `board_started` of its own (the round's event started it), so its record
    is written from the table's whole log, the other boards left out."""
    table = "round-export"
    with stack.client(stack.director) as http:
        seats = http.post("/api/tables", json={"table": table}).json()["seats"]
    offset = _post(stack, stack.director, f"/api/tables/{table}/rounds",
                   {"round": 1, "boards": [{"board": b, "deal": DEAL} for b in (3, 5)]})
    for seat in "SWNE":  # board 3 (South deals, Law 2) passed out: board 5 starts
        offset = _post(stack, seats[seat], f"/api/tables/{table}/events",
                       {"type": "call", "call": "P"})
    assert wait_for(lambda: _board_at(stack, table, offset), 10, "board 5")["board"] == 5
    with stack.client(seats["N"]) as http:
        pbn = http.get(f"/api/tables/{table}/history", params={"board": 3, "format": "pbn"})
        lin = http.get(f"/api/tables/{table}/history", params={"board": 5, "format": "lin"})
        missing = http.get(f"/api/tables/{table}/history", params={"board": 7, "format": "pbn"})
    assert pbn.status_code == 200, pbn.text
    assert '[Board "3"]' in pbn.text and '[Board "5"]' not in pbn.text
    assert "Pass Pass Pass Pass" in pbn.text
    assert lin.status_code == 200, lin.text
    assert "|Board 5|" in lin.text and "|Board 3|" not in lin.text
    assert missing.status_code == 404, missing.text
