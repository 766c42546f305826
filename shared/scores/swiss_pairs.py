"""Swiss pairs: each round the pairs paired by their VPs so far (`shared.scores.swiss`: no
repeat meeting where the field allows, the bye to the lowest pair that has not had one), each
pair against the other at one table on the round's boards, every table the same boards
(online each table has its own copy): a short match whose IMPs (cross-IMPs or Butler over the
whole field) are converted to VPs (`shared.scores.pair_vps`). The higher-placed pair sits NS.

The form is the EBU's Swiss pairs ("each match scored by IMPs converted to VPs", the EBU's
Swiss pairs events; docs/scoring.md states the rules and their sources).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from shared.scores.movements import MovementError, Round, Seating
from shared.scores.swiss import swiss


def swiss_pairs_round(number: int, pairs: int, per: int, vp: Mapping[int, float],
                      met: Collection[frozenset[int]] = (), byes: Collection[int] = ()
                      ) -> Round:
    """Round `number` of a Swiss pairs of `pairs` pairs: the pairs by their VPs so far
    (`vp`, a pair without any at 0), no repeat of a meeting in `met` where the field allows,
    the bye (an odd field) to the lowest pair not in `byes`; table k seats the k-th match
    (higher-placed pair NS), every table on boards (number − 1) × per + 1 … number × per."""
    if pairs < 2:
        raise MovementError(f"pairs must be at least 2, not {pairs}", "pairs")
    if per < 1:
        raise MovementError(f"boards_per_round must be at least 1, not {per}",
                            "boards_per_round")
    pairing = swiss({p: vp.get(p, 0.0) for p in range(1, pairs + 1)}, met, byes)
    boards = tuple(range((number - 1) * per + 1, number * per + 1))
    tables = tuple(Seating(k + 1, ns, ew, boards) for k, (ns, ew) in enumerate(pairing.matches))
    return Round(number, tables, () if pairing.bye is None else (pairing.bye,))


def meetings(rounds: Iterable[Round]) -> list[frozenset[int]]:
    """The pairs that met in `rounds` (each table's NS and EW)."""
    return [frozenset((s.ns, s.ew)) for r in rounds for s in r.tables]
