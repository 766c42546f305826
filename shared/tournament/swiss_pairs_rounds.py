"""A Swiss pairs' next round from the tournament's record (`shared.scores.swiss_pairs`): the
pairs by their VPs so far, no repeat of a meeting in the rounds recorded before it where the
field allows, the bye to the lowest pair that has not had one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shared.scores.movements import Round
from shared.scores.swiss_pairs import meetings, swiss_pairs_round
from shared.tournament.results import rounds_of
from shared.tournament.session import Tournament


def next_swiss_pairs_round(number: int, made: Tournament,
                           round_records: Sequence[Mapping[str, Any]],
                           vp: Mapping[int, float]) -> Round:
    """Round `number` of the Swiss pairs `made`, paired by `vp` (each pair's VPs so far:
    the results' rankings) against the rounds recorded before it (`round_started` records
    with their seatings)."""
    assert made.movement is not None
    before = [r for r in rounds_of(round_records, made) if r.number < number]
    byes = [pair for r in before for pair in r.sit_out]
    return swiss_pairs_round(number, len(made.entrants), made.movement.boards_per_round, vp,
                             meetings(before), byes)
