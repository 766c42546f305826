"""The player's evening on the real stack: one link a player (`/play#<player token>`) for a
Howell of four pairs at two tables. His page's socket moves him when a round starts, his seat's
token acts at his table of that round only (Law 16C1: a board of another round at his table is
one he may meet later), a reconnect mid-round finds his seat, a reissued link stops the old
one, the Director's list, CSV and move by hand, and at the end his scorecard."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.helpers import DEALS, run, wait_for
from tests.stack import Stack

T = "evening"
PAIRS = [{"name": f"pair {n}", "players": [f"P{n}a", f"P{n}b"]} for n in range(1, 5)]
DEALERS = {1: "N", 2: "E", 3: "S", 4: "W"}  # Law 2's cycle
ORDER = "NESW"


def create(http: httpx.Client, t: str = T) -> dict[tuple[int, int], str]:
    """A Howell of four pairs, two tables (`t`-1, `t`-2), two rounds of two boards: each
    player's link, by (entrant, place)."""
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": [f"{t}-1", f"{t}-2"], "deals": DEALS, "entrants": PAIRS,
        "movement": {"kind": "howell", "boards_per_round": 2, "rounds": 2}})
    assert made.status_code == 201, made.text
    listed = http.get(f"/api/tournaments/{t}/players")
    assert listed.status_code == 200, listed.text
    return {(p["entrant"], p["place"]): p["token"] for p in listed.json()["players"]}


def _play(stack: Stack, token: str) -> dict[str, Any]:
    with stack.client(token) as http:
        response = http.get("/api/play")
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found


async def _next(socket: ClientConnection, want: Any, seconds: float = 30) -> dict[str, Any]:
    """The socket's next frame for which `want(frame)` holds (earlier ones skipped)."""
    deadline = time.monotonic() + seconds
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(
            socket.recv(), max(0.1, deadline - time.monotonic())))
        if want(frame):
            return frame


def _seats(stack: Stack, links: dict[tuple[int, int], str]) -> dict[str, dict[str, str]]:
    """Every seated player's round seat token: table → seat → token."""
    seats: dict[str, dict[str, str]] = {}
    for token in links.values():
        view = _play(stack, token)
        if view["phase"] == "seated":
            seats.setdefault(view["seat"]["table"], {})[view["seat"]["seat"]] = \
                view["seat"]["token"]
    return seats


def _pass_out(stack: Stack, table: str, board: int, seats: dict[str, str]) -> None:
    """Board `board` passed out at `table` by its players' round seat tokens (Law 22A)."""
    start = ORDER.index(DEALERS[(board - 1) % 4 + 1])
    for k in range(4):
        seat = ORDER[(start + k) % 4]
        with stack.client(seats[seat]) as http:
            seq = 10 * board + k
            wait_for(lambda seq=seq: _passed(http, table, seq), 30,
                     f"{seat}'s pass on board {board} at {table}")


def _passed(http: httpx.Client, table: str, seq: int) -> bool:
    """A pass sent: True once taken (202), False while not his turn yet (409)."""
    response = http.post(f"/api/tables/{table}/events",
                         json={"type": "call", "call": "P", "client_seq": seq})
    assert response.status_code in (202, 409), response.text
    return response.status_code == 202


def round_played(stack: Stack, links: dict[tuple[int, int], str], boards: list[int],
                 tables: int = 2) -> None:
    """The round in progress: its `boards` passed out at its `tables` tables by the players'
    seats."""
    seats = _seats(stack, links)
    assert len(seats) == tables and all(len(s) == 4 for s in seats.values()), seats
    for table, by_seat in seats.items():
        for board in boards:
            _pass_out(stack, table, board, by_seat)


