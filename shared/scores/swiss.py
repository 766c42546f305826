"""Swiss pairings for teams (or pairs): the next round's matches by the standings, the leaders
against each other, with no repeat of an earlier match where the field allows one."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from shared.scores.movements import MovementError

SEARCH_STEPS = 200_000  # the search for a pairing without repeats gives up after so many steps


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's matches, the higher-placed entrant first (home), and who has the bye."""

    matches: tuple[tuple[int, int], ...]
    bye: int | None
    repeats: int  # matches that repeat an earlier one (0 unless the field forced it)


def _pair(order: list[int], met: Collection[frozenset[int]], steps: list[int]
          ) -> list[tuple[int, int]] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            return None
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met, steps)
        if tail is not None:
            return [(first, other), *tail]
    return None


def swiss(standings: Mapping[int, float], met: Collection[frozenset[int]] = (),
          byes: Collection[int] = ()) -> Pairing:
    """Pair the entrants by their score (`standings`, ties by number): each with the next one
    below it whom it has not met, backtracking where that leaves others unpairable. An odd
    field gives the bye to the lowest-placed entrant that has not had one. If no pairing avoids
    every repeat, the entrants are paired in order and the repeats counted."""
    if len(standings) < 2:
        raise MovementError("a Swiss round needs at least two entrants", "standings")
    order = sorted(standings, key=lambda e: (-standings[e], e))
    bye = None
    if len(order) % 2:
        bye = next((e for e in reversed(order) if e not in byes), order[-1])
        order.remove(bye)
    met_set = frozenset(met)
    found = _pair(order, met_set, [0])
    if found is None:
        found = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    repeats = sum(1 for a, b in found if frozenset((a, b)) in met_set)
    return Pairing(tuple(found), bye, repeats)
