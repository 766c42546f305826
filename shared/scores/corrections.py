"""The Director's changes to a session's results, in the order given: each puts a score (a
corrected result, or an adjusted score of Law 12C) on one table's board, with its reason for
the players. A change for a board that table was not scheduled to play is refused, naming
`board`; later changes to the same board replace earlier ones (the record keeps them all)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shared.scores.adjustments import Played, Score, ScoreError
from shared.scores.movements import Round
from shared.scores.travellers import Result

Place = tuple[int, int, int]
"""A board at a table: (board, NS entrant, EW entrant)."""


@dataclass(frozen=True, slots=True)
class Adjustment:
    """The Director's score for `board` between `ns` and `ew`, and why."""

    board: int
    ns: int
    ew: int
    score: Score
    reason: str = ""

    @property
    def place(self) -> Place:
        return (self.board, self.ns, self.ew)


def scheduled(rounds: Iterable[Round]) -> frozenset[Place]:
    """Every board each table of a movement plays: the places an adjustment may name."""
    return frozenset((board, s.ns, s.ew) for rnd in rounds for s in rnd.tables
                     for board in s.boards)


def correct(score_ns: int) -> Played:
    """A result corrected by the Director (the score the table agreed, mis-recorded)."""
    return Played(score_ns, corrected=True)


def apply_adjustments(results: Sequence[Result], adjustments: Iterable[Adjustment],
                      places: frozenset[Place] | None = None) -> list[Result]:
    """The results with the Director's scores in place: an adjustment replaces the result of
    its board at its table, or gives one where none was obtained (the board not played in
    time, say) if the table was scheduled to play it (`places`; without them, only results
    there already can be adjusted)."""
    by_place = {(r.board, r.ns, r.ew): i for i, r in enumerate(results)}
    out = list(results)
    for adjustment in adjustments:
        i = by_place.get(adjustment.place)
        if i is not None:
            out[i] = Result(adjustment.board, adjustment.ns, adjustment.ew, adjustment.score)
        elif places is not None and adjustment.place in places:
            by_place[adjustment.place] = len(out)
            out.append(Result(adjustment.board, adjustment.ns, adjustment.ew,
                              adjustment.score))
        else:
            raise ScoreError(f"board {adjustment.board} was not played (nor scheduled) between "
                             f"{adjustment.ns} and {adjustment.ew}", "board")
    return out
