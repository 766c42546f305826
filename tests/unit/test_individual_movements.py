"""Individual movements of every size offered (docs/scoring.md, "Individuals"): 8 players by
G. L. Sicherman's rotation, 12, 16, 20 and 24 by the complete Howell's circle rule
(`shared.scores.individual_movements`). The checks a scorer makes of a movement: each player
partners each other at most once (exactly once over all its rounds: criterion 1 of the EBU's
ideal individual movement, John Pain, https://www.ebu.co.uk/newsletters/?id=11&page=10&print=1),
every table every round has four distinct players, every board is played the same number of
times, and no player plays a board twice. And a 12's two boards scored by hand (Law 78A)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest

from shared.scores.adjustments import Played
from shared.scores.individual_movements import SIZES, moves
from shared.scores.individuals import individual, partners, player_rankings, seat_players
from shared.scores.movements import Round
from shared.scores.rankings import pair_rankings
from shared.scores.travellers import Result, travellers
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import MovementKind, movement_of
from shared.tournament.errors import TournamentError

pytestmark = pytest.mark.unit


def faults(rounds: list[Round], players: int) -> list[str]:
    """What is wrong with an individual's rounds (nothing: [])."""
    out = []
    together: Counter[frozenset[int]] = Counter()
    boards: Counter[int] = Counter()
    met: Counter[tuple[int, int]] = Counter()
    for r in rounds:
        seated = []
        for s in r.tables:
            four = list(seat_players(s).values())
            if len(set(four)) != 4:
                out.append(f"round {r.number} table {s.table}: players {four}")
            seated += four
            together.update(frozenset(partners(side)) for side in (s.ns, s.ew))
            boards.update(s.boards)
            met.update((p, b) for p in four for b in s.boards)
        if sorted(seated) != list(range(1, players + 1)):
            out.append(f"round {r.number}: seats {sorted(seated)}")
    out += [f"partners {sorted(p)} {n} times" for p, n in together.items() if n > 1]
    if len(rounds) == players - 1:
        missing = {frozenset(p) for p in combinations(range(1, players + 1), 2)} - set(together)
        out += [f"partners {sorted(p)} never" for p in missing]
    if len(set(boards.values())) > 1:
        out.append(f"boards played unequally: {dict(boards)}")
    out += [f"player {p} plays board {b} {n} times" for (p, b), n in met.items() if n > 1]
    return out


