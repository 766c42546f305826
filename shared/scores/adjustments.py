"""The Director's scores on a board (Law 12C) and procedural penalties (Law 90), as values a
traveller scores, each checked where it is made: a `ScoreError` names the field that is wrong.

A board's line holds one of:
- `Played(score_ns)`: the score at the table, or a corrected one (`corrected=True`);
- `Assigned(score_ns)` (Law 12C1(b)): the Director's score in place of the one obtained;
- `Weighted(parts)` (Law 12C1(c)): several results, each with its weight, the weights summing
  to 100 %;
- `Split(ns, ew)`: each side its own assigned or weighted score (the scores need not balance);
- `Artificial(ns, ew)` (Law 12C2): no result could be obtained; each side gets average plus,
  average or average minus by its fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from shared.scores.matchpoints import Distribution
from shared.scores.vocabulary import Direction, Fault, PenaltyUnit, ResultKind
from shared.scoring import MAX_SCORE

HUNDRED = Fraction(100)


class ScoreError(ValueError):
    """A result or an adjustment that cannot be: what is wrong, and the field at fault."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


# Law 12C2(a): average minus is at most 40 % of the matchpoints available, average 50 %,
# average plus at least 60 %; Law 12C2(b): at IMPs, average plus +3 IMPs, average minus −3.
ARTIFICIAL_PERCENT = {Fault.NONE: 60.0, Fault.PARTLY: 50.0, Fault.DIRECTLY: 40.0}
ARTIFICIAL_IMPS = {Fault.NONE: 3.0, Fault.PARTLY: 0.0, Fault.DIRECTLY: -3.0}


def _check_score(score_ns: int, field: str) -> None:
    if isinstance(score_ns, bool) or not isinstance(score_ns, int):
        raise ScoreError(f"a score is a whole number of points, not {score_ns!r}", field)
    if score_ns % 10:
        raise ScoreError(f"a bridge score is a multiple of 10, not {score_ns}", field)
    if abs(score_ns) > MAX_SCORE:
        raise ScoreError(f"a bridge score is between -{MAX_SCORE} and {MAX_SCORE} (Law 77: "
                         f"the most one board scores is {MAX_SCORE}, a grand slam redoubled "
                         f"and vulnerable down 13), not {score_ns}", field)


@dataclass(frozen=True, slots=True)
class Played:
    """The NS score obtained at the table (Law 77), or corrected by the Director."""

    score_ns: int
    corrected: bool = False

    def __post_init__(self) -> None:
        _check_score(self.score_ns, "score_ns")

    @property
    def kind(self) -> ResultKind:
        return ResultKind.CORRECTED if self.corrected else ResultKind.PLAYED

    def distribution(self, side: Direction = Direction.NS) -> Distribution:
        return ((self.score_ns, 1.0),)


@dataclass(frozen=True, slots=True)
class Assigned:
    """Law 12C1(b): the score the Director assigns in place of the one obtained, seeking the
    probable outcome had the infraction not occurred."""

    score_ns: int

    def __post_init__(self) -> None:
        _check_score(self.score_ns, "score_ns")

    @property
    def kind(self) -> ResultKind:
        return ResultKind.ASSIGNED

    def distribution(self, side: Direction = Direction.NS) -> Distribution:
        return ((self.score_ns, 1.0),)


@dataclass(frozen=True, slots=True)
class Part:
    """One result of a weighted score and its weight in percent (a `Fraction`: 100/3 is a
    third)."""

    percent: Fraction
    score_ns: int


