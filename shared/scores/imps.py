"""International match points (Law 78B): the WBF scale, cross-IMPs and Butler's datum."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping

# Law 78B's scale: the least difference in points that is worth 1, 2, … 24 IMPs
# (20–40 points 1 IMP, 50–80 2, …, 3500–3990 23, 4000 and upwards 24).
IMP_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300,
             1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000)


def imps(difference: float) -> int:
    """Law 78B: the IMPs a difference in points is worth, signed like the difference. The
    table's steps are read as lower bounds, so a difference between two rows (a Neuberg or
    weighted score's 35 points) is worth the lower row's IMPs."""
    won = bisect_right(IMP_STEPS, abs(difference))
    return won if difference >= 0 else -won


def cross_imps(score: int, field: Mapping[int, float]) -> float:
    """Law 78B across a field: the IMPs of `score` against each other result, averaged over the
    comparisons. `field` maps each score to how many times it was made (a weighted score's
    part counts its weight), `score` itself among them; a lone result scores 0."""
    others = sum(field.values()) - 1
    if others <= 0:
        return 0.0
    total = sum(count * imps(score - other) for other, count in field.items())
    return total / others


def field_of(scores: Iterable[int]) -> Counter[int]:
    """How many times each score was made."""
    return Counter(scores)


def round_to_ten(points: float) -> int:
    """The nearest multiple of 10, an exact half to the even ten (ACBLscore's rule: 425 gives
    420, 435 gives 440)."""
    tens = points / 10
    return 10 * round(tens)


def butler_datum(scores: Iterable[float], trim: int = 1) -> int:
    """Butler's datum for a board: the mean of its NS scores without the `trim` highest and
    `trim` lowest (when that leaves at least one), rounded to 10."""
    ordered = sorted(scores)
    if not ordered:
        raise ValueError("a datum needs at least one result")
    kept = ordered[trim:len(ordered) - trim] if trim and len(ordered) > 2 * trim else ordered
    return round_to_ten(sum(kept) / len(kept))