def test_a_players_link_moves_him_round_by_round(stack: Stack) -> None:
    """Pair 2's first player: E at table 2 in round 1, N at table 2 in round 2."""
    base = stack.url.replace("http", "ws")
    with stack.client(stack.director) as director:
        links = create(director)
        sheet = director.get(f"/api/tournaments/{T}/players", params={"format": "csv"})
        assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
        assert len(sheet.text.strip().splitlines()) == 1 + 8  # a header, 4 pairs of 2
        assert "P2a" in sheet.text and "/play#" in sheet.text
        me = links[2, 1]
        lobby = _play(stack, me)
        assert (lobby["phase"], lobby["partner"], len(lobby["entrants"])) == (
            "lobby", ["P2b"], 4)
        assert {k: lobby["seat"][k] for k in ("table", "seat", "boards")} == {
            "table": f"{T}-2", "seat": "E", "boards": [1, 2]}
        assert "token" not in lobby["seat"]  # no seat before its round

        async def evening() -> tuple[float, float, dict[str, Any]]:
            async with connect(f"{base}/api/play/live", open_timeout=30) as socket:
                await socket.send(json.dumps({"type": "auth", "token": me}))
                first = await _next(socket, lambda f: True)
                assert first["phase"] == "lobby"
                started = time.monotonic()
                response = await asyncio.to_thread(director.post,
                                                   f"/api/tournaments/{T}/rounds",
                                                   json={"round": 1})
                assert response.status_code == 202, response.text
                answered = time.monotonic() - started
                seated = await _next(socket, lambda f: f["phase"] == "seated")
                return answered, time.monotonic() - started, seated
        answered, took, seated = run(evening())
        print(f"round 1: the Director's start answered in {answered:.2f} s, the player's "
              f"socket moved him {took:.2f} s after it was sent")
        assert (seated["round"], seated["seat"]["table"], seated["seat"]["seat"]) == (
            1, f"{T}-2", "E")
        round_one = seated["seat"]["token"]
        with stack.client(round_one) as http:
            assert http.get(f"/api/tables/{T}-2/state").status_code == 200
            assert http.get(f"/api/tables/{T}-1/state").status_code == 403  # another table
            assert http.post(f"/api/tables/{T}-1/events",
                             json={"type": "call", "call": "P"}).status_code == 403
            assert http.get(f"/api/tables/{T}-2/history").status_code == 403  # its past
        with stack.client(me) as http:  # his link itself reads no table
            assert http.get(f"/api/tables/{T}-2/state").status_code == 403

        round_played(stack, links, [1, 2])
        between = wait_for(lambda: (v := _play(stack, me))["phase"] == "between" and v, 30,
                           "round 1 over at his table")
        assert (between["round"], between["seat"]["table"], between["seat"]["seat"]) == (
            2, f"{T}-2", "N")
        assert "score" in between

        started = director.post(f"/api/tournaments/{T}/rounds", json={"round": 2})
        assert started.status_code == 202, started.text

        async def reconnect() -> dict[str, Any]:  # a page opened again mid-round
            async with connect(f"{base}/api/play/live", open_timeout=30) as socket:
                await socket.send(json.dumps({"type": "auth", "token": me}))
                return await _next(socket, lambda f: f["phase"] == "seated" and f["round"] == 2)
        again = run(reconnect())
        assert (again["seat"]["table"], again["seat"]["seat"]) == (f"{T}-2", "N")
        with stack.client(round_one) as http:  # the same table, the next round: refused
            refused = http.get(f"/api/tables/{T}-2/state")
            assert refused.status_code == 403 and "round 1" in refused.json()["error"]

        reissued = director.post(f"/api/tournaments/{T}/players/2/1/reissue")
        assert reissued.status_code == 201 and reissued.json()["generation"] == 2
        with stack.client(me) as http:
            gone = http.get("/api/play")
            assert gone.status_code == 403 and "replaced" in gone.json()["error"]
        with stack.client(again["seat"]["token"]) as http:  # his round's seat, the old link's
            assert http.get(f"/api/tables/{T}-2/state").status_code == 403
        fresh = _play(stack, reissued.json()["token"])
        assert (fresh["phase"], fresh["seat"]["table"], fresh["seat"]["seat"]) == (
            "seated", f"{T}-2", "N")

        moved = director.post(f"/api/tournaments/{T}/players/moves", json={
            "entrant": 2, "place": 1, "to_entrant": 3, "to_place": 1})
        assert moved.status_code == 201, moved.text
        now = _play(stack, reissued.json()["token"])  # pair 3's first: E at table 1
        assert (now["entrant"]["number"], now["seat"]["table"], now["seat"]["seat"]) == (
            3, f"{T}-1", "E")
        bad = director.post(f"/api/tournaments/{T}/players/moves", json={
            "entrant": 2, "place": 3, "to_entrant": 3, "to_place": 1})
        assert bad.status_code == 400 and bad.json()["field"] == "place"
        back = director.post(f"/api/tournaments/{T}/players/moves", json={
            "entrant": 2, "place": 1, "to_entrant": 2, "to_place": 1})
        assert back.status_code == 201, back.text

        links[2, 1] = reissued.json()["token"]
        round_played(stack, links, [3, 4])
        end = wait_for(lambda: (v := _play(stack, links[2, 1]))["phase"] == "end" and v, 30,
                       "the last round over at his table")
        assert end["seat"] is None and end["score"]["entrant"] == 2
        assert sorted(line["board"] for line in end["scorecard"]) == [1, 2, 3, 4]