@dataclass(frozen=True, slots=True)
class Weighted:
    """Law 12C1(c): an assigned score weighted to reflect the probabilities of several results,
    e.g. 60 % of 4♠ made (+620) and 40 % of 4♠ one off (−100). In matchpoints each part earns
    the matchpoints it would have earned, for its weight; in IMPs likewise."""

    parts: tuple[Part, ...]

    def __post_init__(self) -> None:
        if len(self.parts) < 2:
            raise ScoreError("a weighted score has at least two results", "parts")
        for i, part in enumerate(self.parts):
            _check_score(part.score_ns, f"parts[{i}].score_ns")
            if not 0 < part.percent < HUNDRED:
                raise ScoreError(f"a weight is between 0 and 100 %, not {part.percent}",
                                 f"parts[{i}].percent")
        scores = [p.score_ns for p in self.parts]
        if len(set(scores)) != len(scores):
            raise ScoreError("a weighted score names each result once", "parts")
        total = sum((p.percent for p in self.parts), Fraction(0))
        if total != HUNDRED:
            raise ScoreError(f"the weights sum to {float(total):g} %, not 100 %", "parts")

    @property
    def kind(self) -> ResultKind:
        return ResultKind.WEIGHTED

    def distribution(self, side: Direction = Direction.NS) -> Distribution:
        return tuple((p.score_ns, float(p.percent / HUNDRED)) for p in self.parts)


def weighted(*parts: tuple[float | Fraction | int, int]) -> Weighted:
    """`weighted((60, 620), (40, -100))`: the parts as (percent, NS score)."""
    return Weighted(tuple(Part(Fraction(pct).limit_denominator(1000), score)
                          for pct, score in parts))


@dataclass(frozen=True, slots=True)
class Split:
    """Each side its own score (Law 12C1(b), (c): the Director need not balance them), both
    from NS's side: e.g. the non-offenders' most favourable likely result and the offenders'
    most unfavourable."""

    ns: Assigned | Weighted
    ew: Assigned | Weighted

    @property
    def kind(self) -> ResultKind:
        return ResultKind.SPLIT

    def distribution(self, side: Direction = Direction.NS) -> Distribution:
        return (self.ns if side is Direction.NS else self.ew).distribution()

    def field_distribution(self) -> Distribution:
        """What the other results on the board are compared with: each side's score for half
        (a choice: the Laws are silent; docs/scoring.md)."""
        merged: dict[int, float] = {}
        for score, weight in (*self.ns.distribution(), *self.ew.distribution()):
            merged[score] = merged.get(score, 0.0) + weight / 2
        return tuple(merged.items())


@dataclass(frozen=True, slots=True)
class Artificial:
    """Law 12C2(a): no result could be obtained; each side's artificial score by its fault:
    average plus (60 %; at IMPs +3, 12C2(b)) in no way at fault, average (50 %, 0) partly,
    average minus (40 %, −3 IMPs) directly at fault. The two need not balance."""

    ns: Fault
    ew: Fault

    def __post_init__(self) -> None:
        for field in ("ns", "ew"):
            if not isinstance(getattr(self, field), Fault):
                raise ScoreError(f"a fault is one of {', '.join(Fault)}", field)

    @property
    def kind(self) -> ResultKind:
        return ResultKind.ARTIFICIAL

    def fault(self, side: Direction) -> Fault:
        return self.ns if side is Direction.NS else self.ew


Score = Played | Assigned | Weighted | Split | Artificial
"""What a traveller's line holds."""


@dataclass(frozen=True, slots=True)
class Penalty:
    """Law 90: a procedural penalty on one entrant on a board, in percent of a top (pairs,
    matchpoints) or in IMPs; it takes from the offender's score only, the others' stand."""

    board: int
    entrant: int
    amount: float
    unit: PenaltyUnit = PenaltyUnit.PERCENT
    reason: str = ""

    def __post_init__(self) -> None:
        if not self.amount > 0:
            raise ScoreError(f"a penalty is a positive amount, not {self.amount}", "amount")
        if self.unit is PenaltyUnit.PERCENT and self.amount > 100:
            raise ScoreError(f"a penalty is at most a top (100 %), not {self.amount}", "amount")


def side_distribution(score: Score, side: Direction) -> Distribution | None:
    """The scores a side is scored by (None: an artificial score, not compared)."""
    if isinstance(score, Artificial):
        return None
    return score.distribution(side)


def field_distribution(score: Score) -> Distribution | None:
    """The scores the board's other results are compared with (None: not compared)."""
    if isinstance(score, Artificial):
        return None
    if isinstance(score, Split):
        return score.field_distribution()
    return score.distribution()
