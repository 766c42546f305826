"""Benchmark of the scores (docs/scoring.md): travellers and rankings of a 1,000-table session.

Pairs: 2,000 pairs at 1,000 tables, NS pairs 1–1,000 and EW pairs 1,001–2,000, 24 boards,
every board played at every table, as online clubs' large games are (1,000 results a board,
24,000 results): one result in a hundred the Director's artificial score (so every board is
factored by Neuberg), one in a hundred a weighted score of two results. Scored in matchpoints
(ranked per direction), in cross-IMPs and in Butler.
Teams: the same 1,000 tables as 500 matches of 24 boards (two rooms each, 24,000 results), to
IMPs, WBF VPs and the teams' ranking.

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    make bench
    python bench/scores_bench.py [--tables 1000] [--boards 24] [--runs 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from shared.scores.adjustments import Artificial, Played, Score, weighted
from shared.scores.movements import Match
from shared.scores.rankings import pair_rankings
from shared.scores.team_rankings import match_score, team_rankings
from shared.scores.travellers import Result, travellers
from shared.scores.vocabulary import Fault, Scoring

# A board's likely scores: a few contracts and their over- and undertricks.
BOARD_SCORES = [[420, 450, 170, 140, -50, -100, 620, 650, -200, 480, 110, 1430, -500, 90, 400,
                 430, 200, -110, -140, 300]]


def pair_results(rng: random.Random, tables: int, boards: int) -> list[Result]:
    results = []
    for board in range(1, boards + 1):
        likely = rng.sample(BOARD_SCORES[0], 12)
        for table in range(tables):
            ns, ew = table + 1, tables + 1 + (table + board) % tables
            draw = rng.random()
            score: Score
            if draw < 0.01:
                score = Artificial(Fault.NONE, Fault.DIRECTLY)
            elif draw < 0.02:
                a, b = rng.sample(likely, 2)
                score = weighted((60, a), (40, b))
            else:
                score = Played(rng.choice(likely))
            results.append(Result(board, ns, ew, score))
    return results


def team_results(rng: random.Random, tables: int, boards: int) -> tuple[list[Match],
                                                                       list[Result]]:
    matches = [Match(2 * k + 1, 2 * k + 2, tuple(range(1, boards + 1)))
               for k in range(tables // 2)]
    results = []
    for match in matches:
        for board in match.boards:
            results.append(Result(board, match.home, match.away,
                                  Played(rng.choice(BOARD_SCORES[0]))))
            results.append(Result(board, match.away, match.home,
                                  Played(rng.choice(BOARD_SCORES[0]))))
    return matches, results


def best_of(runs: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=24)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(28)
    results = pair_results(rng, args.tables, args.boards)
    print(f"scores of a {args.tables:,}-table session, {args.boards} boards, "
          f"{len(results):,} results (best of {args.runs})")
    for scoring, by_direction in ((Scoring.MATCHPOINTS, True), (Scoring.CROSS_IMPS, False),
                                  (Scoring.BUTLER, False)):
        def score(scoring: Scoring = scoring, by_direction: bool = by_direction) -> object:
            return pair_rankings(travellers(results, scoring).values(),
                                 by_direction=by_direction)
        seconds = best_of(args.runs, score)
        print(f"  pairs, {scoring:<11}  travellers and ranking: {seconds:6.3f} s "
              f"({len(results) / seconds:,.0f} results/s)")
    matches, team_scores = team_results(rng, args.tables, args.boards)
    # a service keeps each match's results apart: match_score gets its match's own
    by_match: dict[int, list[Result]] = {}
    for r in team_scores:
        by_match.setdefault(min(r.ns, r.ew), []).append(r)

    def teams_indexed() -> object:
        return team_rankings(match_score(m, by_match[m.home]) for m in matches)
    seconds = best_of(args.runs, teams_indexed)
    print(f"  teams, {len(matches):,} matches to VPs and ranking: {seconds:6.3f} s "
          f"({len(team_scores) / seconds:,.0f} results/s)")


if __name__ == "__main__":
    main()
