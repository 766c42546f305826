"""IMPs to victory points for a pairs event (a Butler or cross-IMP pairs): each pair's IMPs in
each round, the round's boards against the same opponents (its "match"), converted on the
WBF's continuous scale for the round's scheduled boards (`victory_points`, as a team match's
margin is: the pair's IMPs over the round are its margin), the pairs ranked by their total
VPs. A procedural penalty in IMPs (Law 90) comes off the round's IMPs before the conversion;
a round a pair sits out gives it no VPs (our choice: in a Howell every pair sits out as
often; the conditions of contest may say otherwise, Law 78D).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shared.scores.adjustments import Penalty, ScoreError
from shared.scores.movements import Round
from shared.scores.numbers import shown
from shared.scores.rankings import ranked
from shared.scores.team_rankings import vp_of
from shared.scores.travellers import Traveller
from shared.scores.vocabulary import PenaltyUnit, Scoring


@dataclass(frozen=True, slots=True)
class RoundVP:
    """One pair's round: its opponents, the boards counted, its IMPs and their VPs."""

    round: int
    entrant: int
    opponent: int
    boards: int
    imps: float
    vp: float


@dataclass(frozen=True, slots=True)
class PairVPStanding:
    """A pair's place by its total VPs (ties share the rank), its IMPs over the rounds."""

    entrant: int
    rank: int
    rounds: int
    imps: float
    vp: float


def round_vps(travellers: Iterable[Traveller], rounds: Sequence[Round],
              penalties: Iterable[Penalty] = ()) -> list[RoundVP]:
    """Each pair's IMPs and VPs in each round it played a board of (from the travellers'
    lines, IMPs: cross-IMPs or Butler)."""
    lines = {}
    for t in travellers:
        if t.scoring is Scoring.MATCHPOINTS:
            raise ScoreError("VPs convert IMPs: a pairs event scored in matchpoints has none",
                             "scoring")
        for line in t.lines:
            lines[t.board, line.result.ns, line.result.ew] = line
    off: dict[tuple[int, int], float] = defaultdict(float)  # (board, entrant) → IMPs
    for p in penalties:
        if p.unit is not PenaltyUnit.IMPS:
            raise ScoreError("a penalty converted to VPs is in IMPs", "unit")
        off[p.board, p.entrant] += p.amount
    out = []
    for rnd in rounds:
        for s in rnd.tables:
            found = [(b, lines[b, s.ns, s.ew]) for b in s.boards if (b, s.ns, s.ew) in lines]
            if not found:
                continue
            for me, them, ns in ((s.ns, s.ew, True), (s.ew, s.ns, False)):
                imps = sum(line.ns_points if ns else line.ew_points for _, line in found)
                imps -= sum(off.get((b, me), 0.0) for b, _ in found)
                out.append(RoundVP(rnd.number, me, them, len(found), shown(imps, 4),
                                   vp_of(imps, len(s.boards))))
    return out


def pair_vp_rankings(played: Iterable[RoundVP]) -> tuple[PairVPStanding, ...]:
    """The pairs by their total VPs."""
    vp: dict[int, float] = defaultdict(float)
    imps: dict[int, float] = defaultdict(float)
    count: dict[int, int] = defaultdict(int)
    for r in played:
        vp[r.entrant] += r.vp
        imps[r.entrant] += r.imps
        count[r.entrant] += 1
    return tuple(PairVPStanding(e, rank, count[e], shown(imps[e], 4), shown(value, 2))
                 for e, rank, value in ranked([(e, vp[e]) for e in vp]))
