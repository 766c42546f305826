"""Ties between teams on equal VPs broken as the conditions of contest order it (Law 78D), in
the order the Contract Bridge Association of Ireland's "Breaking Ties in Team Competitions"
gives (http://cbai.ie/education/tournament-direction/breaking-ties-in-team-competitions/; the
WBF's General Conditions of Contest order them so too, their text was not in this session's
sources):

1. the direct match: the VPs the tied teams won in their matches against each other (two
   teams; more than two only when all have met each other), then, still equal, the IMPs of
   those matches (their net margin);
2. the IMP quotient: IMPs won over IMPs lost in all the team's matches.

Teams still equal share the rank (the CBAI's further steps, the margin against the next
highest team and a play-off, are left to the Director). Each team separated from another by
a rule is marked with it, so that the results say why a tie was broken.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from shared.scores.team_rankings import MatchScore, TeamStanding

ROUNDING = 6  # places two values are compared to


class TieBreak(enum.StrEnum):
    """The rule that separated a team from another on equal VPs."""

    HEAD_TO_HEAD_VP = "head_to_head_vp"
    HEAD_TO_HEAD_IMPS = "head_to_head_imps"
    IMP_QUOTIENT = "imp_quotient"
    # pairs (`shared.scores.pair_tie_breaks`, the EBU White Book §143.7.1)
    HEAD_TO_HEAD = "head_to_head"
    TIE_BREAK_POINTS = "tie_break_points"
    POINT_A_BOARD = "point_a_board"


@dataclass(frozen=True, slots=True)
class Placed:
    team: int
    rank: int
    tie_break: TieBreak | None


def _quotient(team: int, matches: Sequence[MatchScore]) -> float:
    won = lost = 0.0
    for m in matches:
        if team == m.home:
            won, lost = won + m.home_imps, lost + m.away_imps
        elif team == m.away:
            won, lost = won + m.away_imps, lost + m.home_imps
    return won / lost if lost > 0 else float("inf") if won > 0 else 0.0


def _keys(tied: Sequence[int], matches: Sequence[MatchScore]
          ) -> dict[int, tuple[float, float, float]]:
    """Each tied team's (VPs among the tied, net IMPs among them, IMP quotient); the first
    two are 0 for all unless every tied team has met every other."""
    group = set(tied)
    among = [m for m in matches if {m.home, m.away} <= group]
    met = {frozenset((m.home, m.away)) for m in among}
    everyone_met = all(frozenset((a, b)) in met for a in group for b in group if a < b)
    vp: dict[int, float] = defaultdict(float)
    net: dict[int, float] = defaultdict(float)
    if everyone_met:
        for m in among:
            vp[m.home] += m.home_vp
            vp[m.away] += m.away_vp
            net[m.home] += m.home_imps - m.away_imps
            net[m.away] += m.away_imps - m.home_imps
    return {t: (round(vp[t], ROUNDING), round(net[t], ROUNDING),
                round(_quotient(t, matches), ROUNDING)) for t in tied}


RULES = (TieBreak.HEAD_TO_HEAD_VP, TieBreak.HEAD_TO_HEAD_IMPS, TieBreak.IMP_QUOTIENT)


def break_ties(order: Sequence[tuple[int, float]], matches: Sequence[MatchScore]
               ) -> list[Placed]:
    """The teams in order of their VPs (`order`: team and VPs, best first), each group of
    equal VPs ordered by the rules, each team with its rank and the rule that set it apart
    from the nearest team above it that the rules tell from it (none: the nearest below);
    None when not tied, or when the rules tell none of its group apart (a shared rank)."""
    return broken(order, lambda tied: _keys(tied, matches), RULES)


Keys = Callable[[Sequence[int]], Mapping[int, tuple[float, ...]]]


def broken(order: Sequence[tuple[int, float]], keys_of: Keys, rules: Sequence[TieBreak],
           first_only: bool = False) -> list[Placed]:
    """`order` (entrant and value, best first) with each group of equal values ordered by
    `keys_of`'s keys (one a rule of `rules`, in order, higher first); `first_only`: the
    group tied for first place alone (the others share their rank)."""
    out: list[Placed] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and round(order[j][1], ROUNDING) == round(order[i][1], ROUNDING):
            j += 1
        tied = [team for team, _ in order[i:j]]
        if len(tied) == 1 or (first_only and i > 0):
            out += [Placed(t, i + 1, None) for t in tied]
        else:
            keys = keys_of(tied)
            ranked = sorted(tied, key=lambda t: (tuple(-k for k in keys[t]), t))
            for k, team in enumerate(ranked):
                # the rule that set it apart from the nearest team above it that the rules
                # tell from it (none above: below it); None when the rules tell none
                above = [t for t in ranked[:k] if keys[t] != keys[team]]
                below = [t for t in ranked[k + 1:] if keys[t] != keys[team]]
                other = above[-1] if above else below[0] if below else team
                rule = next((r for r, a, b in zip(rules, keys[team], keys[other], strict=True)
                             if a != b), None)
                same = k > 0 and keys[ranked[k - 1]] == keys[team]
                out.append(Placed(team, out[-1].rank if same else i + k + 1, rule))
        i = j
    return out


def team_standings(standings: Sequence[TeamStanding], matches: Sequence[MatchScore]
                   ) -> list[tuple[TeamStanding, TieBreak | None]]:
    """The teams' standings (`team_rankings`) re-ranked with their ties broken, each with
    the rule that placed it (None: not tied, or still tied)."""
    by_team = {s.team: s for s in standings}
    order = sorted(((s.team, s.vp) for s in standings), key=lambda tv: (-tv[1], tv[0]))
    return [(replace(by_team[p.team], rank=p.rank), p.tie_break)
            for p in break_ties(order, matches)]
