"""Team matches scored board-a-match or by aggregate (total points), beside IMPs to VPs
(`team_rankings`). The home team sits NS in the open room and EW in the closed room, so on a
board its net score is the open room's NS score less the closed room's.

- **Board-a-match**: on each board the team with the better net score wins 1 point, a tie
  gives each ½, the loser 0, however small the difference (the ACBL Handbook, "Types of team
  events": "The team with the best raw score on a board earns one point. On a board in which
  there is a tie in the raw score, each team earns one half a point"; its example, +120 and
  −110, is a win).
- **Aggregate** (Law 78C, total point scoring: "the net total point score of all boards
  played is the score for each contestant"): each board's net score counts in full.

A weighted or split score is scored part by part for its weights, as the IMPs are. An
artificial score (Law 12C2(a)) in a room: board-a-match, each team the share of the board
its fault gives (60 / 50 / 40 %, 12C2(a)'s percentages, our choice); aggregate, no points to
either team on the board (our choice: Law 12C2 gives no total-point equivalent). A penalty
(Law 90) comes off the offender's total in the form's own points.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shared.scores.adjustments import (
    ARTIFICIAL_PERCENT,
    Artificial,
    Penalty,
    ScoreError,
    side_distribution,
)
from shared.scores.matchpoints import Distribution
from shared.scores.movements import Match
from shared.scores.numbers import shown
from shared.scores.rankings import ranked
from shared.scores.travellers import Result
from shared.scores.vocabulary import Direction, TeamScoring

FORMS = (TeamScoring.BOARD_A_MATCH, TeamScoring.AGGREGATE)


@dataclass(frozen=True, slots=True)
class FormBoard:
    """One board of a match: the two rooms' results and each team's points on it."""

    board: int
    open_room: Result
    closed_room: Result
    home_points: float
    away_points: float


@dataclass(frozen=True, slots=True)
class FormMatch:
    """A match scored board-a-match or by aggregate: each team's total points."""

    home: int
    away: int
    boards: tuple[FormBoard, ...]
    home_points: float
    away_points: float


@dataclass(frozen=True, slots=True)
class FormStanding:
    """A team's place by its points over its matches (ties share the rank)."""

    team: int
    rank: int
    matches: int
    points: float


def _bam(difference: float) -> float:
    return 1.0 if difference > 0 else 0.0 if difference < 0 else 0.5


def _parts(ours: Distribution, theirs: Distribution, form: TeamScoring) -> float:
    """The home team's points on a board from its two rooms' scores, part by part."""
    if form is TeamScoring.BOARD_A_MATCH:
        return sum(w * v * _bam(x - y) for x, w in ours for y, v in theirs)
    return sum(w * v * (x - y) for x, w in ours for y, v in theirs)


def board_points(open_room: Result, closed_room: Result, form: TeamScoring
                 ) -> tuple[float, float]:
    """The home and away teams' points on a board, board-a-match or aggregate."""
    if form not in FORMS:
        raise ScoreError(f"{form} is not scored board by board here", "scoring")
    rooms = ((open_room, Direction.NS), (closed_room, Direction.EW))
    artificial = [(r.score, side) for r, side in rooms if isinstance(r.score, Artificial)]
    if artificial:
        if form is TeamScoring.AGGREGATE:
            return 0.0, 0.0
        home = away = 0.0
        for score, home_side in artificial:
            assert isinstance(score, Artificial)
            away_side = Direction.EW if home_side is Direction.NS else Direction.NS
            home += ARTIFICIAL_PERCENT[score.fault(home_side)] / 100
            away += ARTIFICIAL_PERCENT[score.fault(away_side)] / 100
        return home / len(artificial), away / len(artificial)
    home_open = side_distribution(open_room.score, Direction.NS)
    home_closed = side_distribution(closed_room.score, Direction.EW)
    away_open = side_distribution(open_room.score, Direction.EW)
    away_closed = side_distribution(closed_room.score, Direction.NS)
    assert home_open and home_closed and away_open and away_closed
    home = _parts(home_open, home_closed, form)
    away_net = _parts(away_open, away_closed, form)  # the open room's NS less the closed's
    away = 1.0 - away_net if form is TeamScoring.BOARD_A_MATCH else -away_net
    return home, away


def form_match(match: Match, results: Sequence[Result], form: TeamScoring,
               penalties: Iterable[Penalty] = ()) -> FormMatch:
    """A match scored in `form` from its results: a board counts once both rooms have played
    it; a penalty comes off the offending team's points."""
    rooms = {(r.board, r.ns, r.ew): r for r in results
             if {r.ns, r.ew} == {match.home, match.away} and r.board in match.boards}
    boards = []
    for board in match.boards:
        open_room = rooms.get((board, match.home, match.away))
        closed_room = rooms.get((board, match.away, match.home))
        if open_room is not None and closed_room is not None:
            boards.append(FormBoard(board, open_room, closed_room,
                                    *board_points(open_room, closed_room, form)))
    home = sum(b.home_points for b in boards)
    away = sum(b.away_points for b in boards)
    for penalty in penalties:
        if penalty.entrant not in (match.home, match.away) or penalty.board not in match.boards:
            raise ScoreError(f"team {penalty.entrant} did not play board {penalty.board} "
                             f"in this match", "board")
        if penalty.entrant == match.home:
            home -= penalty.amount
        else:
            away -= penalty.amount
    return FormMatch(match.home, match.away, tuple(boards), home, away)


def form_rankings(matches: Iterable[FormMatch]) -> tuple[FormStanding, ...]:
    """The teams by their total points (board-a-match: boards won; aggregate: net points);
    equal totals share the rank."""
    points: dict[int, float] = defaultdict(float)
    played: dict[int, int] = defaultdict(int)
    for m in matches:
        for team, got in ((m.home, m.home_points), (m.away, m.away_points)):
            points[team] += got
            played[team] += 1
    return tuple(FormStanding(team, rank, played[team], shown(value, 4))
                 for team, rank, value in ranked([(t, points[t]) for t in points]))
