"""Law 78A by hand for the real-stack pairs tests (docs/scoring.md): each pair's percentage from the
raw table scores and the Director's scores, written independently of shared.scores."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

PERCENT = {"not_at_fault": 60.0, "partly_at_fault": 50.0, "directly_at_fault": 40.0}  # 12C2(a)
Dist = list[tuple[int, float]]


def law_78a(ours: Dist, theirs: Dist) -> float:
    """Law 78A: two for each result beaten, one for each tied, weighted part by part."""
    return sum(w * v * (2 if a > b else 1 if a == b else 0) for a, w in ours for b, v in theirs)


def by_hand(played: dict[tuple[int, int, int], int],
                 director: dict[tuple[int, int, int], dict[str, Any]],
                 penalties: list[dict[str, Any]]) -> dict[int, float]:
    """Each pair's percentage from the raw table scores and the Director's scores as
    docs/scoring.md reads the Laws: a weighted score's parts for their weights (12C1(c)); a
    split score's sides each by its own score, the other result compared with both for half
    each; an artificial score not compared (12C2(a)), the board's other results factored by
    Neuberg, (m + 1) × N / n − 1, N the most results any board has (docs/scoring.md);
    12C2(c): average plus raised to the pair's percentage on its other boards if higher,
    average minus lowered to it if lower; Law 90's penalty, its percent of a top, off the
    offender's total."""
    ns_side: dict[tuple[int, int, int], Dist] = {}
    ew_side: dict[tuple[int, int, int], Dist] = {}
    field: dict[tuple[int, int, int], Dist] = {}
    for place, score in played.items():
        given = director.get(place, {"kind": "played"})
        kind = given["kind"]
        if kind in ("played",):
            ns_side[place] = ew_side[place] = field[place] = [(score, 1.0)]
        elif kind in ("corrected", "assigned"):
            ns_side[place] = ew_side[place] = field[place] = [(given["score_ns"], 1.0)]
        elif kind == "weighted":
            parts = [(p["score_ns"], p["percent"] / 100) for p in given["parts"]]
            ns_side[place] = ew_side[place] = field[place] = parts
        elif kind == "split":
            ns_side[place] = [(given["ns_score"]["score_ns"], 1.0)]
            ew_side[place] = [(p["score_ns"], p["percent"] / 100)
                              for p in given["ew_score"]["parts"]]
            field[place] = [(s, w / 2) for s, w in ns_side[place] + ew_side[place]]
    expected = max(sum(1 for p in played if p[0] == b) for b in {p[0] for p in played})
    points: dict[int, float] = defaultdict(float)
    tops: dict[int, float] = defaultdict(float)
    artificial: dict[int, list[str]] = defaultdict(list)
    for board in sorted({p[0] for p in played}):
        compared = [p for p in field if p[0] == board]
        n = len(compared)
        for place in compared:
            others = [field[o] for o in compared if o != place]
            m_ns = sum(law_78a(ns_side[place], f) for f in others)
            m_ew = 2 * (n - 1) - sum(law_78a(ew_side[place], f) for f in others)
            for pair, m in ((place[1], m_ns), (place[2], m_ew)):
                points[pair] += (m + 1) * expected / n - 1  # Neuberg (identity if n = N)
                tops[pair] += 2 * (expected - 1)
        for place, given in director.items():
            if place[0] == board and given["kind"] == "artificial":
                artificial[place[1]].append(given["ns_fault"])
                artificial[place[2]].append(given["ew_fault"])
    for pair, faults in artificial.items():
        other = 100 * points[pair] / tops[pair]
        for fault in faults:
            pct = PERCENT[fault]
            if fault == "not_at_fault":
                pct = max(pct, other)
            elif fault == "directly_at_fault":
                pct = min(pct, other)
            points[pair] += pct * 2 * (expected - 1) / 100
            tops[pair] += 2 * (expected - 1)
    for penalty in penalties:
        points[penalty["entrant"]] -= penalty["amount"] / 100 * 2 * (expected - 1)
    return {p: 100 * points[p] / tops[p] for p in sorted(tops)}


def ranks(percent: dict[int, float]) -> dict[int, int]:
    """Best first; equal percentages share the place."""
    return {p: 1 + sum(1 for q in percent if round(percent[q], 4) > round(percent[p], 4))
            for p in percent}
