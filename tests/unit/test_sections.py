"""Sections with a top across the field (docs/scoring.md, "Sections with a top across the
field"): two Mitchells, A (pairs 1–6, tables 1–3) and B (pairs 7–12, tables 4–6), on the same
boards; each board matchpointed over both sections' results in its direction (Law 78A: two
for each result beaten, one for each tied, the top 2 × (6 − 1) = 10), the pairs ranked over
the field per direction and within their section. Worked by hand below."""

from __future__ import annotations

import pytest

from shared.scores.movements import Seating
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import Movement, MovementKind, movement_of, plan
from shared.tournament.errors import TournamentError
from shared.tournament.results import results
from shared.tournament.session import Tournament
from tests.unit.tournament_fixtures import entrants, round_records

pytestmark = pytest.mark.unit

TABLES = tuple(f"s-{n}" for n in range(1, 7))
# Each section's Mitchell (shared.scores.movements): NS pair t stays at table t, EW moves up,
# board b at table t in round r where (t − 1 + r) % 3 = b − 1. Board 1: A 1 v 4 (round 1),
# 3 v 5 (round 2), 2 v 6 (round 3); B the same + 6 at tables 4–6. Boards 2 and 3 flat (110).
BOARD_1 = {("s-1", 1): 420, ("s-3", 2): 170, ("s-2", 3): 400,
           ("s-4", 1): 420, ("s-6", 2): 450, ("s-5", 3): -50}


def _tables() -> dict[str, dict[int, int]]:
    out = {t: {2: 110, 3: 110} for t in TABLES}
    for (table, _), score in BOARD_1.items():
        out[table][1] = score
    return out


def test_two_sections_are_seated_on_the_same_boards() -> None:
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 12, 6,
                           [1, 2, 3], sections=2)
    assert movement.sections == 2 and movement.rounds == 3
    assert Movement.from_map(movement.to_map()) == movement
    first = plan(movement, 12)[0]
    assert first.tables == (Seating(1, 1, 4, (1,)), Seating(2, 2, 5, (2,)),
                            Seating(3, 3, 6, (3,)), Seating(4, 7, 10, (1,)),
                            Seating(5, 8, 11, (2,)), Seating(6, 9, 12, (3,)))


def test_each_board_is_matchpointed_across_both_sections_worked_by_hand() -> None:
    """Board 1's NS scores over the field: 450 beats five (10); each 420 beats three and
    ties one (7); 400 4; 170 2; −50 0. EW get 10 less. In section A alone 420 would be a
    top (4 of 4): across the field it is 7 of 10. Boards 2 and 3 flat: 5 each. Each pair's
    percentage: (10 + board 1) / 30."""
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 12, 6,
                           [1, 2, 3], sections=2)
    deals = {n: {"board": n} for n in (1, 2, 3)}
    made = Tournament("s", "s", "duplicate", TABLES, deals, entrants=entrants(12),
                      movement=movement)
    doc = results(made, round_records(made), _tables(), [])
    [board_1] = [t for t in doc["travellers"] if t["board"] == 1]
    assert board_1["top"] == 10
    assert {(x["ns"], x["ew"]): (x["ns_points"], x["ew_points"]) for x in board_1["lines"]} \
        == {(1, 4): (7, 3), (3, 5): (2, 8), (2, 6): (4, 6), (7, 10): (7, 3),
            (9, 11): (10, 0), (8, 12): (0, 10)}
    got = {r["entrant"]: (r["direction"], r["rank"], r["section"], r["section_rank"],
                          r["percent"]) for r in doc["rankings"]}
    assert got == {
        9: ("NS", 1, "B", 1, 66.6667), 1: ("NS", 2, "A", 1, 56.6667),
        7: ("NS", 2, "B", 2, 56.6667), 2: ("NS", 4, "A", 2, 46.6667),
        3: ("NS", 5, "A", 3, 40.0), 8: ("NS", 6, "B", 3, 33.3333),
        12: ("EW", 1, "B", 1, 66.6667), 5: ("EW", 2, "A", 1, 60.0),
        6: ("EW", 3, "A", 2, 53.3333), 4: ("EW", 4, "A", 3, 43.3333),
        10: ("EW", 4, "B", 2, 43.3333), 11: ("EW", 6, "B", 3, 33.3333)}
    assert doc["sections"] == [
        {"name": "A", "entrants": [1, 2, 3, 4, 5, 6], "tables": ["s-1", "s-2", "s-3"]},
        {"name": "B", "entrants": [7, 8, 9, 10, 11, 12], "tables": ["s-4", "s-5", "s-6"]}]


def test_sections_play_a_mitchell_or_a_howell() -> None:
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.TEAMS, 1, None, Scoring.MATCHPOINTS, 4, 4, [1, 2, 3],
                    sections=2)
    assert caught.value.field == "movement.sections"
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 12, 6, [1, 2, 3],
                    arrow_switch=True, sections=2)
    assert caught.value.field == "movement.sections"
    with pytest.raises(TournamentError) as caught:
        movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 12, 6, [1, 2, 3],
                    sections=27)
    assert caught.value.field == "movement.sections"
    with pytest.raises(TournamentError) as caught:  # two sections of six sit at six tables
        movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 12, 3, [1, 2, 3],
                    sections=2)
    assert caught.value.field == "tables"


def test_sections_of_unequal_size_are_factored_by_neuberg_worked_by_hand() -> None:
    """Thirteen pairs: A seven (a four-table Mitchell, pairs 1–7), B six (three tables, pairs
    8–13), three rounds of one board. Board 3 is played six times (the most: N = 6, top 10),
    board 1 five times, board 4 (A's fourth table's board) twice. Neuberg (the EBU's
    formula, docs/scoring.md): MP = (m + 1) × N / n − 1. Board 1's NS scores 100 … 500 (one
    result each): m 0, 2, 4, 6, 8 of a top of 8 → 0.2, 2.6, 5.0, 7.4, 9.8. Board 4, two
    results: 420 (m 2) → 8, 170 (m 0) → 2."""
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 13, 7,
                           [1, 2, 3, 4], sections=2)
    deals = {n: {"board": n} for n in (1, 2, 3, 4)}
    tables = tuple(f"s-{n}" for n in range(1, 8))
    made = Tournament("s", "s", "duplicate", tables, deals, entrants=entrants(13),
                      movement=movement)
    # board 1 at table 1 (1 v 5), 5 (8 v 11), 4 (4 v 7), 7 (10 v 12), 6 (9 v 13);
    # board 4 at table 3 (3 v 6, round 2) and table 2 (2 v 7, round 3)
    scores = {"s-1": {1: 100}, "s-5": {1: 200}, "s-4": {1: 300}, "s-7": {1: 400},
              "s-6": {1: 500}, "s-3": {4: 420}, "s-2": {4: 170}}
    doc = results(made, round_records(made), scores, [])
    lines = {(t["board"], x["ns"], x["ew"]): (x["ns_points"], x["ew_points"])
             for t in doc["travellers"] for x in t["lines"]}
    assert {k: v for k, v in lines.items() if k[0] in (1, 4)} == {
        (1, 1, 5): (0.2, 9.8), (1, 8, 11): (2.6, 7.4), (1, 4, 7): (5.0, 5.0),
        (1, 10, 12): (7.4, 2.6), (1, 9, 13): (9.8, 0.2), (4, 3, 6): (8.0, 2.0),
        (4, 2, 7): (2.0, 8.0)}
    assert {t["board"]: t["top"] for t in doc["travellers"]}[4] == 10
    assert [s["entrants"] for s in doc["sections"]] == [list(range(1, 8)),
                                                        list(range(8, 14))]
