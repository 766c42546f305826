"""Team matches scored board-a-match and by aggregate (docs/scoring.md): board-a-match 1, ½ or
0 a board on the two rooms' net score (the ACBL Handbook, "Types of team events"), aggregate
the net total points (Law 78C), against hand-worked examples: the six boards of the Stafford
club's "Point a Board" table (https://www.bridgewebs.com/stafford/page92.html) and the ACBL's
+120 / −110."""

from __future__ import annotations

import csv
import io

import pytest

from shared.scores.adjustments import Artificial, Penalty, Played as P, weighted
from shared.scores.movements import Match
from shared.scores.team_forms import board_points, form_match, form_rankings
from shared.scores.travellers import Result
from shared.scores.vocabulary import Fault, PenaltyUnit, Scoring, TeamScoring
from shared.tournament.entrants import Movement, MovementKind, movement_of
from shared.tournament.errors import TournamentError
from shared.tournament.results import results
from shared.tournament.results_formats import FormatError, write_csv, write_pbn
from shared.tournament.session import Tournament
from tests.unit.tournament_fixtures import entrants, round_records

pytestmark = pytest.mark.unit
BAM, AGG = TeamScoring.BOARD_A_MATCH, TeamScoring.AGGREGATE

# Stafford's table: our NS score (open room), their NS score (closed room), point-a-board
STAFFORD = [(120, 110, 1.0), (920, 490, 1.0), (940, 980, 0.0), (630, 620, 1.0),
            (-100, -100, 0.5), (-100, 980, 0.0)]


def _rooms(board: int, ours: int, theirs: int) -> tuple[Result, Result]:
    return Result(board, 1, 2, P(ours)), Result(board, 2, 1, P(theirs))


@pytest.mark.parametrize(("ours", "theirs", "won"), STAFFORD)
def test_board_a_match_one_half_or_nothing_on_the_net_score(ours: int, theirs: int,
                                                            won: float) -> None:
    """ACBL Handbook: the better raw score wins the board (1), a tie ½ each; however small
    the difference (630 against 620: a win)."""
    assert board_points(*_rooms(1, ours, theirs), BAM) == (won, 1 - won)


def test_acbl_example_plus_120_minus_110_is_a_win() -> None:
    """The ACBL's example: NS +120, their teammates −110 (the other room's NS +110)."""
    assert board_points(*_rooms(1, 120, 110), BAM) == (1.0, 0.0)


def _stafford_results() -> list[Result]:
    return [r for b, (ours, theirs, _) in enumerate(STAFFORD, 1) for r in _rooms(b, ours, theirs)]


def test_stafford_match_board_a_match_and_aggregate_law_78c() -> None:
    """By hand: board-a-match 1 + 1 + 0 + 1 + ½ + 0 = 3½ to 2½; aggregate (Law 78C) the net
    points 10 + 430 − 40 + 10 + 0 − 1080 = −670 to +670."""
    match = Match(1, 2, tuple(range(1, 7)))
    bam = form_match(match, _stafford_results(), BAM)
    assert (bam.home_points, bam.away_points) == (3.5, 2.5)
    agg = form_match(match, _stafford_results(), AGG)
    assert (agg.home_points, agg.away_points) == (-670.0, 670.0)
    assert [(s.team, s.rank, s.points) for s in form_rankings([agg])] == [(2, 1, 670.0),
                                                                           (1, 2, -670.0)]


