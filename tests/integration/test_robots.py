"""Robots at a table through the Table Manager host (docs/robots.md): four clients of the protocol
(tests/tm_robot.py, written from its text, importing nothing of the host) bid and play a whole
board on the real stack, and the board gets its result; a robot without a valid token is
refused and told why."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers import DEAL, TM_PORT, new_table, run, state, wait_for, wait_for_async
from tests.stack import ROOT, Stack, wait_port
from tests.tm_robot import Left, Robot

SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}


@pytest.fixture(scope="module")
def host(stack: Stack) -> Iterator[int]:
    """`python -m services.robots` on TM_PORT, for the session's gateway."""
    log = (stack.data / "robots.log").open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "services.robots"], cwd=ROOT,
                            env={**stack.env, "TABLESERVER_TM_PORT": str(TM_PORT)},
                            stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(TM_PORT, 30)
        yield TM_PORT
    finally:
        proc.terminate()
        proc.wait(10)


def robots(tokens: dict[str, Any], port: int, calls: dict[str, list[str]]) -> list[Robot]:
    return [Robot(word, f"robot-{seat} {tokens['seats'][seat]}", port, calls.get(seat, []))
            for seat, word in SEATS.items()]


def test_four_robots_bid_and_play_a_whole_board(stack: Stack, host: int) -> None:
    tokens = new_table(stack, "robots1")  # board 1, dealer North, the helpers' DEAL
    # North and East pass, South opens 1S, then three passes: 1S by South, West leads
    table = robots(tokens, host, {"N": ["passes"], "E": ["passes"], "S": ["bids 1S"]})

    async def scenario() -> list[str]:
        answers = await asyncio.gather(*(r.connect() for r in table))
        try:
            await asyncio.wait_for(asyncio.gather(*(r.play_board() for r in table)), 120)
        finally:
            await asyncio.gather(*(r.close() for r in table))
        return answers

    answers = run(scenario())
    assert answers == [f'{word} ("robot-{seat}") seated' for seat, word in SEATS.items()]
    board = wait_for(lambda: (s := state(stack, "robots1", stack.director)["board"])
                     and s.get("result") and s, 20, "the board's result")
    assert board["contract"] == {"level": 1, "strain": "S", "risk": "", "declarer": "S"}
    assert [c["call"] for c in board["calls"]] == ["P", "P", "1S", "P", "P", "P"]
    assert sum(len(t["cards"]) for t in board["play"]["tricks"]) == 52
    assert board["result"]["declarer_tricks"] == board["play"]["won"]["NS"]
    north, east, south, west = table
    # each was told the board's number, dealer and vulnerability, and its own 13 cards
    assert "Board number 1. Dealer North. Neither vulnerable." in west.heard
    hands = DEAL[2:].split()
    assert f"West's cards : {_protocol_hand(hands[3])}" in west.heard
    # dummy's hand (North's) is told to the others after the opening lead (Law 41D), never
    # to anyone before: the lead is the first card West plays, and the line comes after it
    for robot in (east, south, west):
        dummy_line = next(i for i, line in enumerate(robot.heard)
                          if line.startswith("Dummy's cards"))
        assert dummy_line > next(i for i, line in enumerate(robot.heard) if " plays " in line
                                 or line == "West to lead")
        assert robot.heard[dummy_line] == f"Dummy's cards : {_protocol_hand(hands[0])}"
    assert not any(line.startswith("Dummy's cards") for line in north.heard)
    # no seat is told another's hand
    assert not any("'s cards" in line and not line.startswith(("Dummy's", f"{r.seat}'s"))
                   for r in table for line in r.heard)


