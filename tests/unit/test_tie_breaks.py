"""Ties on equal VPs broken in the order the CBAI's "Breaking Ties in Team Competitions" gives
(docs/scoring.md; Law 78D: the conditions of contest say how ties are broken): the direct
match's VPs, then its IMPs (more than two teams: only when all have met), then the IMP
quotient; each worked by hand below."""

from __future__ import annotations

import pytest

from shared.scores.team_rankings import MatchScore, team_rankings
from shared.scores.tie_breaks import TieBreak, team_standings

pytestmark = pytest.mark.unit


def _m(home: int, away: int, imps: tuple[float, float], vp: tuple[float, float]
       ) -> MatchScore:
    return MatchScore(home, away, (), imps[0], imps[1], vp[0], vp[1])


def _placed(matches: list[MatchScore]) -> list[tuple[int, int, float, str | None]]:
    return [(s.team, s.rank, s.vp, None if rule is None else str(rule))
            for s, rule in team_standings(team_rankings(matches), matches)]


def test_two_teams_tied_the_direct_match_decides() -> None:
    """1 and 2 on 26 VPs (12 + 14, 8 + 18); 1 won their match 12–8: 1 first, by it. Without
    the rule they would share first place (before: both rank 1)."""
    matches = [_m(1, 2, (20, 10), (12, 8)), _m(1, 3, (30, 10), (14, 6)),
               _m(2, 3, (40, 0), (18, 2))]
    assert _placed(matches) == [(1, 1, 26.0, "head_to_head_vp"),
                                (2, 2, 26.0, "head_to_head_vp"), (3, 3, 8.0, None)]


def test_a_drawn_direct_match_leaves_the_imp_quotient() -> None:
    """1 and 2 on 25 VPs, their match 10–10 on 15–15 IMPs; IMP quotients 45/25 = 1.8 and
    60/35 = 1.71: 1 first by the quotient."""
    matches = [_m(1, 2, (15, 15), (10, 10)), _m(1, 3, (30, 10), (15, 5)),
               _m(2, 3, (45, 20), (15, 5))]
    assert _placed(matches)[:2] == [(1, 1, 25.0, "imp_quotient"),
                                    (2, 2, 25.0, "imp_quotient")]


def test_three_teams_who_all_met_by_their_imps_between_them() -> None:
    """A circle, each 12–8: 1 beat 2 by 10 IMPs, 2 beat 3 by 20, 3 beat 1 by 5: 20 VPs each,
    20 among them each, net IMPs among them 2: +10, 1: +5, 3: −15."""
    matches = [_m(1, 2, (20, 10), (12, 8)), _m(2, 3, (30, 10), (12, 8)),
               _m(3, 1, (25, 20), (12, 8))]
    assert _placed(matches) == [(2, 1, 20.0, "head_to_head_imps"),
                                (1, 2, 20.0, "head_to_head_imps"),
                                (3, 3, 20.0, "head_to_head_imps")]


def test_teams_that_have_not_all_met_go_to_the_quotient_and_equal_ones_share() -> None:
    """A Swiss-like round: 1, 2 and 3 won 12–8, none met: the quotient (1: 40/20, 2: 20/10,
    3: 30/25): 1 and 2 still equal, sharing first, above 3 by the quotient; 3 third by it.
    The losers on 8: 6 (25/30) fourth, 4 and 5 (20/40, 10/20) sharing fifth; a group the
    rules cannot split at all is marked by none."""
    matches = [_m(1, 4, (40, 20), (12, 8)), _m(2, 5, (20, 10), (12, 8)),
               _m(3, 6, (30, 25), (12, 8))]
    placed = {team: (rank, rule) for team, rank, _, rule in _placed(matches)}
    quotient = TieBreak.IMP_QUOTIENT
    assert placed[1] == placed[2] == (1, quotient)
    assert placed[3] == (3, quotient)
    assert placed[6] == (4, quotient)
    assert placed[4] == placed[5] == (5, quotient)
    level = [_m(1, 2, (20, 10), (12, 8)), _m(3, 4, (20, 10), (12, 8))]
    assert _placed(level)[:2] == [(1, 1, 12.0, None), (3, 1, 12.0, None)]
