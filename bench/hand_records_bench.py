"""Benchmark of the hand records (docs/scoring.md): a tournament of 36 boards at one table (a
round of 36, the most a round holds), every board bid to 1NT by its dealer, led and its tricks
agreed; then the time from the last board's last event (202) until the public's hand records
(`GET /api/tournaments/{t}/hand-records`, no token) show all 36 boards with their double-dummy
table and par. Target: 30 s or less.

The records are solved from the tournament's creation, while the boards are played; so the
bench prints too what the solving takes from nothing (the worst case: a tournament whose
records a gateway has still to solve when the last board ends, e.g. its gateway restarted):
a second tournament of the same 36 deals, created and its Director's hand records read until
all are ready, with the gateway's event loop's latency meanwhile (`/livez` p50 and max).

The machine is shared: the solver's own CPU time per board (in this process, the same function
the gateway's worker runs) is printed too, the figure the load does not change.

Deals: tests/data/deals-32.pbn's rule carried on (board n is the RealBridge file's deal
(n-1) mod 10, its hands turned (n-1) div 10 seats), so that the 36 deals all differ.
A benchmark, not a test: it prints numbers, asserts nothing.

    python bench/hand_records_bench.py [--boards 36] [--ports 27092 27379 27000]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/
from bench.stack_args import add_stack_options, bench_stack, machine
from tests.helpers import wait_for_auction
from tests.integration.test_tournament_results import _play

SEATS = "NESW"
REALBRIDGE = Path(__file__).resolve().parent.parent / "tests" / "data" / \
    "realbridge-2021-online-qualifier.pbn"


def _turned(deal: str, turns: int) -> str:
    """A deal with its hands turned `turns` seats clockwise (North's hand to East's …)."""
    first, hands = deal.split(":")
    by_seat = {SEATS[(SEATS.index(first) + i) % 4]: h for i, h in enumerate(hands.split())}
    return "N:" + " ".join(by_seat[SEATS[(i - turns) % 4]] for i in range(4))


def deals_file(boards: int) -> str:
    deals = list(dict.fromkeys(re.findall(r'\[Deal "([^"]+)"\]', REALBRIDGE.read_text())))
    games = [f'[Event "hand records bench"]\n[Board "{n}"]\n'
             f'[Deal "{_turned(deals[(n - 1) % 10], (n - 1) // 10)}"]'
             for n in range(1, boards + 1)]
    return "\n\n".join(games) + "\n"


def _ready(http: Any, t: str, boards: int) -> bool:
    doc = http.get(f"/api/tournaments/{t}/hand-records").json()
    return bool(doc.get("ready") == boards)


def _until_ready(http: Any, t: str, boards: int, limit_s: float) -> float | None:
    start = time.monotonic()
    while time.monotonic() - start < limit_s:
        if _ready(http, t, boards):
            return time.monotonic() - start
        time.sleep(0.05)  # the poll's interval
    return None


def played(stack: Any, boards: int, deals: str) -> None:
    """The measure: the time from the last board played until the public sees every record."""
    t = "hrbench"
    with stack.client(stack.director) as http, stack.client() as public:
        made = http.post("/api/tournaments", json={"tournament": t, "tables": 1,
                                                   "deals": deals})
        assert made.status_code == 201, made.text
        line = made.json()["tables"][0]
        started = time.monotonic()
        assert http.post(f"/api/tournaments/{t}/rounds", json={
            "round": 1, "boards": list(range(1, boards + 1))}).status_code == 202
        given = {n: d for n, d in re.findall(r'\[Board "(\d+)"\]\n\[Deal "([^"]+)"\]', deals)}
        for board in range(1, boards + 1):
            wait_for_auction(http, line["table"], board, 120)
            _play(http, line["seats"], line["table"], board, given[str(board)], 7)
        last = time.monotonic()
        took = _until_ready(public, t, boards, 300)
    print(f"{boards} boards played in {last - started:.1f} s; the public's hand records "
          f"ready {'not within 300' if took is None else f'{took:.2f}'} s after the last "
          "(target: 30 s or less)", flush=True)


def from_nothing(stack: Any, boards: int, deals: str) -> None:
    """The solving alone, from the creation, with the event loop's latency meanwhile."""
    t = "hrbench-cold"
    lags: list[float] = []
    done = threading.Event()
    with stack.client(stack.director) as http, stack.client() as probe:
        def watch() -> None:
            while not done.is_set():
                start = time.monotonic()
                probe.get("/livez")
                lags.append(time.monotonic() - start)
                time.sleep(0.1)  # the probe's period
        watcher = threading.Thread(target=watch, daemon=True)
        start = time.monotonic()
        made = http.post("/api/tournaments", json={"tournament": t, "tables": 1,
                                                   "deals": deals})
        assert made.status_code == 201, made.text
        watcher.start()
        took = _until_ready(http, t, boards, 600)
        done.set()
        watcher.join()
        total = time.monotonic() - start
    shown = "not within 600 s" if took is None else f"{total:.2f} s ({total / boards:.2f} " \
        "s a board)"
    print(f"{boards} boards solved from the creation: {shown}; /livez meanwhile p50 "
          f"{statistics.median(lags) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms "
          f"({len(lags)} reads)", flush=True)


def solver_cpu(boards: int, deals: str) -> None:
    """The solver's CPU time for the 36 boards, in this process (what the load leaves alone)."""
    from services.robots.hand_records import hand_record
    from shared.tournament.session import deals_of

    fields = deals_of(deals)
    hand_record(1, fields[1])  # endplay imported, DDS started
    cpu, wall = time.process_time(), time.monotonic()
    for board in range(1, boards + 1):
        hand_record(board, fields[board])
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    print(f"the solver alone, {boards} boards: {cpu:.2f} s of CPU ({cpu / boards:.3f} s a "
          f"board), {wall:.2f} s of wall clock", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=36)
    add_stack_options(parser, [27092, 27379, 27000])
    args = parser.parse_args()
    deals = deals_file(args.boards)
    solver_cpu(args.boards, deals)
    with bench_stack(args, workers=1, shards=4) as stack:
        played(stack, args.boards, deals)
        from_nothing(stack, args.boards, deals)
    print(f"machine after: {machine()}")


if __name__ == "__main__":
    main()
