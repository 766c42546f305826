"""Team matches scored: each board's IMPs between the two rooms (Law 78B), the match's margin
to victory points on the WBF's continuous scale, and the teams ranked by their VPs."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from shared.scores.adjustments import (
    ARTIFICIAL_IMPS,
    Artificial,
    Penalty,
    ScoreError,
    side_distribution,
)
from shared.scores.imps import imps
from shared.scores.matchpoints import Distribution
from shared.scores.movements import Match
from shared.scores.numbers import shown
from shared.scores.rankings import ranked
from shared.scores.travellers import Result
from shared.scores.victory_points import scale
from shared.scores.vocabulary import Direction, PenaltyUnit


@dataclass(frozen=True, slots=True)
class BoardSwing:
    """One board of a match: the open room's result (home NS), the closed room's (away NS),
    and each team's IMPs on it (signed: +10 and −10 for a swing of 10 to the home team)."""

    board: int
    open_room: Result
    closed_room: Result
    home_imps: float
    away_imps: float


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match scored: the IMPs each team won (the margin is their difference) and its VPs."""

    home: int
    away: int
    boards: tuple[BoardSwing, ...]
    home_imps: float
    away_imps: float
    home_vp: float
    away_vp: float


@dataclass(frozen=True, slots=True)
class TeamStanding:
    """A team's place: its VPs over its matches (ties share the rank), its net IMPs."""

    team: int
    rank: int
    matches: int
    vp: float
    imps: float  # net IMPs over the matches, the tie's first look


def _swing(ours: Distribution, theirs: Distribution) -> float:
    """IMPs of our NS scores in one room against the NS scores in the other, part by part."""
    return sum(w * v * imps(x - y) for x, w in ours for y, v in theirs)


def board_imps(open_room: Result, closed_room: Result) -> tuple[float, float]:
    """The IMPs the home team (NS in the open room) and the away team win on a board. An
    artificial score in a room gives each team the IMPs of its fault there (Law 12C2(b): +3, 0,
    −3); a weighted or split score, the IMPs of each part for its weight."""
    rooms = (open_room, closed_room)
    if any(isinstance(r.score, Artificial) for r in rooms):
        home = away = 0.0
        for room, home_side in ((open_room, Direction.NS), (closed_room, Direction.EW)):
            score = room.score
            if isinstance(score, Artificial):
                away_side = Direction.EW if home_side is Direction.NS else Direction.NS
                home += ARTIFICIAL_IMPS[score.fault(home_side)]
                away += ARTIFICIAL_IMPS[score.fault(away_side)]
        return home, away
    home_open = side_distribution(open_room.score, Direction.NS)
    home_closed = side_distribution(closed_room.score, Direction.EW)
    away_open = side_distribution(open_room.score, Direction.EW)
    away_closed = side_distribution(closed_room.score, Direction.NS)
    assert home_open and home_closed and away_open and away_closed
    return _swing(home_open, home_closed), -_swing(away_open, away_closed)


def vp_of(margin: float, boards: int) -> float:
    """The winner's VPs for a margin of IMPs (a fractional margin, from a weighted score,
    between its two whole margins' VPs in proportion)."""
    table = scale(boards)
    low = min(math.floor(abs(margin)), len(table) - 1)
    high = min(low + 1, len(table) - 1)
    won = table[low] + (table[high] - table[low]) * (abs(margin) - math.floor(abs(margin)))
    won = round(won, 2)
    return won if margin >= 0 else round(20 - won, 2)


def match_score(match: Match, results: Sequence[Result],
                penalties: Iterable[Penalty] = ()) -> MatchScore:
    """Score a match from its results: a board counts once both rooms have played it; the
    VPs follow the scale of the match's length (its scheduled boards); IMP penalties (Law
    90) come off the offending team's IMPs."""
    rooms: dict[tuple[int, int, int], Result] = {}
    for r in results:
        if {r.ns, r.ew} == {match.home, match.away} and r.board in match.boards:
            key = (r.board, r.ns, r.ew)
            if key in rooms:
                raise ScoreError(f"board {r.board} has two results in one room", "board")
            rooms[key] = r
    swings = []
    for board in match.boards:
        open_room = rooms.get((board, match.home, match.away))
        closed_room = rooms.get((board, match.away, match.home))
        if open_room is None or closed_room is None:
            continue
        home, away = board_imps(open_room, closed_room)
        swings.append(BoardSwing(board, open_room, closed_room, home, away))
    # the scoresheet: each board's IMPs to the team that won them (both, when an unbalanced
    # adjusted score gives both teams IMPs)
    home_total = sum(max(s.home_imps, 0.0) for s in swings)
    away_total = sum(max(s.away_imps, 0.0) for s in swings)
    for penalty in penalties:
        if penalty.entrant not in (match.home, match.away) or penalty.board not in match.boards:
            raise ScoreError(f"team {penalty.entrant} did not play board {penalty.board} "
                             f"in this match", "board")
        if penalty.unit is not PenaltyUnit.IMPS:
            raise ScoreError("a team's penalty is in IMPs", "unit")
        if penalty.entrant == match.home:
            home_total -= penalty.amount
        else:
            away_total -= penalty.amount
    home_vp = vp_of(home_total - away_total, len(match.boards))
    return MatchScore(match.home, match.away, tuple(swings), home_total, away_total,
                      home_vp, round(20 - home_vp, 2))


def team_rankings(matches: Iterable[MatchScore]) -> tuple[TeamStanding, ...]:
    """The teams by their total VPs (ties by net IMPs, then number)."""
    vp: dict[int, float] = defaultdict(float)
    net: dict[int, float] = defaultdict(float)
    played: dict[int, int] = defaultdict(int)
    for m in matches:
        for team, won, diff in ((m.home, m.home_vp, m.home_imps - m.away_imps),
                                (m.away, m.away_vp, m.away_imps - m.home_imps)):
            vp[team] += won
            net[team] += diff
            played[team] += 1
    order = ranked([(team, vp[team]) for team in vp])
    standings = [TeamStanding(team, rank, played[team], shown(value, 2), shown(net[team], 4))
                 for team, rank, value in order]
    return tuple(sorted(standings, key=lambda s: (s.rank, -s.imps, s.team)))
