"""Movements: which entrants meet at which table on which boards, round by round.

Entrants are numbered from 1. A round gives each table its NS entrant, its EW entrant and its
boards; an entrant without opponents in a round sits out (`sit_out`). Boards come in groups of
`boards_per_round` (group g: boards g × boards_per_round + 1 …).
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.scores.adjustments import ScoreError


class MovementError(ScoreError):
    """A movement that does not fit its entrants or boards, naming the field."""


@dataclass(frozen=True, slots=True)
class Seating:
    """One table in one round: who sits NS, who EW, and the boards they play."""

    table: int
    ns: int
    ew: int
    boards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Seating, ...]
    sit_out: tuple[int, ...] = ()


def _boards(group: int, per_round: int) -> tuple[int, ...]:
    return tuple(range(group * per_round + 1, (group + 1) * per_round + 1))


def _check(count: int, least: int, field: str, per_round: int) -> None:
    if count < least:
        raise MovementError(f"{field} must be at least {least}, not {count}", field)
    if per_round < 1:
        raise MovementError(f"boards_per_round must be at least 1, not {per_round}",
                            "boards_per_round")


def mitchell(pairs: int, boards_per_round: int, rounds: int | None = None) -> list[Round]:
    """A Mitchell: ⌈pairs / 2⌉ tables, the NS pairs (1 … tables) stay at their table, the EW
    pairs (tables + 1 …) move up one table a round and the boards down one. With an even number
    of tables the EW pairs skip a table after half the rounds, so that no pair meets a board
    group twice; they then play at most tables − 1 rounds. An odd number of pairs leaves the
    last EW place empty: its NS opponents sit out. Each pair is ranked in its own direction."""
    _check(pairs, 3, "pairs", boards_per_round)
    tables = (pairs + 1) // 2
    even = tables % 2 == 0
    most = tables - 1 if even else tables
    rounds = most if rounds is None else rounds
    if not 1 <= rounds <= most:
        raise MovementError(f"a Mitchell of {tables} tables plays 1 to {most} rounds, "
                            f"not {rounds}", "rounds")
    result = []
    for r in range(rounds):
        skip = 1 if even and r >= tables // 2 else 0
        seated, out = [], []
        for ew_index in range(tables):
            table = (ew_index + r + skip) % tables
            ns, ew = table + 1, tables + ew_index + 1
            if ew > pairs:
                out.append(ns)
                continue
            seated.append(Seating(table + 1, ns, ew, _boards((table + r) % tables,
                                                            boards_per_round)))
        result.append(Round(r + 1, tuple(sorted(seated, key=lambda s: s.table)),
                            tuple(out)))
    return result


def robin_rounds(entrants: int) -> int:
    """How many rounds a round robin of `entrants` takes: one fewer than an even number,
    as many as an odd number (each sitting out once)."""
    return entrants if entrants % 2 else entrants - 1


def round_robin(entrants: int, rounds: int | None = None
                ) -> list[list[tuple[int, int | None]]]:
    """Every entrant meets every other once (the circle method): rounds of meetings (a, b), b
    None when a sits out (an odd number of entrants); the first `rounds` only (all: None)."""
    players = list(range(1, entrants + 1)) + ([0] if entrants % 2 else [])  # 0: nobody
    fixed, rest = players[-1], players[:-1]
    m = len(rest)
    schedule: list[list[tuple[int, int | None]]] = []
    for r in range(m if rounds is None else min(rounds, m)):
        turn = rest[r:] + rest[:r]
        meetings = [(turn[0], fixed)] + [(turn[k], turn[m - k]) for k in range(1, m // 2 + 1)]
        schedule.append([(a, b) if b else (a, None) if a else (b, None) for a, b in meetings])
    return schedule


def howell(pairs: int, boards_per_round: int, rounds: int | None = None) -> list[Round]:
    """A Howell for pairs, played online: every pair meets every other once (pairs − 1 rounds,
    or pairs with an odd number, each pair sitting out once), and in each round every table
    plays that round's boards, so each pair plays each board group once and is ranked in one
    field. (At a club the boards would have to move between tables instead; online each table
    has its own copy.)"""
    _check(pairs, 3, "pairs", boards_per_round)
    most = robin_rounds(pairs)
    rounds = most if rounds is None else rounds
    if not 1 <= rounds <= most:
        raise MovementError(f"a Howell of {pairs} pairs plays 1 to {most} rounds, "
                            f"not {rounds}", "rounds")
    result = []
    for r, meetings in enumerate(round_robin(pairs, rounds)):
        seated, out = [], []
        for a, b in meetings:
            if b is None:
                out.append(a)
                continue
            # alternate the directions so that each pair sits NS and EW in turn
            ns, ew = (a, b) if (r + a) % 2 else (b, a)
            seated.append((ns, ew))
        result.append(Round(r + 1, tuple(Seating(t + 1, ns, ew, _boards(r, boards_per_round))
                                         for t, (ns, ew) in enumerate(sorted(seated))),
                            tuple(out)))
    return result


@dataclass(frozen=True, slots=True)
class Match:
    """A team match: the home team sits NS in the open room (table 2k − 1) and EW in the
    closed room (table 2k), on the same boards."""

    home: int
    away: int
    boards: tuple[int, ...]

    def rooms(self, first_table: int) -> tuple[Seating, Seating]:
        return (Seating(first_table, self.home, self.away, self.boards),
                Seating(first_table + 1, self.away, self.home, self.boards))


def team_rounds(teams: int, boards_per_match: int, rounds: int | None = None,
                same_boards: bool = True) -> list[Round]:
    """A round robin of team matches: each round every match at two tables (the boards played
    in both rooms, the pairs swapped); a team left over sits out. All matches of a round play
    the round's boards (`same_boards`), or each its own group."""
    _check(teams, 2, "teams", boards_per_match)
    most = robin_rounds(teams)
    rounds = most if rounds is None else rounds
    if not 1 <= rounds <= most:
        raise MovementError(f"a round robin of {teams} teams plays 1 to {most} "
                            f"rounds, not {rounds}", "rounds")
    result = []
    for r, meetings in enumerate(round_robin(teams, rounds)):
        matches = [(a, b) for a, b in meetings if b is not None]
        out = tuple(a for a, b in meetings if b is None)
        result.append(matches_round(r + 1, matches, boards_per_match, same_boards, out))
    return result


def matches_round(number: int, matches: list[tuple[int, int]], boards_per_match: int,
                  same_boards: bool = True, sit_out: tuple[int, ...] = ()) -> Round:
    """One round of team matches (home, away), two tables each."""
    tables: list[Seating] = []
    for k, (home, away) in enumerate(matches):
        group = number - 1 if same_boards else (number - 1) * len(matches) + k
        tables.extend(Match(home, away, _boards(group, boards_per_match)).rooms(2 * k + 1))
    return Round(number, tuple(tables), sit_out)
