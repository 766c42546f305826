"""Helpers the tests share: waiting on a condition, running a coroutine, a table on the
real stack and its events, the deal most tests play."""

from __future__ import annotations

import asyncio
import inspect
import os
import re
import time
from pathlib import Path
from typing import Any

from tests.script import log
from tests.stack import Stack

# TABLESERVER_TEST_PORT_SHIFT moves the session stack's ports, so that two checkouts on one
# machine can run their integration tests at once
_SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))
KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 19092 + _SHIFT, 16379 + _SHIFT, 18000 + _SHIFT
TM_PORT = 12000 + _SHIFT  # the Table Manager host (services/robots) the robots' tests start
# the Redis Cluster fixture's three nodes (22379-22381) and their cluster buses (22382-22384)
REDIS_CLUSTER_PORT = 22379 + _SHIFT


def wait_for(check: Any, seconds: float, what: str) -> Any:
    """Poll `check()` until it returns something true; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.05)  # the poll's interval


def appended(http: Any, table: str, body: dict[str, Any], token: str | None = None,
             seconds: float = 10) -> int:
    """`body` appended to `table`'s events with `http` (as `token`, if given): its offset. A
    seat sends at most so many events a second (429 past that: declarer sends his cards and
    dummy's, faster than any hand); a 429 is sent again, as a client obeys Retry-After."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}

    def sent() -> int | None:
        response = http.post(f"/api/tables/{table}/events", json=body, headers=headers)
        if response.status_code == 429:
            return None
        assert response.status_code == 202, response.text
        offset: int = response.json()["offset"]
        return offset
    offset: int = wait_for(sent, seconds, "the event appended")
    return offset


def wait_for_auction(http: Any, table: str, board: int, seconds: float = 30) -> None:
    """Until `table`'s state (read with `http`'s token) shows `board` in its auction: the
    round the test started has brought it."""
    def on() -> bool:
        state = http.get(f"/api/tables/{table}/state").json()
        return bool(state.get("board") and state["board"]["board"] == board
                    and state["board"]["status"] == "auction")
    wait_for(on, seconds, f"board {board} at {table}")


async def wait_for_async(check: Any, seconds: float, what: str, every: float = 0.05) -> Any:
    """`wait_for` in a coroutine: poll `check()` until it gives something true, letting the
    event loop run in between; fail after `seconds`. `check` may return an awaitable (a
    coroutine, or `loop.run_in_executor(None, blocking_check)` for a check that blocks)."""
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        await asyncio.sleep(every)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


DEAL = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"


def new_table(stack: Stack, table: str, ruleset: str = "duplicate") -> dict[str, Any]:
    with stack.client(stack.director) as http:
        response = http.post("/api/tables", json={"table": table, "ruleset": ruleset})
        assert response.status_code == 201, response.text
        tokens: dict[str, Any] = response.json()
        assert http.post(f"/api/tables/{table}/boards",
                         json={"board": 1, "deal": DEAL}).status_code == 202
    return tokens


def play_script(stack: Stack, table: str, tokens: dict[str, Any], script: str) -> int:
    """Post the events of a test script (tests/script.py) with the seats' tokens."""
    offset = -1
    for event in log(script)[1:]:
        seat = event.pop("seat")
        with stack.client(tokens["seats"][seat]) as http:
            response = http.post(f"/api/tables/{table}/events", json=event)
            assert response.status_code == 202, response.text
            offset = response.json()["offset"]
    return offset


def state(stack: Stack, table: str, token: str) -> dict[str, Any]:
    with stack.client(token) as http:
        response = http.get(f"/api/tables/{table}/state")
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result


def state_at(stack: Stack, table: str, version: int) -> dict[str, Any] | None:
    """The table's state once it reflects `version`; None before (or while Redis is empty)."""
    with stack.client(stack.director) as http:
        response = http.get(f"/api/tables/{table}/state")
    if response.status_code != 200 or response.json()["version"] != version:
        return None
    found: dict[str, Any] = response.json()
    return found


DEALS = (Path(__file__).parent / "data" / "deals-32.pbn").read_text()


def played_deals_file(size: int) -> str:
    """A deals file of at least `size` characters whose boards have their auctions and play
    sections, as the 1.9 MiB one that froze the gateway (overload): the RealBridge
    file's games again and again, numbered 1, 2, … (their optimum tables left out)."""
    text = (Path(__file__).parent / "data" / "realbridge-2021-online-qualifier.pbn").read_text()
    games = [re.sub(r"\[DoubleDummyTricks[\s\S]*?\[OptimumScore [^\n]*\n", "", game)
             for game in re.split(r"\n\s*\n", text) if "[Board " in game]
    out: list[str] = []
    length = 0
    while length < size:
        game = re.sub(r'\[Board "\d+"\]', f'[Board "{len(out) + 1}"]',
                      games[len(out) % len(games)])
        out.append(game)
        length += len(game) + 2
    return "\n\n".join(out) + "\n"
