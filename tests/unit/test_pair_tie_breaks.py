"""Pairs tied for first place split in the EBU's order (the EBU White Book §143, "EBU Split Tie
Procedures": §143.4 a tie is split for the winners only, §143.7.1 the match between them, then
tie-break points, then point-a-board count-back; Law 78D leaves the order to the regulations;
docs/scoring.md). The examples are worked by hand below."""

from __future__ import annotations

import pytest

from shared.scores.adjustments import Played
from shared.scores.pair_tie_breaks import pair_standings
from shared.scores.rankings import Standing, pair_rankings
from shared.scores.tie_breaks import TieBreak
from shared.scores.travellers import Result, travellers

pytestmark = pytest.mark.unit

# Four pairs, three boards each played twice (top 2):
#   board 1: 1 v 2 +420, 3 v 4 +400: NS 1 2, EW 2 0; NS 3 0, EW 4 2
#   board 2: 2 v 3 +140, 4 v 1 +110: NS 2 2, EW 3 0; NS 4 0, EW 1 2
#   board 3: 2 v 4 +600, 3 v 1 +650: NS 2 0, EW 4 2; NS 3 2, EW 1 0
# 1: 4 of 6 (66.67 %), 4: 4 of 6, 2 and 3: 2 of 6 (33.33 %). 1 and 4 tie for first; they met
# on board 2, where 1 scored 2 and 4 scored 0: 1 first, 4 second (§143.7.1(a)). 2 and 3 tie
# for third and share it (§143.4: only the winners' tie is split).
HOWELL = [Result(1, 1, 2, Played(420)), Result(1, 3, 4, Played(400)),
          Result(2, 2, 3, Played(140)), Result(2, 4, 1, Played(110)),
          Result(3, 2, 4, Played(600)), Result(3, 3, 1, Played(650))]


def test_ebu_143_7_1_a_the_match_between_them_decides() -> None:
    boards = list(travellers(HOWELL).values())
    placed = pair_standings(pair_rankings(boards), boards)
    assert {s.entrant: (s.rank, s.percent, rule) for s, rule in placed} == {
        1: (1, 66.6667, TieBreak.HEAD_TO_HEAD), 4: (2, 66.6667, TieBreak.HEAD_TO_HEAD),
        2: (3, 33.3333, None), 3: (3, 33.3333, None)}
    unsplit = {s.entrant: s.rank for s in pair_rankings(boards)}
    assert unsplit[1] == unsplit[4] == 1


# Tie-break points (§143.5.2): pairs 1 and 2 tied on 60 % never met; 1 played 3 (55 %) and 4
# (45 %), mean 50; 2 played 5 (40 %) and 6 (50 %), mean 45: 1 first (§143.7.1(b)).
def test_ebu_143_7_1_b_tie_break_points_decide_when_they_never_met() -> None:
    boards = list(travellers([Result(1, 1, 3, Played(100)), Result(1, 2, 5, Played(100)),
                              Result(2, 4, 1, Played(100)), Result(2, 6, 2, Played(100))],
                             expected=2).values())
    given = [Standing(p, rank, 2, 0.0, None, 8.0, v) for p, rank, v in (
        (1, 1, 60.0), (2, 1, 60.0), (3, 3, 55.0), (6, 4, 50.0), (4, 5, 45.0), (5, 6, 40.0))]
    placed = {s.entrant: (s.rank, rule) for s, rule in pair_standings(given, boards)}
    assert placed[1] == (1, TieBreak.TIE_BREAK_POINTS)
    assert placed[2] == (2, TieBreak.TIE_BREAK_POINTS)


# Point-a-board count-back (§143.7.1(d)): 1 and 2 tied, the same opponents (3 and 4, each
# once on a board played twice, top 2: every result of 1 and 2 beats or ties, below):
#   board 1: 1 v 3 +200, 2 v 4 +100 → 1 2 (won), 2 0 (lost)
#   board 2: 1 v 4 +100, 2 v 3 +100 → 1 1 (drawn), 2 1 (drawn)
# 1: 1.5 boards of 2 won, 2: 0.5; the final scores given equal (as a Director's adjusted
# scores elsewhere might leave them), the opponents the same: 1 first on the count-back.
def test_ebu_143_7_1_d_point_a_board_count_back() -> None:
    boards = list(travellers([Result(1, 1, 3, Played(200)), Result(1, 2, 4, Played(100)),
                              Result(2, 1, 4, Played(100)), Result(2, 2, 3, Played(100))]
                             ).values())
    given = [Standing(1, 1, 2, 3.0, None, 4.0, 60.0), Standing(2, 1, 2, 3.0, None, 4.0, 60.0),
             Standing(3, 3, 2, 1.0, None, 4.0, 40.0), Standing(4, 3, 2, 1.0, None, 4.0, 40.0)]
    placed = {s.entrant: (s.rank, rule) for s, rule in pair_standings(given, boards)}
    assert placed == {1: (1, TieBreak.POINT_A_BOARD), 2: (2, TieBreak.POINT_A_BOARD),
                      3: (3, None), 4: (3, None)}


def test_a_tie_the_rules_cannot_split_is_shared() -> None:
    """Two pairs alike in every test (§143.7.1(e)): still first together, no rule named."""
    boards = list(travellers([Result(1, 1, 3, Played(100)), Result(1, 2, 4, Played(100))]
                             ).values())
    given = [Standing(1, 1, 1, 1.0, None, 2.0, 50.0), Standing(2, 1, 1, 1.0, None, 2.0, 50.0),
             Standing(3, 1, 1, 1.0, None, 2.0, 50.0), Standing(4, 1, 1, 1.0, None, 2.0, 50.0)]
    assert {(s.rank, rule) for s, rule in pair_standings(given, boards)} == {(1, None)}
