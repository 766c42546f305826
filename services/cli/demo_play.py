"""The demo's boards and how its scripted players send them (`services/cli/demo.py`): the
boards of deploy/demo/boards.jsonl (ten real boards of the 2021 RealBridge qualifier played
to the claim, and four auctions with irregularities), each event sent with its seat's token
at a player's pace, declarer sending dummy's cards (Law 45)."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx

from shared import fold, from_map
from shared.seats import Seat

BOARDS = Path(__file__).resolve().parents[2] / "deploy" / "demo" / "boards.jsonl"
Board = list[dict[str, Any]]  # a board's events, its board_started first


def load_boards() -> list[Board]:
    boards: list[Board] = []
    for line in BOARDS.read_text().splitlines():
        event = json.loads(line)
        if event["type"] == "board_started":
            boards.append([])
        boards[-1].append(event)
    return boards


def played(boards: list[Board]) -> list[Board]:
    """The boards played card by card (the real ones), in the file's order."""
    return [b for b in boards if any(e["type"] == "card_played" for e in b)]


def auctions(boards: list[Board]) -> list[Board]:
    """The boards that are an auction only (the irregularities), in the file's order."""
    return [b for b in boards if not any(e["type"] == "card_played" for e in b)]


def sender_of(event: dict[str, Any], dummy: Seat | None) -> str:
    """The seat whose token sends `event`: its own, but declarer's for dummy's cards (Law 45)."""
    seat = Seat.parse(event["seat"])
    return (seat.partner if event["type"] == "card_played" and seat is dummy else seat).name


def dummy_of(events: Board) -> Seat | None:
    """Dummy of the contract the board's auction reaches (None: passed out)."""
    board = fold(from_map(e) for e in events if e["type"] != "card_played").board
    contract = board.contract() if board is not None else None
    return Seat.parse(contract["declarer"]).partner if contract else None


async def send(http: httpx.AsyncClient, url: str, body: dict[str, Any], token: str,
               attempts: int = 20) -> None:
    """POST an event as a player's client does: a 409 with Retry-After (the gateway's state
    not caught up yet), a 503 (a fault) or a 429 (a seat's rate, which declarer playing dummy's
    cards too reaches at the fastest pace) is sent again after its Retry-After."""
    for _ in range(attempts - 1):
        response = await http.post(url, json=body, headers={"Authorization": f"Bearer {token}"})
        if response.status_code not in (429, 503) and "Retry-After" not in response.headers:
            break
        await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
    else:
        response = await http.post(url, json=body, headers={"Authorization": f"Bearer {token}"})
    response.raise_for_status()


async def play_events(http: httpx.AsyncClient, table: str, events: Board,
                      seats: dict[str, str], pace: float, rng: random.Random) -> None:
    """A board's events after its start, each from its seat (`seats`: seat → token), a mean
    of `pace` seconds apart."""
    dummy = dummy_of(events)
    for event in events[1:]:
        await asyncio.sleep(rng.uniform(0.3, 1.7) * pace)
        body = event if event["type"] == "card_played" else \
            {k: v for k, v in event.items() if k != "seat"}
        await send(http, f"/api/tables/{table}/events", body, seats[sender_of(event, dummy)])
