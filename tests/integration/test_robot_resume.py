"""The Table Manager host resumes at any point, on the real stack (docs/robots.md): a robot
that leaves at each point of a board (before the auction, at its own call, at partner's, at
its own opening lead, after it, as dummy, as declarer at dummy's card, mid-trick) comes back,
is told what it needs to act, acts, and the board is played to its end; a call the fold does
not take (an insufficient bid, Law 27) is answered with an `Error` line saying the table waits
for the Director (Law 9B1); `End of session` when a tournament's round ends; a stock robot that
sends its own name is seated in the slot its seat's token opened."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import DEAL, DEALS, TM_PORT, new_table, run, state, wait_for
from tests.robot_services import Robots
from tests.stack import Stack
from tests.tm_robot import Left, Robot

SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
CALLS = {"N": ["passes"], "E": ["passes"], "S": ["bids 1S"]}  # 1S by South, West leads


@pytest.fixture(scope="module")
def host(stack: Stack) -> Iterator[int]:
    started = Robots(stack, TM_PORT + 5, pool=False)  # +0…+4: the other robot tests'
    try:
        yield TM_PORT + 5
    finally:
        started.stop()


def table_of(tokens: dict[str, Any], port: int, calls: dict[str, list[str]],
             names: dict[str, str] | None = None) -> list[Robot]:
    names = names or {}
    return [Robot(word, names.get(seat, f"robot-{seat} {tokens['seats'][seat]}"), port,
                  list(calls.get(seat, []))) for seat, word in SEATS.items()]


def finished(stack: Stack, table: str) -> dict[str, Any]:
    return wait_for(lambda: (s := state(stack, table, stack.director)["board"])
                    and (s.get("result") or s["status"] == "passed_out") and s, 30,
                    "the board's end")


# (where, seat, how it leaves): North deals and is dummy, South declares, West leads (the
# robots of tests/tm_robot.py: their calls in CALLS, each plays its lowest card that follows;
# South wins trick 1, East trick 2, West trick 3, dummy trick 12). A robot's actions count
# its calls and cards, dummy's too as declarer; leaving after a lead: test_robots.py
POINTS = [
    ("before the auction", "N", {"leave_at_start": True}),
    ("at its own call", "N", {"leave_before_action": 1}),
    ("at partner's call", "N", {"leave_waiting_for": "South's bid"}),
    ("at its own opening lead", "W", {"leave_before_action": 2}),
    ("after its opening lead", "W", {"leave_after_cards": 1}),
    ("as dummy", "N", {"leave_waiting_for": "card to trick 3"}),
    ("as declarer, at dummy's card", "S", {"leave_before_action": 2}),
    ("mid-trick, at its own card", "E", {"leave_before_action": 3}),
    ("mid-trick, waiting for a card", "E", {"leave_waiting_for": "South's card to trick 5"}),
    ("mid-trick, after its own card", "E", {"leave_after_cards": 1}),
    # South's D6 ends trick 1, which South wins: it leaves before it is told to lead trick 2
    ("at a trick's end, after its card that won it", "S", {"leave_after_cards": 2}),
    # dummy's C3 ends trick 3, which West wins: it leaves waiting for that card
    ("at a trick's end, waiting for its last card", "W",
     {"leave_waiting_for": "dummy's card to trick 3"}),
    # dummy wins trick 12: declarer, told "North to lead", leaves before leading for dummy
    ("as declarer, at dummy's lead", "S", {"leave_before_action": 26}),
]


@pytest.mark.parametrize(("where", "seat", "how"), POINTS, ids=[p[0] for p in POINTS])
def test_a_robot_that_leaves_at_any_point_comes_back_acts_and_the_board_ends(
        stack: Stack, host: int, where: str, seat: str, how: dict[str, Any]) -> None:
    name = f"resume-{seat}-{POINTS.index((where, seat, how))}"
    tokens = new_table(stack, name)
    table = table_of(tokens, host, CALLS)
    leaver = table[list(SEATS).index(seat)]
    for key, value in how.items():
        setattr(leaver, key, value)
    again = Robot(SEATS[seat], f"robot-{seat} {tokens['seats'][seat]}", host,
                  list(CALLS.get(seat, [])))
    others = [r for r in table if r is not leaver]

    async def scenario() -> None:
        await asyncio.gather(*(r.connect() for r in table))
        playing = [asyncio.create_task(r.play_board()) for r in others]
        with pytest.raises(Left):
            await leaver.play_board()
        assert await again.connect() == f'{SEATS[seat]} ("robot-{seat}") seated'
        try:
            await asyncio.wait_for(asyncio.gather(again.play_board(), *playing), 120)
        finally:
            await asyncio.gather(*(r.close() for r in (*others, again)))

    run(scenario())
    board = finished(stack, name)
    assert [c["call"] for c in board["calls"]] == ["P", "P", "1S", "P", "P", "P"]
    assert sum(len(t["cards"]) for t in board["play"]["tricks"]) == 52  # none twice
    assert not board["alerts"] and not board["ignored"]
    assert again.heard[-1].startswith("Timing")


def test_an_insufficient_bid_is_answered_with_an_error_and_the_directors_wait(
        stack: Stack, host: int) -> None:
    """Law 27: East's 1H over North's 1S is not a call of the auction; the table waits for the
    Director (Law 9B1), and East's robot is told so, not left waiting in silence."""
    tokens = new_table(stack, "resume-insufficient")
    with stack.client(tokens["seats"]["N"]) as http:
        response = http.post("/api/tables/resume-insufficient/events",
                             json={"type": "call", "call": "1S"})
        assert response.status_code == 202, response.text
    east = Robot("East", f"robot-E {tokens['seats']['E']}", host)

    async def scenario() -> list[str]:
        assert await east.connect() == 'East ("robot-E") seated'
        try:
            for line in ("ready for teams", "ready to start", "ready for deal",
                         "ready for North's bid"):
                await east.send(f"East {line}")
                await east.receive()
            await east.send("East bids 1H")
            return [await east.receive()]
        finally:
            await east.close()

    told = run(scenario())
    assert east.heard[-2] == "North bids 1S"
    assert told[0].startswith("Error your call 1H is not taken: E made an insufficient bid, "
                              "1H."), told
    assert told[0].endswith("The table waits for the Director (Law 9B1)")
    board = state(stack, "resume-insufficient", stack.director)["board"]
    assert board["pending"]["kind"] == "insufficient_bid" and len(board["calls"]) == 1


