"""Shared by the results tests: entrants, a movement's round records as the gateway writes
them, and Law 78B's IMP table written out from the Law (independently of shared.scores)."""

from __future__ import annotations

from typing import Any

from shared.tournament.entrants import Entrant, plan, seating_map
from shared.tournament.session import Tournament

# Law 78B: the upper bound of each row's difference and its IMPs
LAW_78B = [(10, 0), (40, 1), (80, 2), (120, 3), (160, 4), (210, 5), (260, 6), (310, 7),
           (360, 8), (420, 9), (490, 10), (590, 11), (740, 12), (890, 13), (1090, 14),
           (1290, 15), (1490, 16), (1740, 17), (1990, 18), (2240, 19), (2490, 20), (2990, 21),
           (3490, 22), (3990, 23)]


def imps_by_law(difference: int) -> int:
    for bound, imps in LAW_78B:
        if abs(difference) <= bound:
            return imps if difference >= 0 else -imps
    return 24 if difference > 0 else -24


def entrants(n: int) -> tuple[Entrant, ...]:
    """Pairs or teams named A, B, …, their players A1, A2, …"""
    return tuple(Entrant(i + 1, chr(65 + i), tuple(f"{chr(65 + i)}{k}" for k in range(1, 5)))
                 for i in range(n))


def round_records(made: Tournament) -> list[dict[str, Any]]:
    """Every round of the movement as the gateway records it on the tournament's topic."""
    assert made.movement is not None
    return [{"type": "round_started", "round": r.number,
             "seatings": {made.tables[s.table - 1]: seating_map(s) for s in r.tables},
             "sit_out": list(r.sit_out)} for r in plan(made.movement, len(made.entrants))]
