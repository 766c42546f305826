"""Benchmark of a tournament's results as the gateway computes them (docs/scoring.md): the rounds'
seatings linked to each table's results, the Director's scores applied, the travellers and the
rankings and the document (`shared.tournament.results.results`), for a 1,000-table session;
the fold of one table's log of 24 boards into its results (the gateway folds every table's),
and a next request, which folds only what each table appended since.

Pairs: a Howell of 2,000 pairs at 1,000 tables, 2 rounds of 12 boards (each board played at
every table: 24,000 results), one result in a hundred replaced by a weighted score and one in
a hundred by an artificial one (480 `score_given` records). Teams: 1,000 teams in 500
matches of 24 boards (two rooms each: 24,000 results) to VPs.

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    make bench
    python bench/results_bench.py [--runs 3]
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from scores_bench import best_of  # bench/ is the script's folder: its timing helper, once

from services.gateway.tournaments.scores import Folded, fold_more, table_results
from shared.codec import encode, from_map
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import Entrant, Movement, MovementKind, plan, seating_map
from shared.tournament.results import results
from shared.tournament.session import Tournament

SCORES = [420, 450, 170, 140, -50, -100, 620, 650, -200, 480, 110, 1430, -500, 90, 400]
DEAL = "N:AKQJ.AKQJ.AKQ.AK T987.T98.T98.T98 65432.765.765.76 .432.J432.QJ5432"


def session(kind: MovementKind, entrants: int, per: int, rounds: int, rng: random.Random
            ) -> tuple[Tournament, list[dict[str, Any]], dict[str, dict[int, int]],
                       list[dict[str, Any]]]:
    movement = Movement(kind, per, rounds, Scoring.MATCHPOINTS)
    planned = plan(movement, entrants)
    tables = max(s.table for r in planned for s in r.tables)
    names = tuple(f"t-{n}" for n in range(1, tables + 1))
    boards = {b for r in planned for s in r.tables for b in s.boards}
    made = Tournament("bench", "bench", "duplicate", names, {b: {"board": b} for b in boards},
                      entrants=tuple(Entrant(n, str(n)) for n in range(1, entrants + 1)),
                      movement=movement)
    records = [{"type": "round_started", "round": r.number,
                "seatings": {names[s.table - 1]: seating_map(s) for s in r.tables}}
               for r in planned]
    table_results: dict[str, dict[int, int]] = {t: {} for t in names}
    given: list[dict[str, Any]] = []
    for r in planned:
        for s in r.tables:
            for b in s.boards:
                table_results[names[s.table - 1]][b] = rng.choice(SCORES)
                roll = rng.random()
                if roll < 0.01:
                    given.append({"kind": "weighted", "board": b, "ns": s.ns, "ew": s.ew,
                                  "parts": [{"percent": 60, "score_ns": 620},
                                            {"percent": 40, "score_ns": -100}]})
                elif roll < 0.02:
                    given.append({"kind": "artificial", "board": b, "ns": s.ns, "ew": s.ew,
                                  "ns_fault": "not_at_fault", "ew_fault": "directly_at_fault"})
    return made, records, table_results, given


def table_log(boards: int) -> list[Any]:
    """One table's events: each board bid to 1NT, led, its tricks recorded."""
    events: list[dict[str, Any]] = [{"type": "round_started", "round": 1, "ts": 1,
                                     "boards": [{"board": b, "deal": DEAL}
                                                for b in range(1, boards + 1)]}]
    order = "NESW"
    for b in range(1, boards + 1):
        dealer = order.index(order[(b - 1) % 4])
        seats = [order[(dealer + k) % 4] for k in range(4)]
        events.append({"type": "call", "seat": seats[0], "call": "1N", "ts": 1})
        events += [{"type": "call", "seat": s, "call": "P", "ts": 1} for s in seats[1:]]
        events.append({"type": "result_recorded", "tricks": 8, "ts": 1})
    return [from_map(e) for e in events]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(28)
    print(f"a tournament's results (best of {args.runs})")
    for label, kind, entrants, per, rounds in (
            ("pairs, a Howell of 2,000 pairs, matchpoints", MovementKind.HOWELL, 2000, 12, 2),
            ("teams, 500 matches to VPs", MovementKind.TEAMS, 1000, 24, 1)):
        made, records, tables, given = session(kind, entrants, per, rounds, rng)
        count = sum(len(r) for r in tables.values())
        seconds = best_of(args.runs, lambda made=made, records=records, tables=tables,
                          given=given: results(made, records, tables, given))
        print(f"  {label}: {count:,} results, {len(given)} Director's scores: "
              f"{seconds:6.3f} s")
    log = table_log(24)
    records = [(i, encode(e)) for i, e in enumerate(log)]
    seconds = best_of(args.runs, lambda: table_results(records))
    print(f"  one table's log of 24 boards ({len(records)} events) folded into its results: "
          f"{1000 * seconds:.2f} ms (1,000 tables: about {1000 * seconds:.1f} s)")
    # the next request: each of 1,000 tables folded on from where the last one left it
    kept = [Folded() for _ in range(1000)]
    for folded in kept:
        fold_more(folded, records[:-6])  # the last board still to come
    seconds = best_of(1, lambda: [fold_more(f, records) for f in kept])
    print(f"  the next request, 1,000 tables each with its last board new: {seconds:.3f} s")
    seconds = best_of(args.runs, lambda: [fold_more(f, records) for f in kept])
    print(f"  the next request, nothing new at 1,000 tables: {seconds:.3f} s")


if __name__ == "__main__":
    main()
