"""Individual events: every player enters alone; each round he partners another player against
two others, so that over the event he partners each other player once; each board is scored
as in a pairs event (Law 78A: matchpoints, Neuberg where boards are played unequal times), and
each player's score is the sum of his own side's over the boards he played (his percentage of
the tops he played for); one ranking of players.

The movements (`shared.scores.individual_movements`, `SIZES`): 8 players at two tables over
seven rounds by G. L. Sicherman's rotation, and 12, 16, 20 or 24 players over n − 1 rounds by
the complete Howell's circle rule; in each, each player partners each other once (criterion
1 of the EBU's ideal individual movement). Online every table plays the round's boards (each
its own copy): round n plays boards (n − 1) × per + 1 … n × per.

Each table's sides are partnerships, numbered `partnership(a, b)` = 10000 × a + b (a sits N or
E, b S or W; above any pair's or team's number, so that `is_partnership` tells them apart
without the event's kind), so that a round is an ordinary `Round` whose NS and EW are those
numbers, and the boards are scored as a pairs event's (`shared.scores.rankings`);
`player_rankings` gives each player the sum of his partnerships'.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from shared.scores.individual_movements import SIZES, moves, round_1, tables_of
from shared.scores.movements import MovementError, Round, Seating
from shared.scores.numbers import shown
from shared.scores.rankings import Standing, ranked

BASE = 10_000  # a partnership's number: BASE × (N or E) + (S or W); above any entrant's


def partnership(a: int, b: int) -> int:
    """The number of the partnership of player `a` (N or E) and player `b` (S or W)."""
    return BASE * a + b


def is_partnership(number: int) -> bool:
    """Whether a table's NS or EW number is an individual's partnership (not an entrant)."""
    return number >= BASE


def partners(number: int) -> tuple[int, int]:
    """The two players of partnership `number` (N or E first)."""
    return number // BASE, number % BASE


def seats(players: int = 8, rounds: int | None = None) -> list[dict[tuple[int, str], int]]:
    """Each round's seats: (table, seat) → player, by the movement's move of seats from round
    1's (`shared.scores.individual_movements`); all its rounds by default."""
    move = moves(players)
    out = [round_1(players)]
    for _ in range((players - 1 if rounds is None else rounds) - 1):
        out.append({move[place]: player for place, player in out[-1].items()})
    return out


def individual(players: int, per: int, rounds: int | None = None) -> list[Round]:
    """The individual movement of `players` players (a size in `SIZES`: four a table, n − 1
    rounds, each player partnering each other once), each table's NS and EW its partnerships'
    numbers (`partnership`), every table on the round's boards. Other fields raise
    `MovementError` naming `players` (with the sizes offered) or `rounds`."""
    if players not in SIZES:
        sizes = ", ".join(map(str, SIZES[:-1])) + f" or {SIZES[-1]}"
        raise MovementError(f"an individual seats {sizes} players (four a table, each "
                            f"partnering each other once), not {players}", "players")
    if per < 1:
        raise MovementError(f"boards_per_round must be at least 1, not {per}",
                            "boards_per_round")
    most = players - 1
    rounds = most if rounds is None else rounds
    if not 1 <= rounds <= most:
        raise MovementError(f"an individual of {players} players plays 1 to {most} rounds, "
                            f"not {rounds}", "rounds")
    out = []
    for n, at in enumerate(seats(players, rounds), start=1):
        boards = tuple(range((n - 1) * per + 1, n * per + 1))
        out.append(Round(n, tuple(
            Seating(t, partnership(at[t, "N"], at[t, "S"]), partnership(at[t, "E"], at[t, "W"]),
                    boards) for t in range(1, tables_of(players) + 1))))
    return out


def seat_of(seating: Seating, player: int) -> str | None:
    """Player `player`'s seat (N, E, S or W) at `seating`'s table, None when not there."""
    (n, s), (e, w) = partners(seating.ns), partners(seating.ew)
    return {n: "N", s: "S", e: "E", w: "W"}.get(player)


def seat_players(seating: Seating) -> dict[str, int]:
    """Seat → player at an individual's table."""
    (n, s), (e, w) = partners(seating.ns), partners(seating.ew)
    return {"N": n, "E": e, "S": s, "W": w}


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """A player's place: `points` the sum of his partnerships' (matchpoints after Neuberg and
    penalties, or IMPs), `top` the matchpoints he played for, `percent` their ratio."""

    player: int
    rank: int
    boards: int
    points: float
    top: float | None = None
    percent: float | None = None


def player_rankings(partnerships: Iterable[Standing]) -> tuple[PlayerStanding, ...]:
    """The players ranked from their partnerships' standings (one field): each player's
    points, boards and top summed over the partnerships he was in, ranked by percentage
    (matchpoints) or points (IMPs); equal values share the rank."""
    points: dict[int, float] = defaultdict(float)
    tops: dict[int, float] = defaultdict(float)
    boards: dict[int, int] = defaultdict(int)
    matchpoints = True
    for s in partnerships:
        matchpoints = s.top is not None
        for player in partners(s.entrant):
            points[player] += s.points
            tops[player] += s.top or 0.0
            boards[player] += s.boards
    value = {p: 100 * points[p] / tops[p] if matchpoints and tops[p] else points[p]
             for p in points}
    return tuple(PlayerStanding(p, rank, boards[p], shown(points[p], 4),
                                tops[p] if matchpoints else None,
                                shown(v, 4) if matchpoints else None)
                 for p, rank, v in ranked(list(value.items())))