def test_a_stock_robot_that_sends_its_own_name_sits_in_the_slot_its_seats_token_opened(
        stack: Stack, host: int) -> None:
    tokens = new_table(stack, "resume-stock")
    table = table_of(tokens, host, CALLS, names={"E": "WBridge5"})

    async def scenario() -> list[str]:
        refused = await table[1].connect()  # no slot yet: no token, no seat
        await table[1].close()
        reader, writer = await asyncio.open_connection("127.0.0.1", host)
        writer.write(f'Robot slot "WBridge5" {tokens["seats"]["E"]}\r\n'.encode())
        opened = (await reader.readline()).decode().strip()
        writer.close()
        answers = await asyncio.gather(*(r.connect() for r in table))
        try:
            await asyncio.wait_for(asyncio.gather(*(r.play_board() for r in table)), 120)
        finally:
            await asyncio.gather(*(r.close() for r in table))
        return [refused, opened, *answers]

    refused, opened, *answers = run(scenario())
    assert refused.startswith("Error refused: no robot token in the name")
    assert opened == 'Slot open: "WBridge5" sits at East of resume-stock if it connects ' \
        "within 120 s"
    assert answers[1] == 'East ("WBridge5") seated'
    board = finished(stack, "resume-stock")
    assert sum(len(t["cards"]) for t in board["play"]["tricks"]) == 52