def test_a_robot_that_leaves_mid_auction_comes_back_and_the_board_goes_on(stack: Stack,
                                                                          host: int) -> None:
    tokens = new_table(stack, "robots3")
    calls = {"N": ["passes"], "E": ["passes"], "S": ["bids 1S"]}
    north, east, south, west = robots(tokens, host, calls)
    east.leave_after = 1  # East passes, then drops its connection
    again = Robot("East", f"robot-E {tokens['seats']['E']}", host, calls["E"])

    async def scenario() -> None:
        await asyncio.gather(*(r.connect() for r in (north, east, south, west)))
        others = [asyncio.create_task(r.play_board()) for r in (north, south, west)]
        with pytest.raises(Left):
            await east.play_board()
        # the seat waits: South's call comes, but West waits on East's next turn meanwhile
        assert await again.connect() == 'East ("robot-E") seated'
        try:
            await asyncio.wait_for(asyncio.gather(again.play_board(), *others), 120)
        finally:
            await asyncio.gather(*(r.close() for r in (north, again, south, west)))

    run(scenario())
    board = wait_for(lambda: (s := state(stack, "robots3", stack.director)["board"])
                     and s.get("result") and s, 20, "the board's result")
    # East's pass, sent again by the robot that came back, was not appended twice
    assert [c["call"] for c in board["calls"]] == ["P", "P", "1S", "P", "P", "P"]
    assert sum(len(t["cards"]) for t in board["play"]["tricks"]) == 52
    assert "East passes" not in again.heard  # its own call: known, not told back


# the four protocol-text robots' board (1S by South, each plays its lowest card that follows):
# West leads trick 1 (its 1st card), South trick 2 (his 3rd, dummy's included), East trick 3
# (its 3rd), and dummy North trick 13 (declarer's 25th): each leaves right after that lead
LEADS_MADE = [("W", 1, "West to lead"), ("S", 3, "South to lead"), ("E", 3, "East to lead"),
              ("S", 25, "North to lead")]


@pytest.mark.parametrize(("seat", "cards", "told"), LEADS_MADE)
def test_a_robot_that_leaves_after_leading_comes_back_and_the_board_ends(
        stack: Stack, host: int, seat: str, cards: int, told: str) -> None:
    """Leads told again: the host told `<Seat> to lead` only once it had told the robot every
    card played, so a robot that led, left and came back (told the board from its start)
    waited for that line for ever, and the table with it. Now it is told its lead again at
    its place, sends it again (appended once), and the board is played to its end: at the
    opening lead, mid-play, and at dummy's lead (declarer's, Law 45)."""
    table_name = f"robots-back-{seat}{cards}"
    tokens = new_table(stack, table_name)
    calls = {"N": ["passes"], "E": ["passes"], "S": ["bids 1S"]}
    table = robots(tokens, host, calls)
    leaver = table[list(SEATS).index(seat)]
    leaver.leave_after_cards = cards
    again = Robot(SEATS[seat], f"robot-{seat} {tokens['seats'][seat]}", host,
                  calls.get(seat, []))
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
    board = wait_for(lambda: (s := state(stack, table_name, stack.director)["board"])
                     and s.get("result") and s, 20, "the board's result")
    assert sum(len(t["cards"]) for t in board["play"]["tricks"]) == 52  # none twice
    assert not board["alerts"] and not board["ignored"]
    assert told in leaver.heard and told in again.heard  # told before it left, and again
    assert again.heard[-1].startswith("Timing")


def test_a_robot_that_comes_back_while_a_claim_is_open_is_told_the_boards_end(
        stack: Stack, host: int) -> None:
    """Leads told again, at a claim: West leads and leaves; at West's next turn declarer claims
    the rest (Law 68); West comes back and catches up (its card, play having ceased, is
    refused: Law 68D); the defenders agree (Law 69A), and every robot, West too, is told the
    board's end."""
    tokens = new_table(stack, "robots-claim")
    table = robots(tokens, host, {"N": ["passes"], "E": ["passes"], "S": ["bids 1S"]})
    north, east, south, west = table
    west.leave_after_cards = 1
    again = Robot("West", f"robot-W {tokens['seats']['W']}", host)

    def post(seat: str, event: dict[str, Any]) -> None:
        with stack.client(tokens["seats"][seat]) as http:
            response = http.post("/api/tables/robots-claim/events", json=event)
            assert response.status_code == 202, response.text

    def wests_turn() -> bool:
        play = state(stack, "robots-claim", stack.director)["board"]["play"]
        return bool(play and play["turn"] == "W" and len(play["tricks"]) == 2)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(r.connect() for r in table))
        playing = [asyncio.create_task(r.play_board()) for r in (north, east, south)]
        with pytest.raises(Left):
            await west.play_board()
        await wait_for_async(lambda: loop.run_in_executor(None, wests_turn), 60,
                             "West's turn at trick 2")
        await loop.run_in_executor(None, post, "S", {"type": "claim", "tricks": 12})
        assert await again.connect() == 'West ("robot-W") seated'
        back = asyncio.create_task(again.play_board())
        await wait_for_async(lambda: any(line.startswith("Error") for line in again.heard),
                             60, "West caught up, its card refused")
        for seat in ("W", "E"):
            await loop.run_in_executor(None, post, seat,
                                       {"type": "claim_response", "accept": True})
        try:
            await asyncio.wait_for(asyncio.gather(back, *playing), 60)
        finally:
            await asyncio.gather(*(r.close() for r in (north, east, south, again)))

    run(scenario())
    board = wait_for(lambda: (s := state(stack, "robots-claim", stack.director)["board"])
                     and s.get("result") and s, 20, "the board's result")
    assert board["play"]["ended"] == "claim"
    assert sum(len(t["cards"]) for t in board["play"]["tricks"]) == 5
    for robot in (north, east, south, again):
        assert robot.heard[-1].startswith("Timing"), robot.heard[-3:]


