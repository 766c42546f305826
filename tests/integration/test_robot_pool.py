"""The director's robots on the real stack (robots.md): seated by the API, they sit through the
Table Manager host (the robot pool, `python -m services.robots.pool`, as `make up` runs it)
and play; bad requests are refused naming the field; the director sees each robot connected,
or its seat waiting when the pool is killed, and the robots back when it starts again (it reads
the requests again); a tournament's empty seats filled, and played to its results."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import DEAL, DEALS, TM_PORT, new_table, run, state, wait_for, wait_for_async
from tests.robot_services import Robots
from tests.stack import ROOT, Stack
from tests.tm_robot import Robot


@pytest.fixture(scope="module")
def robots(stack: Stack) -> Iterator[Robots]:
    started = Robots(stack, TM_PORT + 1)  # test_robots.py's host is on TM_PORT
    try:
        yield started
    finally:
        started.stop()


def seats_of(stack: Stack, table: str) -> dict[str, Any]:
    with stack.client(stack.director) as http:
        response = http.get(f"/api/tables/{table}/robots")
        assert response.status_code == 200, response.text
        seats: dict[str, Any] = response.json()["seats"]
        return seats


def all_are(stack: Stack, table: str, seats: str, status: str) -> dict[str, Any] | None:
    found = seats_of(stack, table)
    return found if sorted(found) == sorted(seats) and all(
        found[s]["status"] == status for s in seats) else None


def ended(stack: Stack, table: str, board: int) -> dict[str, Any] | None:
    s = state(stack, table, stack.director)["board"]
    return s if s and s["board"] == board and (
        s.get("result") or s["status"] == "passed_out") else None


def test_the_director_seats_robots_and_they_play_the_board(stack: Stack, robots: Robots
                                                           ) -> None:
    new_table(stack, "pool1")
    with stack.client(stack.director) as http:
        asked = http.post("/api/tables/pool1/robots", json={"seats": ["N", "E", "S", "W"]})
        assert asked.status_code == 200, asked.text
        assert set(asked.json()["seats"]) == {"N", "E", "S", "W"}
        assert all(r["requested"] for r in asked.json()["seats"].values())
    board = wait_for(lambda: ended(stack, "pool1", 1), 240, "the robots' board's end")
    assert not board["alerts"] and not board["ignored"]  # nothing the Laws refused
    assert board["players"] == {"N": "Robot", "E": "Robot", "S": "Robot", "W": "Robot"}
    seats = wait_for(lambda: all_are(stack, "pool1", "NESW", "connected"), 30, "connected")
    assert {r["label"] for r in seats.values()} == {"robot-pool"}
    with stack.client(stack.director) as http:  # taken away: no robot's seat left
        gone = http.delete("/api/tables/pool1/robots")
        assert gone.status_code == 200, gone.text
    wait_for(lambda: seats_of(stack, "pool1") == {}, 30, "the robots taken away")
    with stack.client(stack.director) as http:  # the next board: nobody named at its seats
        assert http.post("/api/tables/pool1/boards",
                         json={"board": 2, "deal": DEAL}).status_code == 202
    after = wait_for(lambda: (b := state(stack, "pool1", stack.director)["board"])
                     and b["board"] == 2 and b, 10, "board 2 started")
    assert not after.get("players")  # the robots' names taken off for the boards to come
    assert after["previous"]["players"] == board["players"]  # the board they played keeps them


def test_bad_robot_requests_are_refused_naming_the_field(stack: Stack, robots: Robots) -> None:
    new_table(stack, "pool2")
    with stack.client(stack.director) as http:
        for seats in (["X"], ["N", "north"], "N", [1]):
            bad = http.post("/api/tables/pool2/robots", json={"seats": seats})
            assert bad.status_code == 400 and bad.json()["field"] == "seats", bad.text
        assert http.post("/api/tables/pool2/players",
                         json={"players": {"W": "Ann"}}).status_code == 202
        wait_for(lambda: (s := state(stack, "pool2", stack.director)["board"])
                 and s.get("players"), 10, "Ann named")
        taken = http.post("/api/tables/pool2/robots", json={"seats": ["E", "W"]})
        assert taken.status_code == 409 and taken.json()["field"] == "seats", taken.text
        assert "W (Ann)" in taken.json()["error"]
        assert http.post("/api/tables/no-such/robots", json={"seats": ["N"]}
                         ).status_code == 404
    with stack.client(new_table(stack, "pool3")["seats"]["N"]) as seat:
        assert seat.post("/api/tables/pool3/robots", json={"seats": ["N"]}).status_code == 403
    assert seats_of(stack, "pool2") == {}  # nothing asked for


def test_a_killed_pool_leaves_its_seats_waiting_and_its_robots_sit_again(
        stack: Stack, robots: Robots) -> None:
    new_table(stack, "pool4")
    with stack.client(stack.director) as http:
        boards = [{"board": n, "deal": DEAL} for n in (2, 3)]
        assert http.post("/api/tables/pool4/rounds",
                         json={"round": 1, "boards": boards}).status_code == 202
        assert http.post("/api/tables/pool4/robots",
                         json={"seats": ["N", "E", "S", "W"]}).status_code == 200
    wait_for(lambda: all_are(stack, "pool4", "NESW", "connected"), 60, "the robots seated")
    wait_for(lambda: (s := state(stack, "pool4", stack.director)["board"]) and s["board"] == 2,
             240, "board 2 under way")  # (no board before the first state is folded)
    robots.kill_pool()  # every robot's connection dropped at once
    waiting = wait_for(lambda: all_are(stack, "pool4", "NESW", "waiting"), 10,
                       "the seats waiting")
    assert all(r["requested"] for r in waiting.values())
    robots.start_pool()  # as supervisord does: it reads the requests again
    wait_for(lambda: all_are(stack, "pool4", "NESW", "connected"), 60, "the robots back")
    board = wait_for(lambda: ended(stack, "pool4", 3), 300, "the round's last board's end")
    assert not board["alerts"] and not board["ignored"]
    with stack.client(stack.director) as http:
        for number in (1, 2):  # each board played to its end, nothing refused
            done = http.get("/api/tables/pool4/history", params={"board": number}).json()
            assert done["state"]["result"] is not None and not done["state"]["alerts"]
        assert http.delete("/api/tables/pool4/robots").status_code == 200


def cards_played(board: dict[str, Any] | None) -> int:
    play = board.get("play") if board else None
    return sum(len(t["cards"]) for t in play["tricks"]) if play else 0


def test_a_pool_killed_mid_play_at_two_tables_sits_again_and_both_boards_end(
        stack: Stack, robots: Robots) -> None:
    """Presence: killing the pool after the opening lead stopped both tables for good,
    with every robot shown `connected`: the opening leader, told the board from its start
    again, waited for `<Seat> to lead`, which the host no longer sent once it had led. Now
    each robot that led is told so again at its place, plays the same card again (appended
    once), and both boards are played to their ends."""
    tables = ("pool7", "pool8")
    for table in tables:
        new_table(stack, table)
        with stack.client(stack.director) as http:
            assert http.post(f"/api/tables/{table}/robots",
                             json={"seats": ["N", "E", "S", "W"]}).status_code == 200

    def in_play(table: str) -> bool:
        board = state(stack, table, stack.director)["board"]
        return cards_played(board) >= 1 and board["result"] is None

    wait_for(lambda: all(in_play(t) for t in tables), 240, "both tables past the lead")
    robots.kill_pool()
    for table in tables:  # killed mid-play (the robots all gone: nothing moves meanwhile)
        board = state(stack, table, stack.director)["board"]
        assert 1 <= cards_played(board) < 52 and board["result"] is None, table
    robots.start_pool()
    for table in tables:
        board = wait_for(lambda t=table: ended(stack, t, 1), 300, f"{table}'s board's end")
        assert cards_played(board) == 52 and not board["alerts"] and not board["ignored"]
        with stack.client(stack.director) as http:
            assert http.delete(f"/api/tables/{table}/robots").status_code == 200


def test_any_robot_the_host_seats_is_shown_connected_then_waiting(stack: Stack,
                                                                 robots: Robots) -> None:
    """A robot the director did not ask the pool for (a third party's, with its seat's
    token): the host tells the director it sits there, and that its seat waits once it
    left (it may come back)."""
    tokens = new_table(stack, "pool6")

    async def scenario() -> None:
        loop = asyncio.get_running_loop()

        def shown(status: str) -> Any:
            return loop.run_in_executor(None, all_are, stack, "pool6", "S", status)
        robot = Robot("South", f"BEN {tokens['seats']['S']}", robots.port)
        assert await robot.connect() == 'South ("BEN") seated'
        try:
            seats = await wait_for_async(lambda: shown("connected"), 20, "BEN connected")
            assert seats["S"]["label"] == "BEN" and not seats["S"]["requested"]
        finally:
            await robot.close()
        seats = await wait_for_async(lambda: shown("waiting"), 20, "South waiting for BEN")
        assert seats["S"]["label"] == "BEN"
        again = Robot("South", f"BEN {tokens['seats']['S']}", robots.port)
        assert await again.connect() == 'South ("BEN") seated'
        try:
            await wait_for_async(lambda: shown("connected"), 20, "BEN back")
        finally:
            await again.close()

    run(scenario())


def cli(stack: Stack, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "services.cli.main", *args], cwd=ROOT,
                          env=stack.env, capture_output=True, text=True, timeout=60,
                          check=False)


def test_the_command_line_asks_the_pool_and_takes_the_robots_away(stack: Stack,
                                                                  robots: Robots) -> None:
    new_table(stack, "pool5")
    asked = cli(stack, "robots", "pool5", "--seats", "W,E", "--via-service")
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.startswith("robots at pool5: E ") and ", W " in asked.stdout
    wait_for(lambda: all_are(stack, "pool5", "EW", "connected"), 60, "the robots seated")
    gone = cli(stack, "robots", "pool5", "--remove")
    assert gone.returncode == 0, gone.stderr
    wait_for(lambda: seats_of(stack, "pool5") == {}, 30, "the robots taken away")
    bad = cli(stack, "robots", "no-such-table", "--seats", "N", "--via-service")
    assert bad.returncode != 0 and "no table no-such-table" in bad.stderr


ROBOT_PAIRS = [{"name": f"robots {n}", "players": ["Robot", "Robot"]} for n in range(1, 5)]


def test_a_tournament_filled_with_robots_is_played_to_its_results(stack: Stack,
                                                                  robots: Robots) -> None:
    """Two tables, a Mitchell of one round of two boards a table: the director fills every
    seat with robots from the command line, starts the round, and every board gets its
    result, with nothing the Laws would raise for a legal robot."""
    t = "robot-mitch"
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": [f"{t}-1", f"{t}-2"], "deals": DEALS,
            "entrants": ROBOT_PAIRS,
            "movement": {"kind": "mitchell", "boards_per_round": 2, "rounds": 1}})
        assert made.status_code == 201, made.text
    filled = cli(stack, "tournament", "robots", t)
    assert filled.returncode == 0, filled.stderr
    assert filled.stdout.splitlines() == [f"{t}-1: robots at N,E,S,W",
                                          f"{t}-2: robots at N,E,S,W"]
    with stack.client(stack.director) as http:
        assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
            return doc if len(doc["complete"]) == 4 else None
        doc = wait_for(complete, 600, "every board's result")
        assert doc["complete"] == [1, 2, 3, 4] and doc["rankings"]
        for table in (f"{t}-1", f"{t}-2"):
            history = http.get(f"/api/tables/{table}/history").json()
            assert len(history["boards"]) == 2
            for number in history["boards"]:
                board = http.get(f"/api/tables/{table}/history",
                                 params={"board": number}).json()["state"]
                assert board["result"] is not None or board["status"] == "passed_out"
                assert not board["alerts"] and not board["ignored"], board["alerts"]
            assert http.delete(f"/api/tables/{table}/robots").status_code == 200
