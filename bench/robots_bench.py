"""Benchmark of our robot's decisions (docs/robots.md): p50 and p95 per call and per card, four
robots bidding and playing whole boards among themselves in one process, with what each seat
may see only (its hand, dummy's after the opening lead, the cards played), each card chosen
over `--samples` sampled deals solved double-dummy (endplay's DDS). No service: the decisions
alone (the host's share is in the integration tests).

`--pace 4,8,16`: how many robot seats one robot pool serves at a person's pace: that many
tables of four robots, each card after a pause of `--think` seconds (± half), for `--seconds`;
each card's wait from the end of its pause (the queue for the solver, then solving), p50 and
p95 per count of tables. `--processes 0,2`: each count run with the cards solved on one DDS
thread (0: a robot run by hand, the pool before) and in 2 processes (the pool's
`ProcessSolving`, one a core by default), side by side in one run.

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/robots_bench.py --boards 8 --samples 20
    python bench/robots_bench.py --pace 1,8,32 --processes 0,2 --think 3 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Generator
from concurrent.futures import Executor, ProcessPoolExecutor, wait

from services.robots.player import SOLVER
from services.robots.solver import solve
from shared.calls import Call, Strain
from shared.cards import RANKS, SUITS, Card
from shared.robot.bidding import choose_call
from shared.robot.play import choose_card, legal_cards
from shared.robot.sampling import Seen, remaining, shown_out
from shared.seats import Seat
from shared.table.play import trick_winner

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


Request = tuple[Seen, Seat, Strain]  # what a robot sees, the hand to play from, the strain
Board = Generator[Request, Card, str]


def board_steps(rng: random.Random, number: int, calls: list[float]) -> Board:
    """A board bid and played by four robots: yields each card to decide (what the deciding
    seat may see), is sent the card; returns what happened."""
    deck = [Card.parse(s + r) for s in SUITS for r in RANKS]
    rng.shuffle(deck)
    hands = {seat: tuple(deck[13 * i:13 * i + 13]) for i, seat in enumerate(SEATS)}
    dealer = SEATS[(number - 1) % 4]
    auction: list[Call] = []
    seat = dealer
    while not (len(auction) >= 4 and all(c.is_pass for c in auction[-3:])
               and (len(auction) == 4 or any(c.is_bid for c in auction))):
        started = time.perf_counter()
        auction.append(choose_call(hands[seat], seat, dealer, auction))
        calls.append(time.perf_counter() - started)
        seat = seat.lho
    bids = [(SEATS[(SEATS.index(dealer) + i) % 4], c) for i, c in enumerate(auction) if c.is_bid]
    if not bids:
        return "passed out"
    last_seat, last = bids[-1]
    assert last.strain is not None
    declarer = next(s for s, c in bids if c.strain is last.strain
                    and not s.is_opponent_of(last_seat))
    strain, dummy = last.strain, declarer.partner
    trump = None if strain is Strain.NT else strain.name
    played: list[tuple[Seat, Card]] = []
    leader = declarer.lho
    for _ in range(13):
        for i in range(4):
            hand = SEATS[(SEATS.index(leader) + i) % 4]
            decider = declarer if hand is dummy else hand
            seen_hands = {decider: hands[decider]}
            if played:  # dummy is faced after the opening lead (Law 41D)
                seen_hands[dummy] = hands[dummy]
            if decider is declarer:
                seen_hands[dummy] = hands[dummy]
            card = yield (Seen(seen_hands, list(played), shown_out(played), dealer, tuple(auction)),
                          hand, strain)
            played.append((hand, card))
        leader = trick_winner(played[-4:], trump)
    won = sum(1 for t in range(13) if trick_winner(played[4 * t:4 * t + 4], trump)
              in (declarer, dummy))
    return f"{last.level}{strain.name} by {declarer.name}: {won} tricks"


def board(rng: random.Random, number: int, samples: int, calls: list[float],
          cards: list[float]) -> str:
    steps = board_steps(rng, number, calls)
    try:
        request = next(steps)
        while True:
            started = time.perf_counter()
            card = choose_card(*request, rng, solve, samples)
            cards.append(time.perf_counter() - started)
            request = steps.send(card)
    except StopIteration as ended:
        return str(ended.value)


def timed_card(request: Request, rng: random.Random, samples: int) -> tuple[Card, float]:
    """The card, and the CPU time the solver's thread (or process) spent on it."""
    started = time.thread_time()
    card = choose_card(*request, rng, solve, samples)
    return card, time.thread_time() - started


