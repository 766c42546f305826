"""The EBU's split of a pairs tie for first (White Book §143.7.1) worked from a results
document's travellers, independently of shared.scores: for the real-stack tests."""

from __future__ import annotations

from typing import Any


def first_place_by_hand(doc: dict[str, Any]) -> tuple[list[int], str | None]:
    """The pairs tied for first (one field), best first after the split, and the rule that
    split them: the boards between them (two who met), the mean final % of each one's
    opponents, then the share of boards above average (a half for average)."""
    percent = {r["entrant"]: r["percent"] for r in doc["rankings"]}
    best = max(percent.values())
    tied = sorted(p for p, v in percent.items() if abs(v - best) < 1e-6)
    sides = [(x["ns"], x["ew"], x["ns_points"], x["ns_percent"]) for t in doc["travellers"]
             for x in t["lines"]] + [(x["ew"], x["ns"], x["ew_points"], x["ew_percent"])
                                     for t in doc["travellers"] for x in t["lines"]]
    def between(p: int) -> float:
        return sum(pts for me, them, pts, _ in sides if me == p and them in tied)
    def opponents(p: int) -> float:
        them = {o for me, o, _, _ in sides if me == p}
        return sum(percent[o] for o in them) / len(them)
    def boards_won(p: int) -> float:
        mine = [pc for me, _, _, pc in sides if me == p]
        return sum(1.0 if pc > 50 else 0.5 if pc == 50 else 0.0 for pc in mine) / len(mine)
    met = len(tied) == 2 and any(me in tied and o in tied for me, o, _, _ in sides)
    for rule, key in (("head_to_head", between), ("tie_break_points", opponents),
                      ("point_a_board", boards_won)):
        if rule == "head_to_head" and not met:
            continue
        values = {p: round(key(p), 6) for p in tied}
        if len(set(values.values())) > 1:
            return sorted(tied, key=lambda p: (-values[p], p)), rule
    return tied, None
