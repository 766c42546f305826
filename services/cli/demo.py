"""`python -m services.cli.demo`: a demo tournament, live in the terminal.

The demo's tournament (`services/cli/demo_tournament.py`) is a Howell of two pairs a table on
ten real boards of the 2021 RealBridge qualifier (deploy/demo/boards.jsonl: their auctions and
their play card by card to the claim agreed), played through the gateway at a player's pace,
round by round; declarer plays dummy's cards (Law 45). One more table, `demo-alerts`, bids the
four auctions with irregularities, which the director's alerts report. The screen shows each
table's auction, its tricks and result as the processor folds them, the tournament's round,
and the director's alerts. The first link is South's seat at `demo-robots`, where our robots
sit North, East and West (through the Table Manager host) for a round of the demo's deals.
`demo-you` waits for people: the screen gives the links to its four seats' pages, to the
tournament's vugraph list and its public results page, to a capture page for `demo-capture`
(an operator recording a physical table), and to the director's console.

    --tables N   the tournament's tables (two pairs each; default 4, at least 2)
    --rounds R   its rounds, two boards each (default 5, at most the boards' and pairs')
    --once       play the tournament and the auctions once, then stop (no screen redraw)
    --pace S     mean seconds between calls (default 0.8)
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from typing import Any

import httpx

from services.cli import demo_tournament
from services.cli.demo_play import Board, auctions, load_boards, play_events, played
from services.cli.demo_tournament import shown
from services.common.settings import Settings
from services.gateway.http.routes.pages import director_link
from shared.seats import Seat
from shared.vocabulary import BoardStatus

ALERTS_TABLE = "demo-alerts"


async def create_table(http: httpx.AsyncClient, director: str, table: str) -> dict[str, Any]:
    """The table's tokens and its seats' pages (`links`)."""
    response = await http.post("/api/tables", json={"table": table},
                               headers={"Authorization": f"Bearer {director}"})
    response.raise_for_status()
    made: dict[str, Any] = response.json()
    return made


async def open_for_people(http: httpx.AsyncClient, director: str,
                          boards: list[list[dict[str, Any]]]) -> list[str]:
    """`demo-you` with its first board started, for four people at the seat pages; the lines
    that say where to go."""
    made = await create_table(http, director, "demo-you")
    start = {k: v for k, v in boards[0][0].items() if k != "type"}
    (await http.post("/api/tables/demo-you/boards", json=start,
                     headers={"Authorization": f"Bearer {director}"})).raise_for_status()
    return [f"  {seat}: {shown(http, link)}" for seat, link in made["links"].items()]


async def play_auctions(http: httpx.AsyncClient, director: str, table: str,
                        boards: list[Board], pace: float, rounds: int | None,
                        seats: dict[str, str]) -> None:
    """The auctions with irregularities, each a board started by hand, again and again (each
    time numbered 100 more) or `rounds` times."""
    auth = {"Authorization": f"Bearer {director}"}
    rng = random.Random(table)
    round_ = 0
    while rounds is None or round_ < rounds:
        for events in boards:
            start = {k: v for k, v in events[0].items() if k != "type"}
            start["board"] += round_ * 100
            (await http.post(f"/api/tables/{table}/boards", json=start, headers=auth)
             ).raise_for_status()
            await play_events(http, table, events, seats, pace, rng)
            await asyncio.sleep(2 * pace)
        round_ += 1


def line_of(table: str, state: dict[str, Any] | None) -> str:
    board = (state or {}).get("board")
    if not board:
        return f"{table:<8} waiting for the first board"
    calls = " ".join(c["call"] + ("!" if c.get("alert") else "") for c in board["calls"])
    contract = board["contract"]
    end = (f"→ {contract['level']}{contract['strain']}{contract['risk']} by "
           f"{contract['declarer']}" if contract else
           "→ passed out" if board["status"] == BoardStatus.PASSED_OUT
           else f"({board['turn']} to call)")
    play, result = board.get("play"), board.get("result")
    if result is not None and result["declarer_tricks"] is not None:
        end += f", {result['declarer_tricks']} tricks, NS {result['score_ns']:+d}"
    elif play is not None:
        end += f", tricks NS {play['won']['NS']} EW {play['won']['EW']}"
    return (f"{table:<8} board {board['board']:<3} dealer {board['dealer']}  {calls}  {end}"
            f"   [v{state['version'] if state else '-'}]")


async def show(http: httpx.AsyncClient, director: str, tables: list[str], links: list[str],
               statuses: list[list[str]]) -> None:
    """The screen, drawn again every half second: the links, what each of `statuses` says
    now (the robots, the tournament's round), each table's line, the director's alerts."""
    auth = {"Authorization": f"Bearer {director}"}
    while True:
        states = [(await http.get(f"/api/tables/{t}/state", headers=auth)).json()
                  for t in tables]
        alerts = (await http.get("/api/alerts?count=8", headers=auth)).json()["alerts"]
        said = [line for status in statuses for line in status]
        screen = ["tableserver demo — Ctrl-C stops everything", "", *links, *said, ""]
        screen += [line_of(t, s) for t, s in zip(tables, states, strict=True)]
        screen += ["", "Director alerts (latest last):"]
        screen += [f"  {a['table']} board {a.get('board', '-')}: Law {a['law']} {a['kind']} — "
                   f"{a['message']}" for a in alerts] or ["  none yet"]
        sys.stdout.write("\x1b[2J\x1b[H" + "\n".join(screen) + "\n")
        sys.stdout.flush()
        await asyncio.sleep(0.5)


async def open_for_capture(http: httpx.AsyncClient, director: str,
                           boards: list[list[dict[str, Any]]]) -> str:
    """`demo-capture` with its first board started, for an operator recording a physical
    table; its capture page (an operator token, from the director)."""
    await create_table(http, director, "demo-capture")
    auth = {"Authorization": f"Bearer {director}"}
    start = {k: v for k, v in boards[0][0].items() if k != "type"}
    (await http.post("/api/tables/demo-capture/boards", json=start, headers=auth)
     ).raise_for_status()
    response = await http.post("/api/tables/demo-capture/operator", json={}, headers=auth)
    response.raise_for_status()
    return str(response.json()["link"])


ROBOT_SEATS = (Seat.N, Seat.E, Seat.W)


async def open_with_robots(http: httpx.AsyncClient, director: str,
                           boards: list[list[dict[str, Any]]]) -> tuple[str, list[str]]:
    """`demo-robots`: a round of the demo's deals, South's page for the newcomer, our robots
    at the three other seats (their tokens); South's link."""
    made = await create_table(http, director, "demo-robots")
    keys = ("board", "deal", "dealer", "vulnerability")
    rounds = [{k: b[0][k] for k in keys if k in b[0]} for b in boards if b[0].get("deal")]
    (await http.post("/api/tables/demo-robots/rounds", json={"round": 1, "boards": rounds},
                     headers={"Authorization": f"Bearer {director}"})).raise_for_status()
    return shown(http, made["links"]["S"]), [made["seats"][s.name] for s in ROBOT_SEATS]


async def seat_robots(tokens: list[str], boards: int, port: int, status: list[str]) -> None:
    """Our robots at demo-robots' North, East and West, through the Table Manager host; what
    becomes of them in `status` (the screen shows it)."""
    from services.robots.player import OurRobot

    robots = [OurRobot(seat, token, port, label=f"robot-{seat.name}", seed=seat.index)
              for seat, token in zip(ROBOT_SEATS, tokens, strict=True)]
    status[:] = ["robots at North, East and West: waiting for South"]
    try:
        await asyncio.gather(*(robot.play(boards) for robot in robots))
        status[:] = ["the robots' round is over"]
    except (OSError, ConnectionError, ValueError) as error:
        status[:] = [f"robots: not seated ({error}); is the Table Manager host up on port "
                     f"{port} (TABLESERVER_TM_PORT)?"]


async def main_async(args: argparse.Namespace) -> int:
    settings = Settings()
    director = settings.director_token()
    boards = load_boards()
    scripts = played(boards)
    rounds = min(args.rounds, demo_tournament.most_rounds(args.tables, len(scripts)))
    auth = {"Authorization": f"Bearer {director}"}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{settings.gateway_port}",
                                 timeout=10) as http:
        made = await demo_tournament.create(http, director, args.tables, rounds, scripts)
        alerts_table = await create_table(http, director, ALERTS_TABLE)
        south, robot_tokens = await open_with_robots(http, director, boards)
        status: list[str] = []
        robots = asyncio.create_task(seat_robots(robot_tokens, len(boards), settings.tm_port,
                                                 status))
        links = [f"Play South with three robots: {south}",
                 "Open in a browser — play at demo-you's four seats:",
                 *await open_for_people(http, director, boards),
                 f"the demo tournament {made.name} (a Howell of {made.pairs} pairs, {rounds} "
                 f"rounds of {demo_tournament.PER_ROUND} boards):",
                 f"  every table on vugraph: {shown(http, made.vugraph)}",
                 f"  its results, live: {shown(http, made.results)}",
                 "record a physical table (capture): "
                 f"{shown(http, await open_for_capture(http, director, boards))}",
                 f"the director's console: {shown(http, director_link(director))}"]
        print("\n".join(links), flush=True)
        progress: list[str] = []
        players = [asyncio.create_task(demo_tournament.play(http, director, made, scripts,
                                                            args.pace, progress)),
                   asyncio.create_task(play_auctions(http, director, ALERTS_TABLE,
                                                     auctions(boards), args.pace,
                                                     1 if args.once else None,
                                                     alerts_table["seats"]))]
        tables = [*made.tables, ALERTS_TABLE]
        if args.once:
            await asyncio.gather(*players)
            await asyncio.sleep(1)
            for table in tables:
                state = (await http.get(f"/api/tables/{table}/state", headers=auth)).json()
                print(line_of(table, state))
            print(*progress, sep="\n")
            robots.cancel()
            return 0
        screen = asyncio.create_task(show(http, director, tables, links, [status, progress]))
        await asyncio.gather(*players, screen, robots)
    return 0


def _tables(text: str) -> int:
    if not text.isdigit() or int(text) < 2:
        raise argparse.ArgumentTypeError(f"{text!r}: a Howell needs at least 2 tables")
    return int(text)


def _rounds(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1 round")
    return int(text)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m services.cli.demo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=_tables, default=4)
    parser.add_argument("--rounds", type=_rounds, default=demo_tournament.ROUNDS)
    parser.add_argument("--once", action="store_true")
    parser.add_argument("--pace", type=float, default=0.8)
    try:
        sys.exit(asyncio.run(main_async(parser.parse_args())))
    except KeyboardInterrupt:
        print("\nstopped")
    except httpx.HTTPError as exc:
        sys.exit(f"the gateway did not answer as expected: {exc}")
    except demo_tournament.DemoStalled as exc:
        sys.exit(f"the demo stopped: {exc}")


if __name__ == "__main__":
    main()
