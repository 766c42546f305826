"""The WBF's continuous 20-victory-point scale (2013): a match's IMP margin to VPs.

The WBF Scoring Panel's technical report ("The New WBF IMP to VP Scales", Bavin, Bethe,
Bramley, Buchen; https://www.worldbridge.org/victory-point-scales.aspx): with τ = (√5 − 1) / 2
and the blitz margin X = 15 × √N for a match of N boards, the winner of I IMPs gets
VP = 10 + 10 × (1 − τ^(3I/X)) / (1 − τ³), capped at 20, to two decimals, the loser 20 − VP;
the two-decimal values are then nudged up by 0.01 where rounding made an IMP worth more than
the one before it, so that each further IMP is worth no more than the last.
"""

from __future__ import annotations

import math
from functools import cache

TAU = (math.sqrt(5) - 1) / 2
MAX_VP = 20.0
CENTRE = 10.0


def blitz(boards: int) -> float:
    """The margin that wins all 20 VPs: 15 × √boards (60 IMPs over 16 boards)."""
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    return 15 * math.sqrt(boards)


def _raw(margin: int, boards: int) -> float:
    r = TAU**3
    vp = CENTRE + CENTRE * (1 - math.pow(r, margin / blitz(boards))) / (1 - r)
    return min(MAX_VP, round(vp, 2))


@cache
def scale(boards: int) -> tuple[float, ...]:
    """The winner's VPs for each IMP margin from 0 to the blitz (20.00 beyond it), concave to
    the cent: where the rounded values would make a step larger than the one before, the
    value before is raised by 0.01, until no step is."""
    last = math.ceil(blitz(boards)) + 1
    cents = [round(_raw(margin, boards) * 100) for margin in range(last + 1)]
    changed = True
    while changed:
        changed = False
        for i in range(2, len(cents)):
            if cents[i] - cents[i - 1] > cents[i - 1] - cents[i - 2]:
                cents[i - 1] += 1
                changed = True
                break
    return tuple(c / 100 for c in cents)


def victory_points(margin: int, boards: int) -> tuple[float, float]:
    """The VPs of a match won by `margin` IMPs (negative: lost) over `boards` boards: the
    side's, then its opponents' (together 20)."""
    table = scale(boards)
    won = table[min(abs(margin), len(table) - 1)]
    won = round(won, 2)
    return (won, round(MAX_VP - won, 2)) if margin >= 0 else (round(MAX_VP - won, 2), won)
