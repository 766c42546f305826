"""Each board's traveller: its results, each with the matchpoints (Law 78A, Neuberg where the
board has fewer comparable results than expected) or IMPs (Law 78B: cross-IMPs, or against
Butler's datum) of both sides, the Director's scores (Law 12C) among them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from shared.scores.adjustments import (
    ARTIFICIAL_IMPS,
    ARTIFICIAL_PERCENT,
    Artificial,
    Score,
    ScoreError,
    field_distribution,
    side_distribution,
)
from shared.scores.field import Field
from shared.scores.fouled_boards import CORRECT, Pair
from shared.scores.imps import butler_datum, imps
from shared.scores.matchpoints import Distribution, neuberg, top
from shared.scores.vocabulary import Direction, ResultKind, Scoring


@dataclass(frozen=True, slots=True)
class Result:
    """A board's result between two entrants (pairs or teams, by number): who sat NS and EW,
    and the score, played or the Director's."""

    board: int
    ns: int
    ew: int
    score: Score

    def __post_init__(self) -> None:
        if self.board < 1:
            raise ScoreError(f"a board's number is 1 or more, not {self.board}", "board")
        if self.ns == self.ew:
            raise ScoreError(f"entrant {self.ns} cannot sit both NS and EW", "ew")


@dataclass(frozen=True, slots=True)
class Line:
    """One result on a traveller and what each side scored on it: matchpoints (with their
    percentage of the top) or IMPs."""

    result: Result
    ns_points: float
    ew_points: float
    ns_percent: float | None = None
    ew_percent: float | None = None
    group: int | None = None  # a fouled board's (Law 87B): 0 its correct form, k a changed one

    @property
    def kind(self) -> ResultKind:
        return self.result.score.kind


@dataclass(frozen=True, slots=True)
class Traveller:
    """A board's results, scored. `top`: the matchpoint top (2 × (expected − 1)); `datum`:
    Butler's (None on a fouled board: each group its own); `compared`: the results compared
    (the artificial scores are not); `fouled`: the board's changed forms (Law 87), 0 if none."""

    board: int
    scoring: Scoring
    lines: tuple[Line, ...]
    compared: int
    top: int | None = None
    datum: int | None = None
    fouled: int = 0


def _mean(distribution: Distribution) -> float:
    return sum(score * weight for score, weight in distribution)


def _matchpoint_lines(results: Sequence[Result], expected: int) -> tuple[list[Line], int]:
    fields = [field_distribution(r.score) for r in results]
    compared = [f for f in fields if f is not None]
    n, full = len(compared), top(expected)
    field = Field(compared)
    lines = []
    for result, own in zip(results, fields, strict=True):
        if own is None:
            assert isinstance(result.score, Artificial)
            ns = ARTIFICIAL_PERCENT[result.score.ns] * full / 100
            ew = ARTIFICIAL_PERCENT[result.score.ew] * full / 100
        else:
            ns_side = side_distribution(result.score, Direction.NS) or own
            ew_side = side_distribution(result.score, Direction.EW) or own
            ns = neuberg(field.matchpoints(ns_side, own), n, expected)
            ew = neuberg(top(n) - field.matchpoints(ew_side, own), n, expected)
        lines.append(Line(result, ns, ew, 100 * ns / full if full else 50.0,
                          100 * ew / full if full else 50.0))
    return lines, n


def _imp_lines(results: Sequence[Result], scoring: Scoring
               ) -> tuple[list[Line], int, int | None]:
    fields = [field_distribution(r.score) for r in results]
    compared = [f for f in fields if f is not None]
    field = Field(compared)
    datum = butler_datum(_mean(f) for f in compared) \
        if scoring is Scoring.BUTLER and compared else None
    lines = []
    for result, own in zip(results, fields, strict=True):
        if own is None:
            assert isinstance(result.score, Artificial)
            lines.append(Line(result, ARTIFICIAL_IMPS[result.score.ns],
                              ARTIFICIAL_IMPS[result.score.ew]))
            continue
        ns_side = side_distribution(result.score, Direction.NS) or own
        ew_side = side_distribution(result.score, Direction.EW) or own
        if datum is not None:
            ns = sum(w * imps(s - datum) for s, w in ns_side)
            ew = -sum(w * imps(s - datum) for s, w in ew_side)
        else:
            ns = field.cross_imps(ns_side, own)
            ew = -field.cross_imps(ew_side, own)
        lines.append(Line(result, ns, ew))
    return lines, len(compared), datum