@pytest.mark.parametrize("players", SIZES)
def test_every_size_offered_is_a_complete_individual(players: int) -> None:
    """Criterion 1 (each player partners each other once) over the n − 1 rounds, four
    players at each of the n / 4 tables, each board once at every table, none twice to a
    player; and so for fewer rounds (each partner at most once)."""
    rounds = individual(players, 2)
    assert len(rounds) == players - 1
    assert {len(r.tables) for r in rounds} == {players // 4}
    assert faults(rounds, players) == []
    assert faults(individual(players, 1, players // 2), players) == []


@pytest.mark.parametrize("players", SIZES)
def test_each_size_meets_each_other_player_as_an_opponent(players: int) -> None:
    """Criterion 2 as far as the rule goes (docs/scoring.md): the stationary player meets
    every other twice; two players meet as opponents at most four times, and (but for 8,
    where all meet twice) the pairs of one difference on the cycle meet never."""
    opposed: Counter[frozenset[int]] = Counter(
        frozenset((x, y)) for r in individual(players, 1) for s in r.tables
        for x in partners(s.ns) for y in partners(s.ew))
    counts = Counter(opposed[frozenset(p)] for p in combinations(range(1, players + 1), 2))
    assert {opposed[frozenset((1, p))] for p in range(2, players + 1)} == {2}
    assert counts == ({2: 28} if players == 8 else
                      {2: (players - 1) * (players - 4) // 2, 4: players - 1, 0: players - 1})


def test_the_checks_find_a_broken_schedule() -> None:
    """Each check fails on a schedule broken for it: two players swapped in one round (a
    partnership repeated, another never), a table of three, a round on other boards, a
    board played again."""
    rounds = individual(12, 1)
    second = rounds[1]
    t1 = second.tables[0]
    swapped = replace(t1, ew=rounds[0].tables[0].ew)  # round 1's 2–4 again (5 and 3 gone)
    broken = [rounds[0], replace(second, tables=(swapped, *second.tables[1:])), *rounds[2:]]
    assert any("partners [2, 4] 2 times" in f for f in faults(broken, 12))
    assert any("round 2 table 1" in f or "round 2: seats" in f for f in faults(broken, 12))
    again = [rounds[0], replace(rounds[1], tables=tuple(replace(s, boards=(1,))
                                                         for s in rounds[1].tables)),
             *rounds[2:]]
    assert any("plays board 1 2 times" in f for f in faults(again, 12))
    uneven = [rounds[0], replace(rounds[1], tables=(replace(t1, boards=(1,)),
                                                    *rounds[1].tables[1:])), *rounds[2:]]
    assert any("unequally" in f for f in faults(uneven, 12))


def test_twelve_players_move_by_the_circle_rule() -> None:
    """12: the movers' places 0–10 (1S 0, 1E 1, 1W 10, 2N 2, 2S 9, 2E 4, 2W 7, 3N 3, 3S 8,
    3E 5, 3W 6), each going to the place one lower; round 2 worked by hand from round 1
    (players 1–4 at table 1 N E S W, 5–8 at table 2, 9–12 at table 3)."""
    assert moves(12)[(1, "S")] == (1, "W") and moves(12)[(2, "N")] == (1, "E")
    first, second = individual(12, 1, 2)
    assert [seat_players(s) for s in first.tables] == [
        {"N": 1, "E": 2, "S": 3, "W": 4}, {"N": 5, "E": 6, "S": 7, "W": 8},
        {"N": 9, "E": 10, "S": 11, "W": 12}]
    assert [seat_players(s) for s in second.tables] == [
        {"N": 1, "E": 5, "S": 2, "W": 3}, {"N": 9, "E": 10, "S": 4, "W": 11},
        {"N": 6, "E": 12, "S": 7, "W": 8}]


def test_law_78a_a_twelves_players_sum_their_sides_matchpoints() -> None:
    """Law 78A, worked by hand (2 matchpoints a side beaten, 1 a tie; top 4 of three results).
    Board 1 (round 1): 1–3 v 2–4 +420, 5–7 v 6–8 +170, 9–11 v 10–12 −50: NS 4, 2, 0; EW 0, 2,
    4. Board 2 (round 2): 1–2 v 5–3 −100, 9–4 v 10–11 −100, 6–7 v 12–8 +110: NS 1, 1, 4; EW
    3, 3, 0. Each player of 8: 3 and 10 7 (87.5 %), 6 and 7 6 (75 %), 1 and 5 5 (62.5 %), 12
    4 (50 %), 11 3 (37.5 %), 8 2 (25 %), 2, 4 and 9 1 (12.5 %)."""
    first, second = individual(12, 1, 2)
    played = [Result(1, s.ns, s.ew, Played(score))
              for s, score in zip(first.tables, (420, 170, -50), strict=True)]
    played += [Result(2, s.ns, s.ew, Played(score))
               for s, score in zip(second.tables, (-100, -100, 110), strict=True)]
    boards = travellers(played, Scoring.MATCHPOINTS).values()
    got = {s.player: (s.rank, s.points, s.top, s.percent)
           for s in player_rankings(pair_rankings(boards))}
    assert got == {3: (1, 7, 8, 87.5), 10: (1, 7, 8, 87.5), 6: (3, 6, 8, 75),
                   7: (3, 6, 8, 75), 1: (5, 5, 8, 62.5), 5: (5, 5, 8, 62.5),
                   12: (7, 4, 8, 50), 11: (8, 3, 8, 37.5), 8: (9, 2, 8, 25),
                   2: (10, 1, 8, 12.5), 4: (10, 1, 8, 12.5), 9: (10, 1, 8, 12.5)}


@pytest.mark.parametrize("players", [4, 9, 10, 28])
def test_another_size_is_refused_naming_the_sizes_offered(players: int) -> None:
    """A size not offered: a 400's error naming `entrants` and the sizes that are."""
    with pytest.raises(TournamentError) as refused:
        movement_of(MovementKind.INDIVIDUAL, 1, None, Scoring.MATCHPOINTS, players, 7,
                    list(range(1, 30)))
    assert refused.value.field == "entrants"
    assert "8, 12, 16, 20 or 24 players" in str(refused.value)
    assert f"not {players}" in str(refused.value)


def test_a_twelve_needs_three_tables_and_eleven_rounds_of_boards() -> None:
    """12 players sit at three tables, over 11 rounds of the round's boards."""
    movement = movement_of(MovementKind.INDIVIDUAL, 2, None, Scoring.MATCHPOINTS, 12, 3,
                           list(range(1, 23)))
    assert movement.rounds == 11
    with pytest.raises(TournamentError):
        movement_of(MovementKind.INDIVIDUAL, 2, None, Scoring.MATCHPOINTS, 12, 2,
                    list(range(1, 23)))
