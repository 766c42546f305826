"""The evening bench's players who vanish (`--drop`; docs/operations.md, "Substitutes").

In each round every present player has his seat page open: a table feed socket with his
round seat token, which is what tells the server his page is open. A `--drop` share of the
round's players never open theirs (their connection dropped): at such a player's turn the
gateway waits the Director's time (`--after`), then one of our robots sits in for him
through the Table Manager host (`substitute_seated`) and calls and plays his cards. At a
table with a robot sitting in, the three present players call and play from what their
feed shows them: a pass at their turn in the auction, and in the play the first card the
state lists as playable (`playable`: the core's own list) for a hand they play from. A robot
may bid a contract where people passed: its board is then played out, or cut by the clock.

Measured from each table's history (the Director's): how long after the turn began (the
event before it at the table) each substitute sat in, against the Director's time + 2 s."""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from bench.tournament_bench import pct

SUBSTITUTE_SEATED, SUBSTITUTE_LEFT = "substitute_seated", "substitute_left"
SLACK_S = 2.0  # the "within the setting + 2 s"


@dataclass
class Dropped:
    """The seats of a round whose players dropped: table → seats."""

    seats: dict[str, set[str]] = field(default_factory=dict)

    @staticmethod
    def chosen(seats: dict[str, dict[str, str]], share: float, number: int) -> Dropped:
        """A `share` of the round's players (seeded by the round: the same run, the same
        players), at most one a table, so that three people remain to play beside the
        robot."""
        tables = sorted(t for t, s in seats.items() if len(s) == 4)
        count = min(len(tables), round(share * 4 * len(tables)))
        rng = random.Random(number)
        return Dropped({t: {rng.choice("NESW")} for t in rng.sample(tables, count)})

    def __len__(self) -> int:
        return sum(len(s) for s in self.seats.values())

    def at(self, table: str) -> set[str]:
        return self.seats.get(table, set())


def action(board: dict[str, Any], seat: str) -> dict[str, Any] | None:
    """The event a present player sends now from his view of the board, if any: a pass at
    his turn in the auction (Law 22A's way to end it), or the first card his view lists as
    playable for a hand he plays from (his own; dummy's when he is declarer, Law 45); none
    once the round's time is up (the board left unfinished: the page's bidding box and cards
    are closed then, and the server refuses what is sent)."""
    if (board.get("clock") or {}).get("over"):
        return None
    if board.get("status") == "auction" and board.get("turn") == seat:
        return {"type": "call", "call": "P"}
    playable = board.get("playable") or {}
    cards = playable.get("cards") or []
    if not cards:
        return None
    hand = playable.get("seat")
    return {"type": "card_played", "card": cards[0], **({"seat": hand} if hand != seat else {})}


async def seat_page(url: str, token: str, seat: str, plays: bool, stop: asyncio.Event,
                    errors: list[str]) -> None:
    """A present player's page at his table for the round: its feed open until `stop`; when
    `plays`, his calls and cards sent on it from the states it brings."""
    socket: ClientConnection = await connect(url, open_timeout=60, max_size=2**22)
    sent: dict[str, Any] = {}  # the last event sent, and the state it answered
    seq = time.time_ns() // 1000  # numbered anew across rounds, as the pages do (docs/api.md)
    try:
        await socket.send(json.dumps({"type": "auth", "token": token}))
        while not stop.is_set():
            try:
                frame = json.loads(await asyncio.wait_for(socket.recv(), 1.0))
            except TimeoutError:
                continue
            if "error" in frame and "ack" in frame and frame.get("status") not in (409, 429,
                                                                                   503):
                errors.append(f"{seat}: {frame.get('error')}")
            board = frame.get("board")
            if not plays or not isinstance(board, dict):
                continue
            event = action(board, seat)
            key = (board.get("board"), board.get("events"))
            if event is None or sent.get("key") == key:
                continue  # nothing to do, or this state answered already
            seq += 1
            sent = {"key": key}
            await socket.send(json.dumps({**event, "client_seq": seq}))
    finally:
        await socket.close()