def test_adjusted_scores_part_by_part_and_artificial_by_fault() -> None:
    """A weighted score (Law 12C1(c)) part by part: 60 % of 620 and 40 % of −100 against
    +170 wins 60 % of the board; aggregate its mean, 0.6 × 620 − 0.4 × 100 − 170 = 162.
    An artificial score (12C2(a)) at board-a-match: 60 / 40 % of the board by fault; at
    aggregate nothing to either team. A penalty (Law 90) off the offender's points."""
    open_room = Result(1, 1, 2, weighted((60, 620), (40, -100)))
    closed_room = Result(1, 2, 1, P(170))
    assert board_points(open_room, closed_room, BAM) == pytest.approx((0.6, 0.4))
    assert board_points(open_room, closed_room, AGG) == pytest.approx((162.0, -162.0))
    artificial = Result(2, 1, 2, Artificial(Fault.NONE, Fault.DIRECTLY))
    assert board_points(artificial, Result(2, 2, 1, P(400)), BAM) == (0.6, 0.4)
    assert board_points(artificial, Result(2, 2, 1, P(400)), AGG) == (0.0, 0.0)
    match = form_match(Match(1, 2, (1, 2)), [open_room, closed_room], BAM,
                       [Penalty(1, 2, 0.25, PenaltyUnit.IMPS, "slow play (Law 90B2)")])
    assert (match.home_points, match.away_points) == pytest.approx((0.6, 0.15))


def test_only_a_round_robin_of_teams_takes_another_form() -> None:
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.HOWELL, 1, None, Scoring.MATCHPOINTS, 4, 2, [1, 2, 3],
                    team_scoring=BAM)
    assert caught.value.field == "movement.team_scoring"
    movement = movement_of(MovementKind.TEAMS, 2, None, Scoring.MATCHPOINTS, 2, 2, [1, 2],
                           team_scoring=AGG)
    assert Movement.from_map(movement.to_map()) == movement
    assert "team_scoring" not in movement_of(MovementKind.TEAMS, 2, None, Scoring.MATCHPOINTS,
                                             2, 2, [1, 2]).to_map()


def test_a_board_a_match_tournament_ranks_its_teams_by_boards_won() -> None:
    """Two teams, six boards, the Stafford scores: the open room (t-1, team 1 NS), the closed
    room (t-2, team 2 NS); the results document ranks team 1 first on 3½ of 6."""
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.TEAMS, 6, None, Scoring.MATCHPOINTS, 2, 2,
                           list(deals), team_scoring=BAM)
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), deals, entrants=entrants(2),
                      movement=movement)
    tables = {"t-1": {b: ours for b, (ours, _, _) in enumerate(STAFFORD, 1)},
              "t-2": {b: theirs for b, (_, theirs, _) in enumerate(STAFFORD, 1)}}
    doc = results(made, round_records(made), tables, [])
    assert doc["scoring"] == "board_a_match" and doc["teams"] is True
    assert doc["rankings"] == [{"entrant": 1, "rank": 1, "matches": 1, "points": 3.5},
                               {"entrant": 2, "rank": 2, "matches": 1, "points": 2.5}]
    assert [(b["board"], b["home_points"]) for b in doc["matches"][0]["boards"]] == [
        (b, won) for b, (_, _, won) in enumerate(STAFFORD, 1)]


def test_a_board_a_match_event_as_csv_and_refused_as_pbn() -> None:
    """The CSV carries the form's points (each ranking's, each board's), PBN's score tables
    (pairs only) refuse it with a clear error rather than fail."""
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.TEAMS, 6, None, Scoring.MATCHPOINTS, 2, 2,
                           list(deals), team_scoring=BAM)
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), deals, entrants=entrants(2),
                      movement=movement)
    tables = {"t-1": {b: ours for b, (ours, _, _) in enumerate(STAFFORD, 1)},
              "t-2": {b: theirs for b, (_, theirs, _) in enumerate(STAFFORD, 1)}}
    doc = results(made, round_records(made), tables, [])
    rows = list(csv.reader(io.StringIO(write_csv(doc))))
    assert rows[0][:6] == ["ranking", "rank", "entrant", "name", "matches", "points"]
    assert [r[:6] for r in rows[1:3]] == [["ranking", "1", "1", "A", "1", "3.5"],
                                          ["ranking", "2", "2", "B", "1", "2.5"]]
    assert rows[3][-2:] == ["home_points", "away_points"]
    assert [(r[3], r[6], r[7]) for r in rows[4:]] == [
        (str(b), str(won), str(1 - won)) for b, (_, _, won) in enumerate(STAFFORD, 1)]
    with pytest.raises(FormatError) as caught:
        write_pbn(doc, made)
    assert caught.value.field == "format"
