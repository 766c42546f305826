"""The Director's scores as a tournament's record keeps them (docs/scoring.md): adjusted scores
(Law 12C), corrections of a result, procedural penalties (Law 90), each with its reason.

A request's map becomes an `Adjustment` or a `Penalty` of `shared.scores`, checked there: a
`ScoreError` names the field at fault (`parts`, `parts[1].percent`, `ns_fault`, …). The same
map is the event on the tournament's topic (`score_given`), read back the same way.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any

from shared.scores.adjustments import (
    Artificial,
    Assigned,
    Part,
    Penalty,
    Score,
    ScoreError,
    Split,
    Weighted,
)
from shared.scores.corrections import Adjustment, Place, correct
from shared.scores.numbers import percent_text, shown
from shared.scores.vocabulary import Fault, PenaltyUnit
from shared.tournament.results_view import PartScore, ShownScore, WeightedPart


class ScoreKind(enum.StrEnum):
    """What the Director gives: each the string on the wire."""

    CORRECTED = "corrected"  # a result corrected (Law 79C: an agreed score mis-recorded)
    ASSIGNED = "assigned"  # Law 12C1(b)
    WEIGHTED = "weighted"  # Law 12C1(c)
    SPLIT = "split"  # each side its own assigned or weighted score (Law 12C1(b), (c))
    ARTIFICIAL = "artificial"  # Law 12C2(a): average plus, average, average minus
    PENALTY = "penalty"  # Law 90: a procedural penalty


def _int(m: Mapping[str, Any], key: str, at: str = "") -> int:
    value = m.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoreError(f"{at}{key}: a whole number is needed, not {value!r}", f"{at}{key}")
    return value


def _percent(value: Any, field: str) -> Fraction:
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise ValueError
        return Fraction(str(value)).limit_denominator(1000)
    except (ValueError, ZeroDivisionError):
        raise ScoreError(f"{field}: a percentage (60, 33.3 or 100/3), not {value!r}",
                         field) from None


def _assigned_or_weighted(m: Any, at: str) -> Assigned | Weighted:
    if not isinstance(m, Mapping):
        raise ScoreError(f"{at[:-1]}: {{score_ns}} or {{parts}}", at[:-1])
    if "parts" in m:
        parts = m["parts"]
        if not isinstance(parts, list):
            raise ScoreError(f"{at}parts: a list of {{percent, score_ns}}", f"{at}parts")
        made = []
        for i, part in enumerate(parts):
            where = f"{at}parts[{i}]."
            if not isinstance(part, Mapping):
                raise ScoreError(f"{where[:-1]}: {{percent, score_ns}}", where[:-1])
            made.append(Part(_percent(part.get("percent"), f"{where}percent"),
                             _int(part, "score_ns", where)))
        try:
            return Weighted(tuple(made))
        except ScoreError as exc:
            raise ScoreError(str(exc), at + exc.field) from None
    try:
        return Assigned(_int(m, "score_ns", at))
    except ScoreError as exc:
        raise ScoreError(str(exc), exc.field if exc.field.startswith(at) else at + exc.field
                         ) from None


def _fault(m: Mapping[str, Any], key: str) -> Fault:
    try:
        return Fault(str(m.get(key)))
    except ValueError:
        raise ScoreError(f"{key}: one of {', '.join(Fault)}", key) from None


def score_of(kind: ScoreKind, m: Mapping[str, Any]) -> Score:
    """The score a map gives, by its kind (not a penalty)."""
    if kind is ScoreKind.CORRECTED:
        return correct(_int(m, "score_ns"))
    if kind is ScoreKind.ASSIGNED:
        return Assigned(_int(m, "score_ns"))
    if kind is ScoreKind.WEIGHTED:
        found = _assigned_or_weighted({"parts": m.get("parts")}, "")
        assert isinstance(found, Weighted)
        return found
    if kind is ScoreKind.SPLIT:
        return Split(_assigned_or_weighted(m.get("ns_score"), "ns_score."),
                     _assigned_or_weighted(m.get("ew_score"), "ew_score."))
    return Artificial(_fault(m, "ns_fault"), _fault(m, "ew_fault"))


def parse(m: Mapping[str, Any], places: Collection[Place], pairs_matchpoints: bool
          ) -> Adjustment | Penalty:
    """The Director's score of a request (or of the record): an adjustment of the board
    between `ns` and `ew`, or a penalty on `entrant`. It must name a board the movement
    scheduled between them, or that the entrant plays (`places`: the rounds started so far);
    a penalty is in percent of a top in a pairs event scored in matchpoints, else in IMPs."""
    try:
        kind = ScoreKind(str(m.get("kind")))
    except ValueError:
        raise ScoreError(f"kind: one of {', '.join(ScoreKind)}", "kind") from None
    reason = m.get("reason", "")
    if not isinstance(reason, str) or len(reason) > 500:
        raise ScoreError("reason: a text of up to 500 characters", "reason")
    board = _int(m, "board")
    if kind is ScoreKind.PENALTY:
        entrant = _int(m, "entrant")
        amount = m.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int | float):
            raise ScoreError(f"amount: a number, not {amount!r}", "amount")
        try:
            unit = PenaltyUnit(str(m.get("unit", PenaltyUnit.PERCENT if pairs_matchpoints
                                         else PenaltyUnit.IMPS)))
        except ValueError:
            raise ScoreError(f"unit: one of {', '.join(PenaltyUnit)}", "unit") from None
        if (unit is PenaltyUnit.PERCENT) != pairs_matchpoints:
            raise ScoreError(f"unit: this event's penalties are in "
                             f"{'percent' if pairs_matchpoints else 'imps'}", "unit")
        if not any(p[0] == board and entrant in p[1:] for p in places):
            raise ScoreError(f"board: entrant {entrant} does not play board {board}", "board")
        return Penalty(board, entrant, float(amount), unit, reason)
    ns, ew = _int(m, "ns"), _int(m, "ew")
    if (board, ns, ew) not in places:
        raise ScoreError(f"board: board {board} is not scheduled between {ns} (NS) and {ew} "
                         "(EW) in the rounds started", "board")
    return Adjustment(board, ns, ew, score_of(kind, m), reason)


def score_map(score: Score) -> ShownScore:
    """A score as the results show it: its kind and what it holds."""
    if isinstance(score, Artificial):
        return {"kind": str(score.kind), "ns_fault": str(score.ns),
                "ew_fault": str(score.ew)}
    if isinstance(score, Split):
        return {"kind": str(score.kind), "ns_score": _part_map(score.ns),
                "ew_score": _part_map(score.ew)}
    if isinstance(score, Weighted):
        return {"kind": str(score.kind), "parts": _parts(score)}
    return {"kind": str(score.kind), "score_ns": score.score_ns}


def _part_map(score: Assigned | Weighted) -> PartScore:
    """An assigned score, or a weighted one's parts."""
    if isinstance(score, Assigned):
        return {"score_ns": score.score_ns}
    return {"parts": _parts(score)}


def _parts(score: Weighted) -> list[WeightedPart]:
    """A weighted score's parts: each weight to two decimals as shown (33.33) and exact as
    the Director gave it (`percent_text`: "100/3"; 60, 12.5)."""
    return [{"percent": shown(float(p.percent), 2), "percent_text": percent_text(p.percent),
             "score_ns": p.score_ns} for p in score.parts]