def _protocol_hand(pbn: str) -> str:
    return " ".join(f"{suit} {' '.join(ranks) or '-'}." for suit, ranks
                    in zip("SHDC", pbn.split("."), strict=True))


@pytest.mark.parametrize(("name", "seat", "reason"), [
    ("robot", "North", "no robot token in the name"),
    ("robot v1.bm90LWpzb24.c2ln", "North", "malformed token"),
])
def test_a_robot_without_a_token_is_refused(stack: Stack, host: int, name: str, seat: str,
                                            reason: str) -> None:
    async def answer() -> tuple[str, bytes]:
        robot = Robot(seat, name, host)
        try:
            first = await robot.connect()
            assert robot.reader is not None
            return first, await asyncio.wait_for(robot.reader.read(), 10)  # then closed
        finally:
            await robot.close()

    first, rest = run(answer())
    assert first.startswith("Error refused") and reason in first, first
    assert rest == b""


def test_a_robot_with_a_forged_or_misplaced_token_is_refused(stack: Stack, host: int) -> None:
    tokens = new_table(stack, "robots2")
    south = tokens["seats"]["S"]
    forged = south[:-4] + ("AAAA" if not south.endswith("AAAA") else "BBBB")

    async def answers() -> list[str]:
        out = []
        for seat, name in (("North", f"robot {south}"), ("South", f"robot {forged}"),
                           ("South", f"robot {tokens['spectator']}")):
            robot = Robot(seat, name, host)
            try:
                out.append(await robot.connect())
            finally:
                await robot.close()
        return out

    misplaced, bad_signature, spectator = run(answers())
    assert misplaced == "Error refused: the token is for South's seat, not North's"
    assert bad_signature.startswith("Error refused") and "401" in bad_signature
    assert spectator == "Error refused: not a seat token: a robot sits with its seat's token"


def test_four_of_our_robots_play_a_board_through_the_host(stack: Stack, host: int) -> None:
    """Our robot (services/robots/player.py) connects as a third-party robot does."""
    from services.robots.player import OurRobot
    from shared.seats import Seat

    tokens = new_table(stack, "robots4")
    table = [OurRobot(Seat.parse(seat), tokens["seats"][seat], host, seed=i, samples=8)
             for i, seat in enumerate(SEATS)]

    async def scenario() -> None:
        await asyncio.wait_for(asyncio.gather(*(r.play() for r in table)), 240)

    run(scenario())
    board = wait_for(lambda: (s := state(stack, "robots4", stack.director)["board"])
                     and (s.get("result") or s["status"] == "passed_out") and s, 20,
                     "the board's end")
    assert not board["alerts"] and not board["ignored"]  # nothing the Laws refused
    played = sum(len(t["cards"]) for t in board["play"]["tricks"]) if board["play"] else 0
    assert played in (0, 52)
    assert board["result"] is not None
    decisions = [t for r in table for t in r.decisions.cards]
    assert len(decisions) == played  # each card decided once: dummy's by declarer


