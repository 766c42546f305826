"""Benchmark of a club's evening at scale (docs/performance.md, "The evening"): `--tables`
tables of a Mitchell (two pairs a table), `--rounds` rounds of `--boards` boards, every player
connected through his personal link (`/play#<token>`) as a socket client (`WS /api/play/live`),
and the server moving each of them to his seat when a round starts.

Starts its own stack (Kafka, Redis, `--workers` processor workers, the gateway: tests/stack.py);
creates the tournament with its pairs (a Mitchell's table a board group: deals-32.pbn's deals
again and again, `entries_bench.deals`), reads each player's link from
the Director's list, opens every player's socket, then round after round:
- the Director starts the round (`POST …/rounds`, sent again after a 503);
- the move: the time from that POST until each player's socket shows him seated at his table
  of the round (p50, p99, max over every player), and whether any seat of any table is held
  by two players;
- the round's boards ended at a compressed pace: each board passed out at every table by its
  four players' round seat tokens (Law 22A), the tables at once with at most `--concurrency`
  calls in flight; then the time until every player's socket shows the round over.
With `--clock MINUTES` the movement has that `minutes_per_board` (compressed): the Director
starts round 1 alone, and each later round is started by the clock at the round before's end;
the move is timed from that end (the issue's "the next round's start within 1 s of its clock",
seen where it matters: at every player's page), and a `--slow` share of the tables leaves each
round's last board unfinished in the auction, for the round's end to score by rule (Law 12C2).
With `--drop SHARE` (on a clock) that share of each round's players never open their seat page,
and a robot sits in for each after the Director's `--after` seconds (bench/evening_substitutes.py).
At the end: every board scored (each table's boards in the Director's results, their count
against tables × boards × rounds), and the results equal to a replay: a fresh gateway process,
which has seen nothing, folds the topics again and its results document must be the same.
A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/evening_bench.py [--tables 250] [--rounds 6] [--boards 3] [--workers 2]
                                  [--shards 8] [--concurrency 50] [--clock MINUTES]
                                  [--slow 0.1] [--drop 0.1 --after 5] [--keep DIR]
                                  [--ports 23492 23779 23400]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.entries_bench import deals
from bench.evening_substitutes import Dropped, delays, report, seat_page
from bench.pipeline_bench import print_service_errors
from bench.stack_args import add_stack_options, bench_stack, machine
from bench.tournament_bench import pct, post_until_taken, retries
from shared.seats import board_dealer
from tests.robot_services import Robots
from tests.stack import Stack, another_gateway

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 23492, 23779, 23400
REPLAY_PORT_OFFSET = 7  # the fresh gateway's port: the stack's gateway's + this
ROBOTS_PORT_OFFSET = 11  # the Table Manager host's port (with `--drop`): the gateway's + this
TOURNAMENT = "evening"
SEATS = "NESW"
MOVE_LIMIT_S = 120.0  # a player not moved by then is reported as such
FOLD_WAIT_S = 30.0  # without a clock, a table's round start awaited this long at most


@dataclass
class Player:
    """One player's socket: the frames it got, with when (the wall clock's seconds: a round's
    end on the clock is one)."""

    token: str
    frames: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    closed: str | None = None  # why his socket closed before the bench was done with it

    def last(self) -> dict[str, Any]:
        return self.frames[-1][1] if self.frames else {}

    def seated_at(self, number: int) -> float | None:
        """When his socket first showed him seated in round `number`."""
        return next((at for at, f in self.frames
                     if f.get("phase") == "seated" and f.get("round") == number), None)

    def round_end(self, number: int) -> float | None:
        """Round `number`'s end on the clock (s), as his socket last told it."""
        return next(((f["clock"]["ends_at"] / 1000) for _, f in reversed(self.frames)
                     if (f.get("clock") or {}).get("round") == number), None)


async def follow(url: str, player: Player, opened: asyncio.Semaphore,
                 ready: asyncio.Event, stop: asyncio.Event) -> None:
    """The player's page: its socket, authenticated with his link's token, every frame kept."""
    async with opened:
        socket: ClientConnection = await connect(url, open_timeout=60, max_size=2**20)
    try:
        await socket.send(json.dumps({"type": "auth", "token": player.token}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), 1.0)
            except TimeoutError:
                continue
            except ConnectionClosed as exc:  # said when he is found not moved
                player.closed = f"{exc.rcvd or exc.sent}"
                player.changed.set()
                return
            player.frames.append((time.time(), json.loads(text)))
            player.changed.set()
            ready.set()
    finally:
        await socket.close()


def never(lagging: list[Player]) -> str:
    """Why the players not moved were not: their sockets' closes, counted, or their pages."""
    closes = Counter(p.closed for p in lagging if p.closed is not None)
    open_ = [p for p in lagging if p.closed is None]
    said = [f"{n} closed: {why}" for why, n in closes.most_common(3)]
    if open_:
        said.append(f"{len(open_)} open, the first's page: {json.dumps(open_[0].last())[:200]}")
    return "; ".join(said)


