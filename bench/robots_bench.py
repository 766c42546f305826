"""Benchmark of our robot's decisions (issue 29): p50 and p95 per call and per card, four
robots bidding and playing whole boards among themselves in one process, with what each seat
may see only (its hand, dummy's after the opening lead, the cards played), each card chosen
over `--samples` sampled deals solved double-dummy (endplay's DDS). No service: the decisions
alone (the host's share is in the integration tests).

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/robots_bench.py --boards 8 --samples 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from services.robots.solver import solve
from shared.calls import Call, Strain
from shared.cards import RANKS, SUITS, Card
from shared.play import trick_winner
from shared.robot.bidding import choose_call
from shared.robot.play import choose_card
from shared.robot.sampling import Seen, shown_out
from shared.seats import Seat

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def board(rng: random.Random, number: int, samples: int, calls: list[float],
          cards: list[float]) -> str:
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
            started = time.perf_counter()
            card = choose_card(Seen(seen_hands, list(played), shown_out(played)), hand, strain,
                               rng, solve, samples)
            cards.append(time.perf_counter() - started)
            played.append((hand, card))
        leader = trick_winner(played[-4:], trump)
    won = sum(1 for t in range(13) if trick_winner(played[4 * t:4 * t + 4], trump)
              in (declarer, dummy))
    return f"{last.level}{strain.name} by {declarer.name}: {won} tricks"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=8)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
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
