"""Pairs tied for first place, split as the EBU orders it (the EBU White Book, §143 "EBU Split
Tie Procedures", Law 78D leaving it to the regulations): pairs with the same final score share
their place (§143.1), and a tie is split only when it must be (§143.4: the winners of the
event; the last qualifying place and an indivisible prize are the Director's, not modelled),
so here the tie for first place in each field alone. Between the tied pairs (§143.7.1):

1. the result of their match: the matchpoints (or IMPs) each scored on the boards they played
   against each other (two pairs tied, who met; §143.5.1: the basic method of scoring);
2. tie-break points: the final scores of each one's direct opponents (§143.5.2), compared on
   an equal basis (§143.6.2: their mean, where the counts differ). They "never apply in
   all-play-all events": there, pairs tied on equal scores have the same opponents' total, so
   the rule tells none apart by itself;
3. point-a-board count-back over all the boards played (§143.7.1(d)): a board won, drawn or
   lost by the basic method of scoring, read here as above, at or below average (at
   matchpoints half the board's top; at IMPs 0), as a share of the boards played (§143.6.2);
4. still equal: the tie stands (§143.7.1(e): a random ballot is the Director's).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from shared.scores.rankings import Standing
from shared.scores.tie_breaks import ROUNDING, TieBreak, broken
from shared.scores.travellers import Line, Traveller

RULES = (TieBreak.HEAD_TO_HEAD, TieBreak.TIE_BREAK_POINTS, TieBreak.POINT_A_BOARD)


def _sides(line: Line) -> tuple[tuple[int, int, float, float | None],
                                tuple[int, int, float, float | None]]:
    """Each side of a line: the entrant, its opponent, its points and percentage."""
    r = line.result
    return ((r.ns, r.ew, line.ns_points, line.ns_percent),
            (r.ew, r.ns, line.ew_points, line.ew_percent))


def _keys(tied: Sequence[int], boards: Sequence[Traveller], final: Mapping[int, float]
          ) -> dict[int, tuple[float, ...]]:
    group = set(tied)
    met: dict[int, float] = defaultdict(float)
    against: dict[int, set[int]] = defaultdict(set)
    won: dict[int, float] = defaultdict(float)
    played: dict[int, int] = defaultdict(int)
    meetings = 0
    for t in boards:
        for line in t.lines:
            for me, them, points, percent in _sides(line):
                if me not in group:
                    continue
                against[me].add(them)
                played[me] += 1
                mark = points if percent is None else percent - 50.0
                won[me] += 1.0 if mark > 0 else 0.5 if mark == 0 else 0.0
                if them in group:
                    met[me] += points
                    meetings += 1
    head_to_head = len(group) == 2 and meetings > 0
    return {p: (round(met[p], ROUNDING) if head_to_head else 0.0,
                round(sum(final[o] for o in against[p]) / len(against[p]), ROUNDING)
                if against[p] else 0.0,
                round(won[p] / played[p], ROUNDING) if played[p] else 0.0)
            for p in tied}


def pair_standings(standings: Sequence[Standing], boards: Sequence[Traveller]
                   ) -> list[tuple[Standing, TieBreak | None]]:
    """The pairs' standings with each field's tie for first place split by the EBU's order,
    each with the rule that placed it (None: not tied for first, or still tied)."""
    final = {s.entrant: s.percent if s.percent is not None else s.points for s in standings}
    out: list[tuple[Standing, TieBreak | None]] = []
    fields: dict[object, list[Standing]] = defaultdict(list)
    for s in standings:
        fields[s.direction].append(s)
    for field in fields.values():
        by_pair = {s.entrant: s for s in field}
        order = [(s.entrant, final[s.entrant])
                 for s in sorted(field, key=lambda s: (s.rank, s.entrant))]
        for placed in broken(order, lambda tied: _keys(tied, boards, final), RULES,
                             first_only=True):
            out.append((replace(by_pair[placed.team], rank=placed.rank), placed.tie_break))
    return out