def test_end_of_session_is_told_when_the_tables_round_ends(stack: Stack, host: int) -> None:
    """A tournament's round of one board a table: the robots at the first table pass it out,
    are told `Timing`, then `End of session`: the round is over."""
    t = "resume-eos"
    pairs = [{"name": f"pair {n}", "players": [f"A{n}", f"B{n}"]} for n in range(1, 5)]
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": [f"{t}-1", f"{t}-2"], "deals": DEALS,
            "entrants": pairs,
            "movement": {"kind": "mitchell", "boards_per_round": 1, "rounds": 1}})
        assert made.status_code == 201, made.text
        links = http.get(f"/api/tables/{t}-1/links")
        assert links.status_code == 200, links.text
    table = table_of(links.json(), host, {})  # four passes

    async def scenario() -> list[str]:
        await asyncio.gather(*(r.connect() for r in table))
        playing = [asyncio.create_task(r.play_board()) for r in table]
        with stack.client(stack.director) as http:
            assert http.post(f"/api/tournaments/{t}/rounds",
                             json={"round": 1}).status_code == 202
        try:
            await asyncio.wait_for(asyncio.gather(*playing), 120)
            return list(await asyncio.gather(*(r.receive() for r in table)))
        finally:
            await asyncio.gather(*(r.close() for r in table))

    last = run(scenario())
    assert last == ["End of session"] * 4
    assert all(r.heard[-2].startswith("Timing") for r in table)


def test_end_of_session_is_told_when_a_round_started_at_a_table_ends(stack: Stack,
                                                                    host: int) -> None:
    """A round the director started at a table of no tournament (`POST /api/tables/{t}/rounds`),
    of one board: its robots pass it out, are told `Timing`, then `End of session`."""
    t = "resume-eos-table"
    with stack.client(stack.director) as http:
        made = http.post("/api/tables", json={"table": t, "ruleset": "duplicate"})
        assert made.status_code == 201, made.text
    table = table_of(made.json(), host, {})  # four passes

    async def scenario() -> list[str]:
        await asyncio.gather(*(r.connect() for r in table))
        playing = [asyncio.create_task(r.play_board()) for r in table]
        with stack.client(stack.director) as http:
            started = http.post(f"/api/tables/{t}/rounds",
                                json={"round": 1, "boards": [{"board": 1, "deal": DEAL}]})
            assert started.status_code == 202, started.text
        try:
            await asyncio.wait_for(asyncio.gather(*playing), 120)
            return list(await asyncio.gather(*(r.receive() for r in table)))
        finally:
            await asyncio.gather(*(r.close() for r in table))

    last = run(scenario())
    assert last == ["End of session"] * 4
    assert all(r.heard[-2].startswith("Timing") for r in table)


def test_a_stock_robot_that_leaves_mid_board_comes_back_by_its_name_and_the_board_ends(
        stack: Stack, host: int) -> None:
    """Its slot, taken, is open again once it left: WBridge5 (East) drops its connection at
    its card to trick 3, connects again as `ANYPL` with its own name, and plays on."""
    tokens = new_table(stack, "resume-stock-back")
    table = table_of(tokens, host, CALLS, names={"E": "WBridge5"})
    east = table[1]
    east.leave_before_action = 3
    again = Robot("East", "WBridge5", host, list(CALLS["E"]))
    others = [r for r in table if r is not east]

    async def scenario() -> str:
        reader, writer = await asyncio.open_connection("127.0.0.1", host)
        writer.write(f'Robot slot "WBridge5" {tokens["seats"]["E"]}\r\n'.encode())
        await reader.readline()
        writer.close()
        await asyncio.gather(*(r.connect() for r in table))
        playing = [asyncio.create_task(r.play_board()) for r in others]
        with pytest.raises(Left):
            await east.play_board()
        again.reader, again.writer = await asyncio.open_connection("127.0.0.1", host)
        await again.send("Connecting \"WBridge5\" as ANYPL using protocol version 18")
        seated = await again.receive()
        try:
            await asyncio.wait_for(asyncio.gather(again.play_board(), *playing), 120)
        finally:
            await asyncio.gather(*(r.close() for r in (*others, again)))
        return seated

    assert run(scenario()) == 'East ("WBridge5") seated'
    board = finished(stack, "resume-stock-back")
    assert sum(len(t["cards"]) for t in board["play"]["tricks"]) == 52  # none twice
    assert not board["alerts"] and not board["ignored"]
    assert again.heard[-1].startswith("Timing")