def test_the_director_seats_robots_from_the_command_line_for_a_round(stack: Stack,
                                                                      host: int) -> None:
    new_table(stack, "robots5")
    boards = [{"board": n, "deal": deal} for n, deal in ((2, DEAL), (3, ROTATED))]
    with stack.client(stack.director) as http:
        assert http.post("/api/tables/robots5/rounds",
                         json={"round": 1, "boards": boards}).status_code == 202
    # board 1 (new_table's) is in progress: the round's boards follow it
    done = subprocess.run([sys.executable, "-m", "services.cli.main", "robots", "robots5",
                           "--seats", "N,E,S,W", "--boards", "3", "--samples", "6"],
                          cwd=ROOT, env={**stack.env, "TABLESERVER_TM_PORT": str(host)},
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "3 boards played" in done.stdout
    with stack.client(stack.director) as http:
        whole = http.get("/api/tables/robots5/history").json()
        assert whole["boards"] == [1, 2, 3]
        for number in (1, 2):  # each board played to its end, none cut short by the next
            ended = http.get("/api/tables/robots5/history", params={"board": number}).json()
            assert ended["state"]["result"] is not None and not ended["state"]["alerts"]
    final = state(stack, "robots5", stack.director)["board"]
    assert final["board"] == 3 and final["result"] is not None


ROTATED = "E:" + DEAL[2:]  # the same hands, dealt one seat on


def test_make_runs_robot_table_seats_a_newcomer_south_with_three_robots(stack: Stack,
                                                                          host: int) -> None:
    """The demo's `demo-robots` (services/cli/demo.py): its first link is South's page; our
    robots sit at the other three seats; here a protocol-text robot plays South's board."""
    import httpx

    from services.cli.demo import load_boards, open_with_robots, seat_robots

    async def scenario() -> tuple[str, list[str], Robot]:
        async with httpx.AsyncClient(base_url=stack.url, timeout=10) as http:
            south_link, robot_tokens = await open_with_robots(http, stack.director,
                                                              load_boards())
        status: list[str] = []
        robots = asyncio.create_task(seat_robots(robot_tokens, 1, host, status))
        token = south_link.split("#", 1)[1]
        newcomer = Robot("South", f"newcomer {token}", host)  # the newcomer: passes throughout
        assert (await newcomer.connect()).endswith("seated")
        try:
            await asyncio.wait_for(asyncio.gather(newcomer.play_board(), robots), 180)
        finally:
            await newcomer.close()
        return south_link, status, newcomer

    south_link, status, newcomer = run(scenario())
    assert "/seat#v1." in south_link
    assert status == ["the robots' round is over"]
    first = load_boards()[0][0]["board"]
    with stack.client(stack.director) as http:
        played = http.get("/api/tables/demo-robots/history", params={"board": first}).json()
    assert played["state"]["result"] is not None and not played["state"]["alerts"]
    assert any(line.startswith("Timing") for line in newcomer.heard)


def test_our_robots_announce_their_1nt_and_their_transfer(stack: Stack, host: int) -> None:
    """Laws 20F, 40B: our robots disclose their agreements like any pair; the ACBL alert
    procedure has the 1NT opening's range and a Jacoby transfer announced (SAYC booklet, 1NT
    Responses): each goes with its call, through the host, as the seat page's alert and
    explanation; Stayman and the transfer's acceptance go alone."""
    from services.robots.player import OurRobot
    from shared.seats import Seat

    deal = "N:AK5.KQ4.J83.Q972 9874.T86.T975.54 T6.J9752.Q64.J83 QJ32.A3.AK2.AKT6"
    with stack.client(stack.director) as http:
        response = http.post("/api/tables", json={"table": "robots-sayc"})
        assert response.status_code == 201, response.text
        tokens = response.json()
        assert http.post("/api/tables/robots-sayc/boards",
                         json={"board": 1, "deal": deal}).status_code == 202
    table = [OurRobot(Seat.parse(seat), tokens["seats"][seat], host, seed=i, samples=4)
             for i, seat in enumerate(SEATS)]

    async def scenario() -> None:
        await asyncio.wait_for(asyncio.gather(*(r.play() for r in table)), 240)

    run(scenario())
    board = wait_for(lambda: (s := state(stack, "robots-sayc", stack.director)["board"])
                     and s.get("result") and s, 20, "the board's end")
    calls = [(c["seat"], c["call"], c.get("alert"), c.get("explanation"))
             for c in board["calls"]]
    assert calls[:5] == [
        ("N", "1NT", True, "Announced: balanced (may hold a five-card major), 15–17 HCP"),
        ("E", "P", None, None),
        ("S", "2D", True, "Announced: transfer: five or more hearts"),
        ("W", "P", None, None),
        ("N", "2H", None, None)]
