"""The demo's tournament (`services/cli/demo.py`): a Howell of two pairs a table (every pair
meets each other, each table plays the round's boards) on the demo's ten real boards, renumbered
1–10, two a round. Each table's four seats send each board's events at a player's pace; a round
starts once every table has played the one before. So that the results differ from table to
table, at some tables the player who claims takes one trick fewer than the record's claim (a
concession, Law 68B). Its public results page and its vugraph list are among the links
`make run` prints.

A demo run again on the same data finds its tournament of the run before (the same creation
request) and creates the next one, `demo2`, `demo3`, …: every run plays a tournament of its
own from its first board."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from typing import Any

import httpx

from services.cli.demo_play import Board, play_events
from services.common.public_links import printed_link
from services.common.settings import Settings

PER_ROUND = 2
ROUNDS = 5  # ten boards, two a round
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max",
         "Ned", "Ola", "Pat")
START_S = 120.0  # a board a round starts shows on the table's state within this time


class DemoStalled(Exception):
    """A table's next board did not start in time: the stack is not keeping up."""


@dataclass(frozen=True)
class DemoTournament:
    """The tournament as created: its name, tables, seats' tokens, pages and rounds."""

    name: str
    tables: tuple[str, ...]
    seats: dict[str, dict[str, str]]  # table → seat → token
    vugraph: str  # the vugraph page of every table (a path, /vugraph#<token>)
    results: str  # the public results page (a path, /results#<name>)
    rounds: int
    pairs: int


def most_rounds(tables: int, boards: int) -> int:
    """The rounds a Howell of two pairs a table plays at most on `boards` boards: every pair
    meets each other once (pairs − 1 rounds), PER_ROUND boards a round."""
    return min(2 * tables - 1, boards // PER_ROUND)


def deals_pbn(scripts: list[Board]) -> str:
    """The boards' deals as a dealing program writes them, numbered 1, 2, … in order, each
    with the dealer and vulnerability it was played with."""
    games = []
    for number, events in enumerate(scripts, start=1):
        start = events[0]
        games.append("\n".join([
            f'[Board "{number}"]', f'[Dealer "{start["dealer"]}"]',
            f'[Vulnerable "{start["vulnerability"]}"]',  # None, NS, EW, All (or Both)
            f'[Deal "{start["deal"]}"]']))
    return "\n\n".join(games) + "\n"


def entrants(pairs: int) -> list[dict[str, Any]]:
    """The pairs, named after their players: `Ann & Bob`, `Cy & Di`, …"""
    names = [NAMES[k] if k < len(NAMES) else f"Player {k + 1}" for k in range(2 * pairs)]
    return [{"name": f"{a} & {b}", "players": [a, b]} for a, b in zip(names[::2], names[1::2],
                                                                      strict=True)]


def creation(name: str, tables: int, rounds: int, scripts: list[Board]) -> dict[str, Any]:
    """The body of `POST /api/tournaments` for the demo's tournament `name`."""
    return {"tournament": name, "name": "Demo pairs", "tables": tables,
            "deals": deals_pbn(scripts), "site": "tableserver demo",
            "entrants": entrants(2 * tables),
            "movement": {"kind": "howell", "boards_per_round": PER_ROUND, "rounds": rounds}}


async def create(http: httpx.AsyncClient, director: str, tables: int, rounds: int,
                 scripts: list[Board], tries: int = 100) -> DemoTournament:
    """A new tournament: `demo`, else (made by a run before, or its tables' names taken)
    `demo2`, `demo3`, …"""
    auth = {"Authorization": f"Bearer {director}"}
    for k in range(1, tries + 1):
        name = "demo" if k == 1 else f"demo{k}"
        response = await http.post("/api/tournaments", headers=auth,
                                   json=creation(name, tables, rounds, scripts))
        if response.status_code == 409 or (response.is_success
                                           and not response.json()["created"]):
            continue  # a run before made it, or a table of that name exists
        response.raise_for_status()
        made = response.json()
        return DemoTournament(name, tuple(t["table"] for t in made["tables"]),
                              {t["table"]: t["seats"] for t in made["tables"]},
                              made["vugraph"], made["results"], rounds, 2 * tables)
    raise DemoStalled(f"no free tournament name among demo … demo{tries}")


def varied(events: Board, table: int, board: int) -> Board:
    """The board's events as `table` (0, 1, …) plays them: at one table in three the claimer
    takes one trick fewer than the record's claim (conceding it, Law 68B)."""
    if (table + board) % 3:
        return events
    return [{**e, "tricks": e["tricks"] - 1} if e["type"] == "claim" and e["tricks"] > 0
            else e for e in events]


async def board_started(http: httpx.AsyncClient, director: str, table: str, board: int,
                        every: float = 0.2) -> None:
    """Until the table's board in progress is `board` (its round started it), or `DemoStalled`
    after START_S."""
    deadline = time.monotonic() + START_S
    while True:
        state = (await http.get(f"/api/tables/{table}/state",
                                headers={"Authorization": f"Bearer {director}"})).json()
        if (state.get("board") or {}).get("board") == board:
            return
        if time.monotonic() > deadline:
            raise DemoStalled(f"{table}: board {board} did not start within {START_S:g} s")
        await asyncio.sleep(every)


async def play_round(http: httpx.AsyncClient, director: str, made: DemoTournament,
                     index: int, boards: list[int], scripts: list[Board], pace: float) -> None:
    """Table `index` plays the round's `boards`, each once its round has started it."""
    table = made.tables[index]
    rng = random.Random(f"{made.name}:{table}:{boards[0]}")
    for board in boards:
        await board_started(http, director, table, board)
        await play_events(http, table, varied(scripts[board - 1], index, board),
                          made.seats[table], pace, rng)
        await asyncio.sleep(2 * pace)  # the result stays on the screen a moment


def shown(http: httpx.AsyncClient, link: str) -> str:
    """A link as the demo prints it: at the public address (`TABLESERVER_PUBLIC_URL`), else at
    the gateway it asks."""
    return printed_link(Settings().public_url, str(http.base_url), link)


async def play(http: httpx.AsyncClient, director: str, made: DemoTournament,
               scripts: list[Board], pace: float, status: list[str]) -> None:
    """Every round: started, then played at every table; what stands in `status`."""
    results = shown(http, made.results)
    for rnd in range(1, made.rounds + 1):
        status[:] = [f"{made.name}: round {rnd} of {made.rounds} (a Howell of {made.pairs} "
                     f"pairs); results: {results}"]
        (await http.post(f"/api/tournaments/{made.name}/rounds", json={"round": rnd},
                         headers={"Authorization": f"Bearer {director}"})).raise_for_status()
        boards = list(range(PER_ROUND * (rnd - 1) + 1, PER_ROUND * rnd + 1))
        await asyncio.gather(*(play_round(http, director, made, i, boards, scripts, pace)
                               for i in range(len(made.tables))))
    status[:] = [f"{made.name} is over ({made.rounds} rounds); results: {results}"]