def sitting(events: list[dict[str, Any]], seat: str) -> bool:
    """Whether a robot sits in at `seat` after `events` (seated, and not stood up since)."""
    moves = [e["type"] for e in events if e.get("seat") == seat
             and e["type"] in (SUBSTITUTE_SEATED, SUBSTITUTE_LEFT)]
    return bool(moves) and moves[-1] == SUBSTITUTE_SEATED


@dataclass
class Delays:
    """Round `number`'s dropped seats: how long after the turn began (the event before it at
    the table) each robot sat in; those where the robot sat in for the round before's player
    still sat (his successor dropped too); and those that got none."""

    found: list[float] = field(default_factory=list)
    kept: int = 0
    missing: int = 0
    late: list[tuple[float, str]] = field(default_factory=list)  # delay, its table's story


async def delays(director: httpx.AsyncClient, dropped: Dropped, number: int) -> Delays:
    """Each dropped seat of round `number`, read from its table's history (the Director's)."""
    found: list[float] = []
    late: list[tuple[float, str]] = []
    missing = kept = 0
    for table, seats in sorted(dropped.seats.items()):
        response = await director.get(f"/api/tables/{table}/history")
        while response.status_code in (429, 503):  # the Director's reads are limited too
            await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
            response = await director.get(f"/api/tables/{table}/history")
        if response.status_code != 200:
            print(f"  !! {table}'s history: {response.status_code} {response.text[:200]}",
                  flush=True)
            missing += len(seats)
            continue
        history = response.json()["history"]
        everything = [h["event"] for h in history if h.get("event")]
        rounds = [i for i, e in enumerate(everything) if e["type"] == "round_started"
                  and e.get("round") == number]
        events = everything[rounds[-1]:] if rounds else []
        before = everything[:rounds[-1]] if rounds else []
        for seat in seats:
            if sitting(before, seat):
                kept += 1  # the robot sat in for the round before's player sits on
                continue
            at = next((i for i, e in enumerate(events)
                       if e["type"] == SUBSTITUTE_SEATED and e.get("seat") == seat), None)
            if at is None or at == 0:
                missing += 1
                print(f"  !! {table} {seat}: no robot sat in; the round's events there: "
                      f"{[e['type'] for e in events][:20]}", flush=True)
                continue
            found.append((events[at]["ts"] - events[at - 1]["ts"]) / 1000)
            late.append((found[-1], _story(table, seat, events[:at + 1])))
    return Delays(found, kept, missing, sorted(late, reverse=True)[:LATE_SHOWN])


LATE_SHOWN = 3  # the latest substitutes of a round told with their table's events


def _story(table: str, seat: str, events: list[dict[str, Any]]) -> str:
    """The round's events at the table until the substitute sat in: each one's type, seat
    and time after the round's start (s); of a longer story the first two and last eight."""
    start = events[0]["ts"]
    told = [f"{e['type']}{'@' + e['seat'] if e.get('seat') else ''}"
            f"+{(e['ts'] - start) / 1000:.1f}" for e in events]
    shown = told if len(told) <= 10 else [*told[:2], "…", *told[-8:]]
    return f"{table} {seat}: " + " ".join(shown)


def report(got: Delays, dropped: Dropped, after_s: int) -> str:
    found = got.found
    within = sum(d <= after_s + SLACK_S for d in found)
    figures = (f"p50 {pct(found, 0.5):.2f} s, p99 {pct(found, 0.99):.2f} s, max "
               f"{max(found):.2f} s after the turn began" if found else "none")
    return (f"{len(dropped)} players dropped: {len(found)} substituted ({figures}), "
            f"{within} within the Director's {after_s} s + {SLACK_S:.0f} s"
            + (f"; {got.kept} by the robot already sitting in for the round before's player"
               if got.kept else "")
            + (f"; {got.missing} never" if got.missing else "")
            + "".join(f"\n  the latest, {delay:.1f} s: {story}" for delay, story in got.late
                      if delay > after_s + SLACK_S))
