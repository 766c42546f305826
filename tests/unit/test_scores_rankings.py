"""Rankings from whole sessions, against an independent computation written here the slow,
obvious way: a Mitchell (per direction) and a Howell (one field) at matchpoints (Law 78A),
cross-IMPs (Law 78B), and a round robin of teams to victory points."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import pytest

from shared.scores.adjustments import Artificial, Penalty, Played, ScoreError, weighted
from shared.scores.imps import IMP_STEPS
from shared.scores.movements import Match, Round, howell, mitchell, team_rounds
from shared.scores.rankings import pair_rankings, scorecard
from shared.scores.team_rankings import match_score, team_rankings
from shared.scores.travellers import Result, travellers
from shared.scores.victory_points import victory_points
from shared.scores.vocabulary import Direction, Fault, PenaltyUnit, Scoring

pytestmark = pytest.mark.unit

SCORES = [-200, -100, -50, 110, 140, 170, 420, 450, 620, 650, 1430]


def play(rounds: list[Round], seed: int) -> list[Result]:
    rng = random.Random(seed)
    return [Result(board, s.ns, s.ew, Played(rng.choice(SCORES)))
            for rnd in rounds for s in rnd.tables for board in s.boards]


def slow_imps(diff: int) -> int:
    """Law 78B's table read row by row."""
    return sum(1 for step in IMP_STEPS if abs(diff) >= step) * (1 if diff >= 0 else -1)


def slow_matchpoints(results: list[Result]) -> dict[int, tuple[float, float]]:
    """Each pair's matchpoints and top, every result against every other on its board."""
    by_board: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    most = max(len(rs) for rs in by_board.values())
    totals: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for rs in by_board.values():
        n = len(rs)
        for r in rs:
            assert isinstance(r.score, Played)
            ns = 0.0
            for other in rs:
                if other is not r:
                    assert isinstance(other.score, Played)
                    ns += 2 if r.score.score_ns > other.score.score_ns else \
                        1 if r.score.score_ns == other.score.score_ns else 0
            ns = (ns + 1) * most / n - 1  # Neuberg when the board has fewer results
            for pair, points in ((r.ns, ns), (r.ew, 2 * (most - 1) - ns)):
                totals[pair][0] += points
                totals[pair][1] += 2 * (most - 1)
    return {pair: (mp, top) for pair, (mp, top) in totals.items()}