async def until(players: list[Player], done: Any, limit_s: float) -> list[Player]:
    """The players for whom `done(player)` still fails after `limit_s` (none: all done)."""
    deadline = time.perf_counter() + limit_s
    while True:
        waiting = [p for p in players if not done(p)]
        if not waiting or time.perf_counter() > deadline:
            return waiting
        for p in waiting:
            p.changed.clear()
        await asyncio.wait([asyncio.ensure_future(p.changed.wait()) for p in waiting[:50]],
                           timeout=0.5, return_when=asyncio.FIRST_COMPLETED)


def seats_of(players: list[Player], number: int
             ) -> tuple[dict[str, dict[str, str]], dict[str, list[int]]]:
    """Round `number`'s seats as the players' sockets show them: table → seat → round token,
    and table → its boards; a seat shown to two players is reported."""
    seats: dict[str, dict[str, str]] = {}
    boards: dict[str, list[int]] = {}
    twice = 0
    for p in players:
        frame = next((f for _, f in reversed(p.frames)
                      if f.get("phase") == "seated" and f.get("round") == number), None)
        if frame is None:
            continue
        table, seat = frame["seat"]["table"], frame["seat"]["seat"]
        twice += seat in seats.get(table, {})
        seats.setdefault(table, {})[seat] = frame["seat"]["token"]
        boards[table] = frame["seat"]["boards"]
    if twice:
        print(f"  !! {twice} seats shown to two players in round {number}", flush=True)
    return seats, boards


async def pass_out(http: httpx.AsyncClient, gate: asyncio.Semaphore, table: str,
                   boards: list[int], seats: dict[str, str], refused: list[str],
                   slow: bool = False, ends_at: float | None = None) -> int:
    """The table's boards of the round passed out in turn, from each board's dealer (Law 22A);
    a call refused because the board before is not yet folded is sent again, and so is one
    refused because the table does not play the round's boards yet (the players move with the
    record, the table's state with the processor's fold a moment later: a page waits for its
    feed to show the board), until the round's end on the clock (`ends_at`, s) or
    `FOLD_WAIT_S`. A `slow` table leaves its last board in the auction (its dealer's pass
    alone) for the clock to end. The calls sent."""
    until = ends_at if ends_at is not None else time.time() + FOLD_WAIT_S
    sent = 0
    for board in boards:
        first = board_dealer(board).value
        for seat in (SEATS * 2)[first:first + (1 if slow and board == boards[-1] else 4)]:
            while True:
                try:
                    async with gate:
                        response = await http.post(
                            f"/api/tables/{table}/events", json={"type": "call", "call": "P"},
                            headers={"Authorization": f"Bearer {seats[seat]}"})
                except httpx.TimeoutException:  # a loaded machine: taken as sent, not again
                    refused.append(f"{table} {seat} board {board}: no answer in 60 s")
                    sent += 1
                    break
                if response.status_code == 202:
                    sent += 1
                    break
                waiting = response.status_code == 403 and "not in play" in response.text \
                    and time.time() < until
                if response.status_code not in (409, 429, 503) and not waiting:
                    refused.append(f"{table} {seat} board {board}: {response.status_code} "
                                   f"{response.text[:100]}")
                    break
                await asyncio.sleep(0.2)  # not his turn yet: the board before still folding
                # (or the round's start)
    return sent


@dataclass
class Pages:
    """The seat pages open in the round in progress (with `--drop`), closed at its end."""

    tasks: list[asyncio.Future[None]] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    errors: list[str] = field(default_factory=list)

    def stop_and_open(self, http: httpx.AsyncClient, seats: dict[str, dict[str, str]],
                      dropped: Dropped, at_once: int) -> None:
        self.stop.set()  # the round before's pages (their tokens are for its boards)
        self.stop = asyncio.Event()
        url = str(http.base_url).replace("http", "ws", 1).rstrip("/")
        self.tasks += [asyncio.ensure_future(seat_page(
            f"{url}/api/tables/{table}/feed", token, seat, bool(dropped.at(table)),
            self.stop, self.errors)) for table, tokens in seats.items()
            for seat, token in tokens.items() if seat not in dropped.at(table)]

    async def close(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)


pages = Pages()
drops: list[tuple[int, Dropped]] = []


