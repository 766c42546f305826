"""Movements checked by their properties: nobody at two tables at once, each pair meeting each
other at most once (a Howell: exactly once), no pair playing a board twice, each board played
the right number of times; team matches in two rooms; Swiss pairings without repeats."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from shared.scores.club_howell import HOWELL_STARTERS, club_howell
from shared.scores.movements import (
    MovementError,
    Round,
    howell,
    mitchell,
    robin_rounds,
    round_robin,
    team_rounds,
)
from shared.scores.swiss import swiss

pytestmark = pytest.mark.unit


def check_rounds(rounds: list[Round]) -> tuple[Counter[frozenset[int]], Counter[tuple[int, int]]]:
    """What every movement keeps: each entrant once a round (at a table or sitting out), the
    tables numbered once; returns the meetings and the (entrant, board) plays."""
    meetings: Counter[frozenset[int]] = Counter()
    plays: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        seated = [e for s in rnd.tables for e in (s.ns, s.ew)] + list(rnd.sit_out)
        assert len(seated) == len(set(seated)), rnd
        assert len({s.table for s in rnd.tables}) == len(rnd.tables)
        for s in rnd.tables:
            meetings[frozenset((s.ns, s.ew))] += 1
            for board in s.boards:
                plays[s.ns, board] += 1
                plays[s.ew, board] += 1
    return meetings, plays


@pytest.mark.parametrize("pairs", range(5, 31))
def test_mitchell_properties(pairs: int) -> None:
    """A Mitchell: NS pairs stay, EW pairs move; no pair plays a board twice nor meets a pair
    twice; with an odd number of tables every EW pair meets every NS pair, and with an even
    number the skip keeps the boards new at the cost of one round; every board is played at
    the same number of tables, less the sit-outs."""
    tables = (pairs + 1) // 2
    rounds = mitchell(pairs, 2)
    assert len(rounds) == (tables if tables % 2 else tables - 1)
    meetings, plays = check_rounds(rounds)
    assert max(meetings.values()) == 1 and max(plays.values()) == 1
    for rnd in rounds:
        assert all(s.ns == s.table and s.ew > tables for s in rnd.tables)
        groups = [s.boards for s in rnd.tables]
        assert len(groups) == len(set(groups))  # the boards are at one table at a time
        assert len(rnd.tables) + len(rnd.sit_out) == tables
        assert len(rnd.sit_out) == pairs % 2
    ns_pairs, ew_pairs = range(1, tables + 1), range(tables + 1, pairs + 1)
    if tables % 2:
        assert set(meetings) == {frozenset((n, e)) for n in ns_pairs for e in ew_pairs}
    board_tables = Counter(b for rnd in rounds for s in rnd.tables for b in s.boards)
    assert sum(board_tables.values()) == 2 * sum(len(r.tables) for r in rounds)
    if pairs % 2 == 0:
        assert set(board_tables.values()) == {len(rounds)}


def test_mitchell_refuses_what_does_not_fit() -> None:
    """A movement that does not fit its entrants is refused, naming the field."""
    for make, field in [(lambda: mitchell(2, 2), "pairs"), (lambda: mitchell(8, 0),
                                                            "boards_per_round"),
                        (lambda: mitchell(8, 2, rounds=4), "rounds"),
                        (lambda: howell(6, 2, rounds=6), "rounds"),
                        (lambda: team_rounds(1, 8), "teams")]:
        with pytest.raises(MovementError) as error:
            make()
        assert error.value.field == field


@pytest.mark.parametrize("pairs", range(3, 23))
def test_howell_every_pair_meets_every_other_once(pairs: int) -> None:
    """A Howell: every pair meets every other exactly once, never two at a time, and plays
    each board group at most once (exactly once unless it sat out); an odd number of pairs
    sits one out each round, each pair once."""
    rounds = howell(pairs, 3)
    meetings, plays = check_rounds(rounds)
    assert set(meetings) == {frozenset(p) for p in combinations(range(1, pairs + 1), 2)}
    assert set(meetings.values()) == {1}
    assert max(plays.values()) == 1
    boards = {b for rnd in rounds for s in rnd.tables for b in s.boards}
    out = Counter(e for rnd in rounds for e in rnd.sit_out)
    for pair in range(1, pairs + 1):
        assert sum(1 for (e, _), n in plays.items() if e == pair) == \
            len(boards) - 3 * out[pair]
    assert set(out.values()) == ({1} if pairs % 2 else set())


@pytest.mark.parametrize("teams", range(2, 13))
def test_team_matches_two_rooms_pairs_swapped(teams: int) -> None:
    """Team matches: each team meets every other once, in two rooms on the same boards, the
    home team NS in the open room and EW in the closed."""
    rounds = team_rounds(teams, 8)
    met: Counter[frozenset[int]] = Counter()
    for rnd in rounds:
        seats = Counter(e for s in rnd.tables for e in (s.ns, s.ew))
        assert set(seats.values()) == {2} and not set(seats) & set(rnd.sit_out)
        assert len(seats) + len(rnd.sit_out) == teams
        for open_room, closed_room in zip(rnd.tables[::2], rnd.tables[1::2], strict=True):
            assert (open_room.ns, open_room.ew) == (closed_room.ew, closed_room.ns)
            assert open_room.boards == closed_room.boards and len(open_room.boards) == 8
            met[frozenset((open_room.ns, open_room.ew))] += 1
    assert set(met) == {frozenset(p) for p in combinations(range(1, teams + 1), 2)}
    assert set(met.values()) == {1}


def test_swiss_pairs_by_score_without_repeats() -> None:
    """Swiss: the leaders meet, unless they have met; the bye goes to the lowest-placed team
    that has not had one; a field that cannot avoid a repeat is paired in order, the repeat
    counted."""
    standings = {1: 30.0, 2: 25.0, 3: 25.0, 4: 10.0, 5: 5.0}
    first = swiss(standings)
    assert first.matches == ((1, 2), (3, 4)) and first.bye == 5 and first.repeats == 0
    again = swiss(standings, met=[frozenset((1, 2))], byes=[5])
    assert again.matches == ((1, 3), (2, 5)) and again.bye == 4 and again.repeats == 0
    forced = swiss({1: 1.0, 2: 0.0}, met=[frozenset((1, 2))])
    assert forced.matches == ((1, 2),) and forced.repeats == 1


def test_swiss_rounds_of_a_whole_event_never_repeat() -> None:
    """Seven Swiss rounds of 16 teams, the scores moving each round: no match repeats (a
    field of 16 always allows it)."""
    teams = range(1, 17)
    score = {t: 0.0 for t in teams}
    met: set[frozenset[int]] = set()
    for rnd in range(7):
        pairing = swiss(score, met)
        assert pairing.repeats == 0 and pairing.bye is None
        assert sorted(t for m in pairing.matches for t in m) == list(teams)
        for home, away in pairing.matches:
            met.add(frozenset((home, away)))
            score[home if (home * 7 + away + rnd) % 3 else away] += 12
    assert len(met) == 7 * 8


@pytest.mark.parametrize("pairs", [p for p in range(7, 41) if (p + 1) // 2 in HOWELL_STARTERS])
def test_club_howell_moving_boards(pairs: int) -> None:
    """A club Howell: every pair meets every other exactly once, plays every board group once
    (unless it sat out that round), and a round's tables each play a different group, since the
    boards move; every group is played as many times as every other."""
    rounds = club_howell(pairs, 2)
    tables = (pairs + 1) // 2
    assert len(rounds) == 2 * tables - 1
    meetings, plays = check_rounds(rounds)
    assert set(meetings) == {frozenset(p) for p in combinations(range(1, pairs + 1), 2)}
    assert set(meetings.values()) == {1} and max(plays.values()) == 1
    out = Counter(e for rnd in rounds for e in rnd.sit_out)
    for rnd in rounds:
        groups = [s.boards for s in rnd.tables]
        assert len(groups) == len(set(groups))
        assert len(rnd.tables) == tables - pairs % 2
    for pair in range(1, pairs + 1):
        assert sum(1 for (e, _), n in plays.items() if e == pair) == \
            2 * (len(rounds) - out[pair])
    board_tables = Counter(b for rnd in rounds for s in rnd.tables for b in s.boards)
    assert len(set(board_tables.values())) == 1
    assert set(out.values()) == ({1} if pairs % 2 else set())


def test_club_howell_refuses_sizes_without_a_starter() -> None:
    """4, 6 and 10 pairs have no club Howell here: refused, naming the field."""
    for pairs in (4, 6, 10):
        with pytest.raises(MovementError) as error:
            club_howell(pairs, 2)
        assert error.value.field == "pairs"


def test_a_round_robins_first_rounds_are_those_of_the_whole_schedule() -> None:
    """The results plan only the rounds a movement plays (a Howell of 2,000 pairs over two
    rounds is not 1,999 rounds computed): the first rounds are the same ones, and the count
    of rounds is the circle method's (n − 1 for even n, n for odd)."""
    for n in (4, 7, 12):
        whole = round_robin(n)
        assert len(whole) == robin_rounds(n)
        for k in (1, 2, len(whole), len(whole) + 3):
            assert round_robin(n, k) == whole[:k]
