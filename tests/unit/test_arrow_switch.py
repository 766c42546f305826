"""An arrow-switched Mitchell (one winner): the last round(s) with the pairs' directions swapped
(the EBU's club practice: Gordon Rainsford, "Arrow switching", EBU newsletter; docs/scoring.md),
scored by Law 78A's matchpoints with every pair ranked in one field."""

from __future__ import annotations

import pytest

from shared.scores.arrow_switch import arrow_switched, default_switches, switched_rounds
from shared.scores.movements import MovementError, mitchell
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import Movement, MovementKind, movement_of, plan
from shared.tournament.errors import TournamentError
from shared.tournament.results import results
from shared.tournament.session import Tournament
from tests.unit.tournament_fixtures import entrants, round_records

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("pairs", range(5, 21))
def test_last_round_switched_every_pair_sits_both_ways(pairs: int) -> None:
    """The switched round seats the same meetings on the same boards at the same tables, NS
    and EW swapped; the rounds before are the plain Mitchell's, so that every pair that plays
    the last round sits in both directions (EBU: switch the last round)."""
    plain = mitchell(pairs, 3)
    switched = arrow_switched(plain, 1)
    assert switched[:-1] == plain[:-1]
    for before, after in zip(plain[-1].tables, switched[-1].tables, strict=True):
        assert (after.table, after.ns, after.ew, after.boards) == \
            (before.table, before.ew, before.ns, before.boards)
    directions: dict[int, set[str]] = {}
    for rnd in switched:
        for s in rnd.tables:
            directions.setdefault(s.ns, set()).add("NS")
            directions.setdefault(s.ew, set()).add("EW")
    seated_last = {e for s in switched[-1].tables for e in (s.ns, s.ew)}
    assert all(directions[p] == {"NS", "EW"} for p in seated_last)


def test_default_switches_follow_the_ebu_practice() -> None:
    """Rainsford (EBU): one round with rounds of three boards or more, two with two-board
    rounds (here from eight rounds, keeping near Manning's one in eight)."""
    assert default_switches(7, 3) == 1
    assert default_switches(13, 2) == 2
    assert default_switches(5, 2) == 1
    assert default_switches(13, 4) == 1
    assert switched_rounds(13, 2) == (12, 13)


@pytest.mark.parametrize("switches", [0, 3, 4])
def test_a_count_leaving_no_plain_round_is_refused(switches: int) -> None:
    with pytest.raises(MovementError) as caught:
        arrow_switched(mitchell(6, 1), switches)
    assert caught.value.field == "arrow_switch"


def test_only_a_mitchell_is_switched() -> None:
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.HOWELL, 1, None, Scoring.MATCHPOINTS, 6, 3, [1, 2, 3, 4, 5],
                    arrow_switch=True)
    assert caught.value.field == "movement.arrow_switch"
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 6, 3, [1, 2, 3],
                    arrow_switch=3)
    assert caught.value.field == "movement.arrow_switch"


def test_movement_round_trips_its_switches() -> None:
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 6, 3,
                           [1, 2, 3], arrow_switch=True)
    assert movement.arrow_switch == 1 and movement.one_field
    assert Movement.from_map(movement.to_map()) == movement
    plain = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 6, 3, [1, 2, 3])
    assert "arrow_switch" not in plain.to_map() and not plain.one_field


# Six pairs, three tables, one board a round, the last round switched: round 3 seats 5 v 1 on
# board 3, 6 v 2 on board 1, 4 v 3 on board 2 (the moving pair NS). NS scores by table:
TABLES = {"t-1": {1: 420, 2: -50, 3: 110},   # 1 v 4, 1 v 6, then 5 (NS) v 1
          "t-2": {2: 100, 3: -100, 1: 400},  # 2 v 5, 2 v 4, then 6 (NS) v 2
          "t-3": {3: -200, 1: 450, 2: 100}}  # 3 v 6, 3 v 5, then 4 (NS) v 3
# Worked by hand (Law 78A: 2 for each result beaten, 1 for each tied; top 4 on 3 results):
# board 1 NS 450 (3) 4, 420 (1) 2, 400 (6) 0; EW 5: 0, 4: 2, 2: 4
# board 2 NS 100 (2) 3, 100 (4) 3, -50 (1) 0; EW 5: 1, 3: 1, 6: 4
# board 3 NS 110 (5) 4, -100 (2) 2, -200 (3) 0; EW 1: 0, 4: 2, 6: 4
# pair 1: 2+0+0 = 2, 2: 4+3+2 = 9, 3: 4+1+0 = 5, 4: 2+3+2 = 7, 5: 0+1+4 = 5, 6: 0+4+4 = 8,
# each of 12: one field, 2 first (75 %), 6, 4, 3 and 5 equal fourth (41.67 %), 1 sixth.
BY_HAND = {2: (1, 9, 75.0), 6: (2, 8, 66.6667), 4: (3, 7, 58.3333), 3: (4, 5, 41.6667),
           5: (4, 5, 41.6667), 1: (6, 2, 16.6667)}


def test_arrow_switched_mitchell_ranked_as_one_field_law_78a() -> None:
    """Law 78A's matchpoints across both lines: a pair's boards played EW in the switched
    round are compared with those who held the EW cards on them, and all six pairs rank in
    one field (a plain Mitchell would rank NS and EW apart)."""
    deals = {n: {"board": n} for n in range(1, 4)}
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 6, 3,
                           list(deals), arrow_switch=True)
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2", "t-3"), deals,
                      entrants=entrants(6), movement=movement)
    assert [(s.table, s.ns, s.ew) for s in plan(movement, 6)[2].tables] == \
        [(1, 5, 1), (2, 6, 2), (3, 4, 3)]
    doc = results(made, round_records(made), TABLES, [])
    got = {r["entrant"]: (r["rank"], r["points"], r["percent"]) for r in doc["rankings"]}
    assert got == BY_HAND
    assert {r["direction"] for r in doc["rankings"]} == {None}
    assert doc["movement"]["arrow_switch"] == 1