async def a_round(director: httpx.AsyncClient, http: httpx.AsyncClient,
                  players: list[Player], number: int, args: argparse.Namespace) -> None:
    """Round `number`: started by the Director (round 1, or every round without a clock) or by
    the clock at the round before's end; the move timed from that start; its boards played
    (a `--slow` share of the tables leaving their last one unfinished, on a clock)."""
    if number == 1 or not args.clock:
        began = time.time()
        response, posted_s, unavailable = await post_until_taken(
            director, f"/api/tournaments/{TOURNAMENT}/rounds", {"round": number})
        start = (f"POST {posted_s:.2f} s{retries(unavailable)} "
                 f"({response.json().get('tables')} tables)")
        since = "after the POST was sent"
    else:
        ends = [e for p in players if (e := p.round_end(number - 1)) is not None]
        began = max(ends)
        start = f"started by the clock (round {number - 1}'s end)"
        since = f"after round {number - 1}'s end on the clock"
    limit = MOVE_LIMIT_S + max(0.0, began - time.time())
    lagging = await until(players, lambda p: p.seated_at(number) is not None, limit)
    moves = [at - began for p in players if (at := p.seated_at(number)) is not None]
    print(f"round {number}: {start}; every player at his new seat: p50 "
          f"{pct(moves, 0.5):.2f} s, p99 {pct(moves, 0.99):.2f} s, max {max(moves):.2f} s "
          f"{since}" + (f"; {len(lagging)} never moved ({never(lagging)})" if lagging else ""),
          flush=True)
    seats, boards = seats_of(players, number)
    full = sorted(t for t, s in seats.items() if len(s) == 4)
    dropped = Dropped.chosen(seats, args.drop, number) if args.drop else Dropped()
    if args.drop:  # every present player's page open at his table; the others' not
        pages.stop_and_open(http, seats, dropped, args.concurrency)
        drops.append((number, dropped))
    full = [t for t in full if not dropped.at(t)]  # those: played from their pages
    slow = set(full[:round(args.slow * len(full))]) if args.clock else set()
    gate, refused = asyncio.Semaphore(args.concurrency), list[str]()
    began = time.time()
    ends = [e for p in players if (e := p.round_end(number)) is not None]
    calls = sum(await asyncio.gather(*(pass_out(http, gate, t, boards[t], seats[t], refused,
                                                t in slow, max(ends, default=None))
                                       for t in full)))
    posted = time.time() - began
    played = (f"  {len(full)} full tables ({len(slow)} slow, their last board left "
              f"unfinished): {calls} calls in {posted:.1f} s ({calls / posted:.0f}/s)"
              + (f"; {len(refused)} calls refused, the first: {refused[0]}" if refused else ""))
    if args.clock:
        print(played, flush=True)
        return
    over = await until(players, lambda p: p.last().get("phase") in ("between", "end")
                       and p.last().get("round", number) >= number, MOVE_LIMIT_S)
    print(f"{played}; every page shows the round over {time.time() - began - posted:.2f} s "
          f"later" + (f"; {len(over)} pages not" if over else ""), flush=True)


async def last_end(players: list[Player], rounds: int) -> None:
    """On a clock: the last round ended by it, each page at its end (the scorecard)."""
    ends = [e for p in players if (e := p.round_end(rounds)) is not None]
    began = max(ends)
    limit = MOVE_LIMIT_S + max(0.0, began - time.time())
    lagging = await until(players, lambda p: p.last().get("phase") == "end", limit)
    shown = [next(at for at, f in p.frames if f.get("phase") == "end") - began
             for p in players if p.last().get("phase") == "end"]
    at_end = [s for s in shown if s >= 0]  # the others' tables had finished before it
    figures = (f"p50 {pct(at_end, 0.5):.2f} s, p99 {pct(at_end, 0.99):.2f} s after it"
               if at_end else "none")
    print(f"the last round ended by the clock: every page still at a table then at the end "
          f"{figures} "
          f"({len(shown) - len(at_end)} pages there before it, their tables done)"
          + (f"; {len(lagging)} not, the first's page: "
             f"{json.dumps(lagging[0].last())[:300]}" if lagging else ""), flush=True)


def scored(results: dict[str, Any]) -> int:
    """The results of every board (a traveller's line a table's result)."""
    return sum(len(t["lines"]) for t in results["travellers"])


