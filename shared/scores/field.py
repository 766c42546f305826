"""A board's results as a field to compare with: each NS score made and its weight, with what
lies below it, so that a result's matchpoints or cross-IMPs cost a look-up, not a pass over
every other result (a board played 1,000 times has a few dozen different scores)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from shared.scores.imps import imps
from shared.scores.matchpoints import Distribution


class Field:
    """The compared results of one board (each a distribution of NS scores)."""

    def __init__(self, results: Sequence[Distribution]) -> None:
        weight_at: dict[int, float] = {}
        for distribution in results:
            for score, weight in distribution:
                weight_at[score] = weight_at.get(score, 0.0) + weight
        self.scores = sorted(weight_at)
        self.weights = [weight_at[s] for s in self.scores]
        self.below: list[float] = []
        running = 0.0
        for weight in self.weights:
            self.below.append(running)
            running += weight
        self.size = len(results)
        self._weight_at = weight_at
        self._cross: dict[int, float] = {}
        self._points: dict[tuple[Distribution, Distribution], float] = {}

    def _beaten(self, score: int) -> float:
        """Twice the weight below `score` and once the weight equal to it (Law 78A's units)."""
        i = bisect_left(self.scores, score)
        below = self.below[i] if i < len(self.scores) else sum(self.weights)
        return 2 * below + self._weight_at.get(score, 0.0)

    def matchpoints(self, side: Distribution, own: Distribution) -> float:
        """Law 78A: the matchpoints of `side` (NS's view) against every result of the field but
        `own`, the result whose place it takes (the same distribution but for a split score)."""
        known = self._points.get((side, own))
        if known is not None:
            return known
        total = sum(w * self._beaten(score) for score, w in side)
        own_part = sum(w * sum(v * (2 if score > other else 1 if score == other else 0)
                               for other, v in own) for score, w in side)
        self._points[side, own] = total - own_part
        return total - own_part

    def _cross_total(self, score: int) -> float:
        cached = self._cross.get(score)
        if cached is None:
            cached = sum(w * imps(score - other)
                         for other, w in zip(self.scores, self.weights, strict=True))
            self._cross[score] = cached
        return cached

    def cross_imps(self, side: Distribution, own: Distribution) -> float:
        """Law 78B, cross-IMPs: `side`'s IMPs against every other result, per comparison."""
        if self.size < 2:
            return 0.0
        total = sum(w * (self._cross_total(score) - sum(v * imps(score - other)
                                                        for other, v in own))
                    for score, w in side)
        return total / (self.size - 1)
