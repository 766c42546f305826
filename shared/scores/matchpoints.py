"""Matchpoints (Law 78A) and the Neuberg formula for a board with fewer results than others.

A result to compare is a distribution: NS scores with weights summing to 1. A score played is
one score of weight 1; a weighted adjusted score (Law 12C1(c)) is several, and every other
result on the board is compared with each part for the part's weight.
"""

from __future__ import annotations

from collections.abc import Sequence

Distribution = tuple[tuple[int, float], ...]
"""NS scores and their weights (summing to 1): `((420, 1.0),)`, `((620, 0.6), (-100, 0.4))`."""


def top(results: int) -> int:
    """Law 78A: two matchpoints for each result beaten, so a board played `results` times has a
    top of 2 × (results − 1)."""
    return 2 * (results - 1)


def matchpoints(results: Sequence[Distribution]) -> list[float]:
    """Law 78A: each result's NS matchpoints against the others on the board, two for each
    result beaten and one for each tied (the EW pair gets the top less these). A weighted
    result takes each part's matchpoints for the part's weight, and is beaten or tied by the
    others part by part."""
    weight_at: dict[int, float] = {}
    for distribution in results:
        for score, weight in distribution:
            weight_at[score] = weight_at.get(score, 0.0) + weight
    below: dict[int, float] = {}
    running = 0.0
    for score in sorted(weight_at):
        below[score] = running
        running += weight_at[score]
    # Every pair of results is counted once each way; a result against itself gives it exactly
    # 1 (its weights squared and crossed sum to 1), which comes off.
    return [sum(weight * (2 * below[score] + weight_at[score]) for score, weight in distribution)
            - 1 for distribution in results]


def neuberg(points: float, results: int, expected: int) -> float:
    """The Neuberg formula: matchpoints `points` earned against `results` − 1 others, as if the
    board had been played `expected` times: (points + 1) × expected / results − 1 (each actual
    result standing for expected / results of them). The EBU's worked example: 10 results of 11
    expected, a top of 18 becomes 19.9 of 20."""
    if results < 1 or expected < results:
        raise ValueError(f"Neuberg needs 1 ≤ results ({results}) ≤ expected ({expected})")
    return (points + 1) * expected / results - 1


def percent(points: float, results: int) -> float:
    """Matchpoints as a percentage of the top on a board played `results` times (50 % for a
    board played once: a lone result is average)."""
    return 50.0 if results < 2 else 100.0 * points / top(results)