async def evening(stack: Stack, args: argparse.Namespace) -> dict[str, Any]:
    tables = [f"ev{n}" for n in range(1, args.tables + 1)]
    pairs = [{"name": f"pair {n}", "players": [f"P{n}a", f"P{n}b"]}
             for n in range(1, 2 * args.tables + 1)]
    async with httpx.AsyncClient(base_url=stack.url, timeout=600, headers={
            "Authorization": f"Bearer {stack.director}"}) as director:
        movement = {"kind": "mitchell", "boards_per_round": args.boards,
                    "rounds": args.rounds}
        if args.clock:
            movement["minutes_per_board"] = args.clock
        _, made_s, unavailable = await post_until_taken(director, "/api/tournaments", {
            "tournament": TOURNAMENT, "name": "Evening bench", "tables": tables,
            "deals": deals(args.tables * args.boards), "entrants": pairs,
            "movement": movement})
        if args.drop:
            put = await director.put(f"/api/tournaments/{TOURNAMENT}/substitutes",
                                     json={"after_s": args.after})
            put.raise_for_status()
        listed = (await director.get(f"/api/tournaments/{TOURNAMENT}/players")).json()
        players = [Player(p["token"]) for p in listed["players"]]
        print(f"created: {len(tables)} tables, {len(pairs)} pairs, {len(players)} players' "
              f"links, in {made_s:.2f} s{retries(unavailable)}", flush=True)
        url = stack.url.replace("http", "ws") + "/api/play/live"
        opened, ready, stop = asyncio.Semaphore(100), asyncio.Event(), asyncio.Event()
        began = time.perf_counter()
        sockets = [asyncio.ensure_future(follow(url, p, opened, ready, stop)) for p in players]
        lobby = await until(players, lambda p: p.last().get("phase") == "lobby", 300)
        print(f"{len(players)} sockets open, each in the lobby, in "
              f"{time.perf_counter() - began:.1f} s" + (f" ({len(lobby)} not)" if lobby else ""),
              flush=True)
        limits = httpx.Limits(max_connections=args.concurrency,
                              max_keepalive_connections=args.concurrency)
        try:
            async with httpx.AsyncClient(base_url=stack.url, timeout=60,
                                         limits=limits) as http:
                for number in range(1, args.rounds + 1):
                    await a_round(director, http, players, number, args)
                if args.clock:
                    await last_end(players, args.rounds)
        finally:
            stop.set()
            await asyncio.gather(*sockets, return_exceptions=True)
            await pages.close()
        for number, dropped in drops:
            got = await delays(director, dropped, number)
            print(f"round {number}: " + report(got, dropped, args.after), flush=True)
        if pages.errors:
            print(f"  !! {len(pages.errors)} events refused on the seat pages, the first: "
                  f"{pages.errors[0]}", flush=True)
        response = await director.get(f"/api/tournaments/{TOURNAMENT}/results")
        results: dict[str, Any] = response.json()
        expected = args.tables * args.rounds * args.boards
        print(f"every board scored: {scored(results)} results of {expected} "
              f"({args.tables} tables × {args.rounds} rounds × {args.boards} boards)",
              flush=True)
        return results


async def replayed(url: str, director: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=600, headers={
            "Authorization": f"Bearer {director}"}) as http:
        response = await http.get(f"/api/tournaments/{TOURNAMENT}/results")
        response.raise_for_status()
        found: dict[str, Any] = response.json()
        return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--boards", type=int, default=3, help="boards a round")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=50,
                        help="calls in flight while the boards are played")
    parser.add_argument("--clock", type=float, default=0.0, metavar="MINUTES",
                        help="the movement's minutes_per_board: the rounds end and start by "
                        "the clock (compressed: e.g. 0.25)")
    parser.add_argument("--slow", type=float, default=0.1,
                        help="on a clock, the share of tables that leave their last board "
                        "of each round unfinished")
    parser.add_argument("--drop", type=float, default=0.0,
                        help="on a clock, the share of each round's players whose page "
                        "stays closed: a robot sits in for them (substitutes)")
    parser.add_argument("--after", type=int, default=5,
                        help="with --drop: the Director's time before a robot sits in (s)")
    add_stack_options(parser, [KAFKA_PORT, REDIS_PORT, GATEWAY_PORT])
    args = parser.parse_args()
    if args.drop and not args.clock:
        parser.error("--drop needs --clock: a round with a robot's contract ends by the clock")
    with bench_stack(args, args.workers, args.shards) as stack:
        # every seat of the field may have a robot in by the last round (each round's dropped
        # players stay away): the pool's connections, all from one address, within the host's
        # limit (docs/operations.md, `TABLESERVER_TM_PER_ADDRESS`)
        robots = Robots(stack, args.ports[2] + ROBOTS_PORT_OFFSET, env={
            "TABLESERVER_TM_PER_ADDRESS": str(4 * args.tables)}) if args.drop else None
        try:
            results = asyncio.run(evening(stack, args))
        finally:
            if robots is not None:
                try:
                    robots.stop()
                except AssertionError as exc:  # said, and the replay compared all the same
                    print(f"  !! the robots did not stop: {str(exc)[:2000]}", flush=True)
        began = time.perf_counter()
        with another_gateway(stack, args.ports[2] + REPLAY_PORT_OFFSET,
                             "replay-gateway.log") as url:
            again = asyncio.run(replayed(url, stack.director))
        print(f"the results equal to a replay (a fresh gateway folding the topics again, "
              f"{time.perf_counter() - began:.1f} s): {again == results}", flush=True)
        print(f"machine after: {machine()}")
        print_service_errors(stack.data)


if __name__ == "__main__":
    main()
