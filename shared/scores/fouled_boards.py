"""A fouled board (Law 87): a board whose deal differed at some tables from its correct form
(Law 87A), scored in groups (Law 87B: "the Director determines as closely as possible which
scores were obtained on the board in its correct form and which in the changed form(s). He
divides the scores on that basis into groups and rates each group separately").

How each group is rated: the EBU's procedure (Nick Doe, "Scoring of fouled boards", EBU Laws
& Ethics articles; the EBU White Book's method for Law 87B): each group is matchpointed apart,
as if the board had been due to be played as often as it was in the group's form, and its
matchpoints M factored to the full top by (M × E + (E − A)) / A, E the results expected on the
board and A those in the group. That is Neuberg's formula with A results of E expected
(`shared.scores.matchpoints.neuberg`: (M + 1) × E / A − 1), so that every group, and the
board, totals the same matchpoints as an unfouled board. The ACBL scores a fouled board the
same way (its scoring programs' Neuberg per group). At IMPs each group is compared apart too
(cross-IMPs within it; Butler: a datum of its own).

The EBU's further rule for a very small group (fewer than three results and under a third of
the field: artificial scores instead) is not applied: every group is factored up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from shared.scores.adjustments import ScoreError

Pair = tuple[int, int]
"""Where a board was played: the entrants (NS, EW) at the table."""

CORRECT = 0  # the group of the board's correct form (the places not named)


@dataclass(frozen=True, slots=True)
class FouledBoard:
    """A board fouled at some places (Law 87A): `groups`, each the places (NS, EW) that
    played one changed form of it (a board can be fouled twice over, two changed forms);
    every other place played its correct form. Group k (from 1) is `groups[k - 1]`, the
    correct form group 0."""

    board: int
    groups: tuple[frozenset[Pair], ...]
    reason: str = ""

    def __post_init__(self) -> None:
        seen: set[Pair] = set()
        for i, group in enumerate(self.groups):
            if not group:
                raise ScoreError(f"groups[{i}]: a changed form's group names one place or "
                                 "more", f"groups[{i}]")
            if seen & group:
                raise ScoreError(f"groups[{i}]: a place is in two groups", f"groups[{i}]")
            seen |= group

    def group_of(self, place: Pair) -> int:
        """The group of the result at `place`: 0 its correct form, k the k-th changed one."""
        for k, group in enumerate(self.groups, start=1):
            if place in group:
                return k
        return CORRECT


def groups_by_board(fouled: Iterable[FouledBoard]) -> dict[int, Mapping[Pair, int]]:
    """Each fouled board's places in a changed form and their group (the last marking of a
    board stands; one without groups is no longer fouled)."""
    last = {f.board: f for f in fouled}
    return {board: {place: k for k, group in enumerate(f.groups, start=1) for place in group}
            for board, f in last.items() if f.groups}