async def table_at_pace(number: int, think_s: float, samples: int, until: float,
                        waits: list[float], cpus: list[float], solver: Executor) -> None:
    """One table of four robots playing boards one after another until `until`, each card
    after a person's pause (`think_s` ± half), decided on `solver` (the one DDS thread,
    `SOLVER`, or the pool's processes): `waits` gets each card's time from the end of its
    pause to the card (the queue for the solver, then the solving), `cpus` the solver's CPU
    time on it."""
    rng = random.Random(number)
    loop = asyncio.get_running_loop()
    board_number = 0
    while time.perf_counter() < until:
        board_number += 1
        steps = board_steps(rng, board_number, [])
        # the first board joined at a random card, as a session's tables are at every stage
        # of their boards (its cards so far played at once, with no solver)
        skip = rng.randrange(52) if board_number == 1 else 0
        try:
            request = next(steps)
            for _ in range(skip):
                seen, hand, _strain = request
                trick = [card for _, card in seen.played[len(seen.played) // 4 * 4:]]
                request = steps.send(legal_cards(remaining(seen)[hand], trick)[0])
            while True:
                await asyncio.sleep(think_s * rng.uniform(0.5, 1.5))
                if time.perf_counter() >= until:
                    return
                started = time.perf_counter()
                card, cpu = await loop.run_in_executor(solver, timed_card, request,
                                                       random.Random(rng.random()), samples)
                waits.append(time.perf_counter() - started)
                cpus.append(cpu)
                request = steps.send(card)
        except StopIteration:
            continue


def _warm() -> None:
    """A solver process started, DDS loaded (`services.robots.solver`, imported with this
    module), before the clock runs."""
    time.sleep(0.2)


def solver_of(processes: int) -> Executor:
    """The one DDS thread (0), or `processes` processes, started and warm."""
    if not processes:
        return SOLVER.executor
    executor = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"))
    wait([executor.submit(_warm) for _ in range(2 * processes)])
    return executor


def at_pace(tables: list[int], think_s: float, seconds: float, samples: int,
            modes: list[int] | None = None) -> None:
    """For each count of tables and each way of solving (`modes`: 0 the one DDS thread, N
    that many processes; by default both, one process a core), its robots at a person's
    pace for `seconds`: each card's wait, p50/p95/max, and the cards decided a second."""
    modes = modes if modes is not None else [0, os.cpu_count() or 1]
    print(f"robots at a person's pace: a card every {think_s:g} s (± half) at each table, "
          f"{samples} samples a card, {seconds:g} s a run; load average before "
          f"{os.getloadavg()[0]:.1f}")
    solvers = {processes: solver_of(processes) for processes in modes}
    for count in tables:
        for processes, solver in solvers.items():
            waits: list[float] = []
            cpus: list[float] = []

            async def run(count: int = count, waits: list[float] = waits,
                          cpus: list[float] = cpus, solver: Executor = solver) -> None:
                until = time.perf_counter() + seconds
                await asyncio.gather(*(table_at_pace(n, think_s, samples, until, waits, cpus,
                                                     solver)
                                       for n in range(1, count + 1)))
            asyncio.run(run())
            p95 = quantile(waits, 0.95)
            busy = sum(cpus) / seconds
            how = f"{processes} processes" if processes else "one DDS thread"
            print(f"{count:4d} tables ({4 * count:4d} robot seats), {how}: {len(waits)} cards, "
                  f"{len(waits) / seconds:.1f}/s; wait p50 {quantile(waits, 0.5) * 1000:.0f} ms, "
                  f"p95 {p95 * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms; solver CPU "
                  f"{statistics.mean(cpus) * 1000:.0f} ms a card, busy {busy:.0%}; load "
                  f"average {os.getloadavg()[0]:.1f}{'' if p95 < 1 else '  (p95 over 1 s)'}")
    for solver in solvers.values():
        if solver is not SOLVER.executor:
            solver.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", metavar="TABLES", help="robots at a person's pace at these "
                        "counts of tables, e.g. 4,8,16 (instead of the decisions alone)")
    parser.add_argument("--think", type=float, default=3.0, metavar="SECONDS",
                        help="the pause before each card at a person's pace (default 3)")
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="how long each count of tables plays (default 60)")
    parser.add_argument("--processes", default=f"0,{os.cpu_count() or 1}", metavar="COUNTS",
                        help="at a person's pace, solve on one DDS thread (0) and/or in this "
                        "many processes, side by side (default 0,<cores>)")
    args = parser.parse_args()
    if args.pace:
        at_pace([int(n) for n in args.pace.split(",")], args.think, args.seconds, args.samples,
                [int(n) for n in args.processes.split(",")])
        return
    rng = random.Random(args.seed)
    calls: list[float] = []
    cards: list[float] = []
    started = time.perf_counter()
    for number in range(1, args.boards + 1):
        print(f"board {number}: {board(rng, number, args.samples, calls, cards)}")
    elapsed = time.perf_counter() - started
    for name, values in (("call", calls), ("card", cards)):
        if values:
            print(f"per {name}: p50 {quantile(values, 0.5) * 1000:.2f} ms, p95 "
                  f"{quantile(values, 0.95) * 1000:.2f} ms, max {max(values) * 1000:.2f} ms "
                  f"({len(values)} {name}s)")
    print(f"{args.boards} boards in {elapsed:.1f} s ({args.samples} samples a card); "
          f"mean {statistics.mean(cards or [0]) * 1000:.1f} ms a card")


if __name__ == "__main__":
    main()
