"""Swiss pairs (docs/scoring.md, "Swiss pairs"): each round the pairs paired by their VPs so
far (no repeat meeting where the field allows, the bye to the lowest pair without one), one
table a match on the round's boards, each pair's IMPs over the match (cross-IMPs, Law 78B)
converted to VPs on the WBF continuous scale (`shared.scores.victory_points`, tested against
the WBF's published values in test_victory_points.py). The form is the EBU's Swiss pairs
("each match scored by IMPs converted to VPs"); every example below is worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from shared.scores.movements import Round, Seating
from shared.scores.swiss_pairs import swiss_pairs_round
from shared.scores.victory_points import scale
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import Movement, MovementKind, movement_of, seating_map
from shared.tournament.errors import TournamentError
from shared.tournament.results import results
from shared.tournament.session import Tournament
from shared.tournament.swiss_pairs_rounds import next_swiss_pairs_round
from tests.unit.tournament_fixtures import entrants

pytestmark = pytest.mark.unit

VP2 = scale(2)  # the two-board scale: 1 → 10.86, 6 → 14.39 (test_pair_vps.py)


def _records(made: Tournament, rounds: list[Round]) -> list[dict[str, Any]]:
    return [{"type": "round_started", "round": r.number,
             "seatings": {made.tables[s.table - 1]: seating_map(s) for s in r.tables},
             "sit_out": list(r.sit_out)} for r in rounds]


def test_a_round_pairs_by_vps_without_a_repeat_meeting() -> None:
    """Six pairs, round 2: by VPs 1 (14), 3 (12), 5 (10), 6 (10), 4 (8), 2 (6). 1 meets 3;
    5 met 6 in round 1, so 5 meets 4, and 6 meets 2; every table on boards 3 and 4, the
    higher-placed pair NS."""
    first = swiss_pairs_round(1, 6, 2, {})
    assert first == Round(1, (Seating(1, 1, 2, (1, 2)), Seating(2, 3, 4, (1, 2)),
                              Seating(3, 5, 6, (1, 2))))
    vp = {1: 14.0, 2: 6.0, 3: 12.0, 4: 8.0, 5: 10.0, 6: 10.0}
    met = [frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 6))]
    assert swiss_pairs_round(2, 6, 2, vp, met) == Round(2, (
        Seating(1, 1, 3, (3, 4)), Seating(2, 5, 4, (3, 4)), Seating(3, 6, 2, (3, 4))))


def test_an_odd_field_gives_the_bye_to_the_lowest_pair_without_one() -> None:
    """Five pairs: round 1 the bye to pair 5 (the lowest by number, all at 0); round 2 by VPs
    2 (15), 1 (12), 3 (8), 4 (5), 5 (0): pair 5 had it, so pair 4 (the lowest without one)
    sits out; 2 met 1, so 2 meets 3 and 1 meets 5."""
    first = swiss_pairs_round(1, 5, 3, {})
    assert first.sit_out == (5,) and [(s.ns, s.ew) for s in first.tables] == [(1, 2), (3, 4)]
    second = swiss_pairs_round(2, 5, 3, {1: 12.0, 2: 15.0, 3: 8.0, 4: 5.0, 5: 0.0},
                               [frozenset((1, 2)), frozenset((3, 4))], byes=[5])
    assert second.sit_out == (4,)
    assert [(s.ns, s.ew, s.boards) for s in second.tables] == [(2, 3, (4, 5, 6)),
                                                               (1, 5, (4, 5, 6))]


# Four pairs, cross-IMPs, rounds of two boards; NS scores by table (table 1, table 2).
ROUND_1 = {"sp-1": {1: 420, 2: -100}, "sp-2": {1: 170, 2: 110}}  # 1 v 2, 3 v 4
ROUND_2 = {"sp-1": {3: 420, 4: -200}, "sp-2": {3: 170, 4: -200}}  # 1 v 4, 2 v 3


def test_a_swiss_pairs_is_paired_and_ranked_by_vps_worked_by_hand() -> None:
    """Law 78B by hand. Round 1 (1 v 2 at table 1, 3 v 4 at table 2): board 1, 420 against
    170, 250 → 6 IMPs to table 1's NS (pair 1) and table 2's EW (pair 4); board 2, −100
    against 110, 210 → 5 IMPs to pairs 2 and 3. Round 1: 1 and 4 +1 IMP (10.86 VPs), 2 and 3
    −1 (9.14). Round 2 by VPs 1, 4, 2, 3 (ties by number): 1 v 4, 2 v 3, none met before.
    Board 3, 420 against 170: 6 IMPs to pairs 1 and 3; board 4 flat. Round 2: 1 and 3 +6
    (14.39), 4 and 2 −6 (5.61). Totals: 1 25.25, 3 23.53, 4 16.47, 2 14.75 (80: four matches
    of 20). Round 3 by VPs 1, 3, 4, 2: 1 v 3 and 4 v 2."""
    assert (VP2[1], VP2[6]) == (10.86, 14.39)
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.SWISS_PAIRS, 2, 3, Scoring.CROSS_IMPS, 4, 2,
                           list(deals))
    assert movement.imps_to_vp and movement.one_field and not movement.kind.teams
    assert Movement.from_map(movement.to_map()) == movement
    made = Tournament("sp", "sp", "duplicate", ("sp-1", "sp-2"), deals, entrants=entrants(4),
                      movement=movement)
    one = swiss_pairs_round(1, 4, 2, {})
    doc = results(made, _records(made, [one]), ROUND_1, [])
    vp = {r["entrant"]: r["vp"] for r in doc["rankings"]}
    assert vp == {1: 10.86, 4: 10.86, 2: 9.14, 3: 9.14}
    two = next_swiss_pairs_round(2, made, _records(made, [one]), vp)
    assert [(s.ns, s.ew, s.boards) for s in two.tables] == [(1, 4, (3, 4)), (2, 3, (3, 4))]
    tables = {t: ROUND_1[t] | ROUND_2[t] for t in ROUND_1}
    doc = results(made, _records(made, [one, two]), tables, [])
    got = {r["entrant"]: (r["rank"], r["vp"], r["rounds"]) for r in doc["rankings"]}
    assert got == {1: (1, 25.25, 2), 3: (2, 23.53, 2), 4: (3, 16.47, 2), 2: (4, 14.75, 2)}
    assert {(r["round"], r["entrant"]): (r["opponent"], r["imps"], r["vp"])
            for r in doc["vp_rounds"]} == {
        (1, 1): (2, 1.0, 10.86), (1, 2): (1, -1.0, 9.14), (1, 3): (4, -1.0, 9.14),
        (1, 4): (3, 1.0, 10.86), (2, 1): (4, 6.0, 14.39), (2, 4): (1, -6.0, 5.61),
        (2, 2): (3, -6.0, 5.61), (2, 3): (2, 6.0, 14.39)}
    vp = {r["entrant"]: r["vp"] for r in doc["rankings"]}
    three = next_swiss_pairs_round(3, made, _records(made, [one, two]), vp)
    assert [(s.ns, s.ew, s.boards) for s in three.tables] == [(1, 3, (5, 6)), (4, 2, (5, 6))]


def test_a_swiss_pairs_needs_imps_and_its_rounds() -> None:
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.SWISS_PAIRS, 2, 3, Scoring.MATCHPOINTS, 4, 2, list(range(1, 7)))
    assert caught.value.field == "movement.scoring"
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.SWISS_PAIRS, 2, None, Scoring.BUTLER, 4, 2, list(range(1, 7)))
    assert caught.value.field == "movement.rounds"
    with pytest.raises(TournamentError) as caught:  # three rounds of two boards: six deals
        movement_of(MovementKind.SWISS_PAIRS, 2, 3, Scoring.BUTLER, 4, 2, list(range(1, 6)))
    assert caught.value.field == "movement.boards_per_round"
    with pytest.raises(TournamentError) as caught:  # four pairs sit at two tables
        movement_of(MovementKind.SWISS_PAIRS, 2, 3, Scoring.BUTLER, 4, 3, list(range(1, 7)))
    assert caught.value.field == "tables"