@pytest.mark.parametrize(("pairs", "seed"), [(14, 1), (16, 2), (15, 3), (21, 4)])
def test_law_78a_mitchell_ranked_per_direction(pairs: int, seed: int) -> None:
    """Law 78A over a Mitchell session: each pair's percentage equals the slow computation,
    NS and EW ranked apart, ranks in order of percentage."""
    results = play(mitchell(pairs, 2), seed)
    standings = pair_rankings(travellers(results).values(), by_direction=True)
    expected = slow_matchpoints(results)
    assert {s.entrant for s in standings} == set(expected)
    for s in standings:
        mp, top = expected[s.entrant]
        assert s.points == pytest.approx(mp, abs=1e-3) and s.top == pytest.approx(top)
        assert s.percent == pytest.approx(100 * mp / top, abs=1e-3)
        assert s.direction is (Direction.NS if s.entrant <= (pairs + 1) // 2 else Direction.EW)
    for direction in Direction:
        field = [s for s in standings if s.direction is direction]
        assert field[0].rank == 1
        assert all(a.percent is not None and b.percent is not None and a.percent >= b.percent
                   and a.rank <= b.rank for a, b in itertools.pairwise(field))


def test_howell_one_field_and_cross_imps() -> None:
    """A Howell ranks one field; in cross-IMPs each pair's total equals the slow sum of its
    IMPs against every other result on each board, per comparison."""
    results = play(howell(10, 2), 5)
    standings = pair_rankings(travellers(results).values())
    assert all(s.direction is None for s in standings) and len(standings) == 10
    imp_standings = pair_rankings(travellers(results, Scoring.CROSS_IMPS).values())
    slow: dict[int, float] = defaultdict(float)
    by_board: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    for rs in by_board.values():
        for r in rs:
            assert isinstance(r.score, Played)
            total = sum(slow_imps(r.score.score_ns - o.score.score_ns)
                        for o in rs if o is not r and isinstance(o.score, Played))
            slow[r.ns] += total / (len(rs) - 1)
            slow[r.ew] -= total / (len(rs) - 1)
    assert {s.entrant: s.points for s in imp_standings} == pytest.approx(dict(slow), abs=1e-3)


def test_teams_round_robin_to_victory_points() -> None:
    """Team matches: each board's IMPs between the rooms (Law 78B), the match's margin to
    WBF VPs, the teams ranked by their total VPs."""
    rounds = team_rounds(6, 8)
    results = play(rounds, 6)
    scores = []
    slow_vp: dict[int, float] = defaultdict(float)
    for rnd in rounds:
        for open_room in rnd.tables[::2]:
            match = Match(open_room.ns, open_room.ew, open_room.boards)
            scored = match_score(match, results)
            scores.append(scored)
            margin = 0
            for board in match.boards:
                here = next(r for r in results if (r.board, r.ns, r.ew) ==
                            (board, match.home, match.away))
                there = next(r for r in results if (r.board, r.ns, r.ew) ==
                             (board, match.away, match.home))
                assert isinstance(here.score, Played) and isinstance(there.score, Played)
                margin += slow_imps(here.score.score_ns - there.score.score_ns)
            assert scored.home_imps - scored.away_imps == margin
            home_vp, away_vp = victory_points(margin, 8)
            assert (scored.home_vp, scored.away_vp) == (home_vp, away_vp)
            slow_vp[match.home] += home_vp
            slow_vp[match.away] += away_vp
    standings = team_rankings(scores)
    assert {s.team: s.vp for s in standings} == pytest.approx(dict(slow_vp))
    assert [s.vp for s in standings] == sorted((s.vp for s in standings), reverse=True)
    assert all(s.matches == 5 for s in standings)


def test_team_match_with_the_directors_scores() -> None:
    """A team match with an artificial score (Law 12C2(b): +3 to the side in no way at
    fault, −3 to the side at fault), a weighted one (Law 12C1(c): each part's IMPs for its
    weight) and a procedural penalty in IMPs (Law 90); a fractional margin takes the VPs
    between its two whole margins."""
    match = Match(1, 2, (1, 2, 3))
    results = [Result(1, 1, 2, Played(620)), Result(1, 2, 1, Played(170)),  # 620 − 170: 10
               Result(2, 1, 2, Played(100)),  # the closed room could not play board 2:
               Result(2, 2, 1, Artificial(Fault.DIRECTLY, Fault.NONE)),  # home not at fault
               Result(3, 1, 2, weighted((50, 620), (50, -100))),  # 50 % of +620 and −100
               Result(3, 2, 1, Played(170))]  # against +170: 0.5 × 10 + 0.5 × −7 = 1.5
    scored = match_score(match, results)
    assert [(s.home_imps, s.away_imps) for s in scored.boards] == \
        [(10.0, -10.0), (3.0, -3.0), (1.5, -1.5)]
    assert (scored.home_imps, scored.away_imps) == (14.5, 0.0)
    low, high = victory_points(14, 3)[0], victory_points(15, 3)[0]
    assert scored.home_vp == round((low + high) / 2, 2)
    assert scored.home_vp + scored.away_vp == pytest.approx(20)
    penalised = match_score(match, results, [Penalty(2, 1, 3, PenaltyUnit.IMPS)])
    assert penalised.home_imps == 11.5 and penalised.home_vp < scored.home_vp
    with pytest.raises(ScoreError) as error:
        match_score(match, results, [Penalty(4, 1, 3, PenaltyUnit.IMPS)])
    assert error.value.field == "board"


def test_ties_share_their_rank() -> None:
    """Equal percentages share a rank, and the next pair's rank counts them (1, 1, 3)."""
    results = [Result(1, 1, 2, Played(420)), Result(1, 3, 4, Played(420)),
               Result(1, 5, 6, Played(-50))]
    standings = pair_rankings(travellers(results).values(), by_direction=True)
    ns = [(s.entrant, s.rank) for s in standings if s.direction is Direction.NS]
    assert ns == [(1, 1), (3, 1), (5, 3)]


def test_scorecard_sums_to_the_ranking() -> None:
    """An entrant's scorecard lists its boards with its own side's matchpoints (Law 78A), and
    they add up to its points in the ranking."""
    results = play(mitchell(10, 2), 7)
    boards = list(travellers(results).values())
    standings = {s.entrant: s for s in pair_rankings(boards, by_direction=True)}
    for pair in (1, 5, 6, 10):
        card = scorecard(boards, pair)
        assert [c.board for c in card] == sorted(c.board for c in card)
        assert len(card) == standings[pair].boards
        assert sum(c.points for c in card) == pytest.approx(standings[pair].points, abs=1e-3)
        assert all(c.direction is (Direction.NS if pair <= 5 else Direction.EW) for c in card)
        assert all(c.opponent != pair for c in card)