def traveller(board: int, results: Sequence[Result], scoring: Scoring = Scoring.MATCHPOINTS,
              expected: int | None = None, groups: Mapping[Pair, int] | None = None
              ) -> Traveller:
    """Score one board's results. In matchpoints, `expected` is how many times the board should
    have been played (the most any board was, by default its own count): a board with fewer
    comparable results (fewer played, or artificial scores) is factored up by Neuberg.
    `groups` (a fouled board, Law 87B: `shared.scores.fouled_boards`): the places that played
    a changed form, each its group; each group is scored apart, factored to the full top."""
    if any(r.board != board for r in results):
        raise ScoreError(f"a traveller holds board {board}'s results only", "board")
    seen: set[int] = set()
    for r in results:
        if r.ns in seen or r.ew in seen:
            raise ScoreError(f"an entrant has two results on board {board}", "ns")
        seen.update((r.ns, r.ew))
    if groups:
        return _fouled(board, results, scoring, expected, groups)
    if scoring is Scoring.MATCHPOINTS:
        expected = _expected(board, results, expected)
        lines, n = _matchpoint_lines(results, expected)
        return Traveller(board, scoring, tuple(lines), n, top=top(expected))
    imp_lines, n, datum = _imp_lines(results, scoring)
    return Traveller(board, scoring, tuple(imp_lines), n, datum=datum)


def _expected(board: int, results: Sequence[Result], expected: int | None) -> int:
    expected = len(results) if expected is None else expected
    if expected < len(results):
        raise ScoreError(f"board {board} has {len(results)} results, more than the "
                         f"{expected} expected", "expected")
    return expected


def _fouled(board: int, results: Sequence[Result], scoring: Scoring, expected: int | None,
            groups: Mapping[Pair, int]) -> Traveller:
    """Law 87B: each group's results scored apart (matchpoints factored by Neuberg to the
    board's full top, the EBU's method; IMPs within the group), the lines in their order."""
    by_group: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        by_group[groups.get((r.ns, r.ew), CORRECT)].append(r)
    scored: dict[Pair, Line] = {}
    compared = 0
    full = _expected(board, results, expected) if scoring is Scoring.MATCHPOINTS else 0
    for k, mine in by_group.items():
        if scoring is Scoring.MATCHPOINTS:
            lines, n = _matchpoint_lines(mine, full)
        else:
            lines, n, _ = _imp_lines(mine, scoring)
        compared += n
        scored.update(((line.result.ns, line.result.ew), replace(line, group=k))
                      for line in lines)
    changed = len(set(groups.values()))
    return Traveller(board, scoring, tuple(scored[r.ns, r.ew] for r in results), compared,
                     top=top(full) if scoring is Scoring.MATCHPOINTS else None,
                     fouled=changed)


def travellers(results: Iterable[Result], scoring: Scoring = Scoring.MATCHPOINTS,
               expected: int | None = None,
               fouled: Mapping[int, Mapping[Pair, int]] | None = None) -> dict[int, Traveller]:
    """Every board's traveller. In matchpoints every board is factored to the same expected
    number of results (`expected`, else the most any board has), so that each board weighs
    the same (Neuberg). `fouled`: each fouled board's groups (Law 87B)."""
    by_board: dict[int, list[Result]] = defaultdict(list)
    for result in results:
        by_board[result.board].append(result)
    most = max((len(rs) for rs in by_board.values()), default=0)
    wanted = most if expected is None else expected
    groups = fouled or {}
    return {board: traveller(board, rs, scoring, wanted, groups.get(board))
            for board, rs in sorted(by_board.items())}
