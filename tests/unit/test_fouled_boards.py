"""A fouled board (Law 87): the Director names the places that played a changed form of a
board (Law 87A); each group is matchpointed apart and factored to the full top (Law 87B, the
EBU's procedure: Nick Doe, "Scoring of fouled boards", EBU Laws & Ethics articles, whose worked
example is the first test; docs/scoring.md)."""

from __future__ import annotations

import pytest

from shared.scores.adjustments import Played, ScoreError
from shared.scores.corrections import scheduled
from shared.scores.fouled_boards import FouledBoard
from shared.scores.travellers import Result, traveller
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import MovementKind, movement_of
from shared.tournament.fouled_records import fouled_board
from shared.tournament.results import results, rounds_of
from shared.tournament.session import Tournament
from tests.unit.tournament_fixtures import entrants, round_records

pytestmark = pytest.mark.unit

# Nick Doe's example (EBU): a board due ten times (top 18, 90 matchpoints a direction), played
# seven times in one form and three in another. The seven, all different, matchpointed on a
# top of 12 (12, 10, … 0) become (M × 10 + 3) / 7: 17.6, 14.7, 11.9, 9.0, 6.1, 3.3, 0.4
# (total 63); the three on a top of 4 (4, 2, 0) become (M × 10 + 7) / 3: 15.7, 9.0, 2.3 (27).
SEVEN = [700, 600, 500, 400, 300, 200, 100]
THREE = [650, 420, -50]
DOE_SEVEN = [17.6, 14.7, 11.9, 9.0, 6.1, 3.3, 0.4]
DOE_THREE = [15.7, 9.0, 2.3]


def test_law_87b_each_group_matchpointed_apart_and_factored_ebu_example() -> None:
    """Law 87B: the EBU's worked example, to Doe's 0.1 of a matchpoint; both groups, and the
    board, total what an unfouled board does (90 = 10 × 9)."""
    scores = SEVEN + THREE
    board = [Result(1, n, 20 + n, Played(s)) for n, s in enumerate(scores, start=1)]
    fouled = {(n, 20 + n): 1 for n in range(8, 11)}  # the last three: the changed form
    t = traveller(1, board, Scoring.MATCHPOINTS, 10, fouled)
    assert t.top == 18 and t.fouled == 1 and t.compared == 10
    ns = [round(line.ns_points, 1) for line in t.lines]
    assert ns == DOE_SEVEN + DOE_THREE
    assert [line.group for line in t.lines] == [0] * 7 + [1] * 3
    assert sum(line.ns_points for line in t.lines[:7]) == pytest.approx(63)
    assert sum(line.ns_points for line in t.lines[7:]) == pytest.approx(27)
    assert all(line.ns_points + line.ew_points == pytest.approx(18) for line in t.lines)
    unfouled = traveller(1, board, Scoring.MATCHPOINTS, 10)  # one field: 650 second of ten
    assert round(unfouled.lines[7].ns_points, 1) == 16.0


def test_law_87b_cross_imps_compared_within_the_group() -> None:
    """Law 87B at IMPs: a result of the changed form is compared with its own group only."""
    board = [Result(1, 1, 11, Played(420)), Result(1, 2, 12, Played(420)),
             Result(1, 3, 13, Played(-100)), Result(1, 4, 14, Played(-100))]
    t = traveller(1, board, Scoring.CROSS_IMPS, None, {(3, 13): 1, (4, 14): 1})
    assert [line.ns_points for line in t.lines] == [0, 0, 0, 0]  # each tied in its group
    assert traveller(1, board, Scoring.CROSS_IMPS).lines[0].ns_points != 0


def test_a_place_in_two_groups_is_refused() -> None:
    with pytest.raises(ScoreError) as caught:
        FouledBoard(1, (frozenset({(1, 5)}), frozenset({(1, 5)})))
    assert caught.value.field == "groups[1]"


# A Mitchell of ten pairs at five tables, one board a round: every board played five times
# (top 8). Board 1 at tables 1-5 (NS pairs 1-5): 420, 450, 400, -100 and -200, the last two
# with the deal changed (Law 87A). Worked by hand (Law 87B, the EBU's formula, E = 5):
#   correct form, A = 3 (top 4): 450 4, 420 2, 400 0 → (M + 1) × 5 / 3 − 1: 7.3333, 4, 0.6667
#   changed form, A = 2 (top 2): -100 2, -200 0 → (M + 1) × 5 / 2 − 1: 6.5, 1.5
# (20 in all, 5 × 4, as on every board). Unfouled: 450 8, 420 6, 400 4, -100 2, -200 0.
MITCHELL_BOARD_1 = {"t-1": 420, "t-2": 450, "t-3": 400, "t-4": -100, "t-5": -200}


def _mitchell() -> Tournament:
    deals = {n: {"board": n} for n in range(1, 6)}
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 10, 5,
                           list(deals))
    return Tournament("t", "t", "duplicate", tuple(f"t-{n}" for n in range(1, 6)), deals,
                      entrants=entrants(10), movement=movement)


def test_law_87b_a_tournament_scores_a_fouled_board_in_its_groups() -> None:
    made = _mitchell()
    rounds = round_records(made)
    ew_at = {t: s["ew"] for r in rounds for t, s in r["seatings"].items() if 1 in s["boards"]}
    tables = {t: {1: score} for t, score in MITCHELL_BOARD_1.items()}
    marked = {"type": "board_fouled", "board": 1, "reason": "the E and W hands swapped",
              "groups": [[{"ns": 4, "ew": ew_at["t-4"]}, {"ns": 5, "ew": ew_at["t-5"]}]]}
    doc = results(made, rounds, tables, [marked])
    board_1 = next(t for t in doc["travellers"] if t["board"] == 1)
    assert board_1["fouled"] == {"forms": 1, "reason": "the E and W hands swapped"}
    got = {line["ns"]: (line["ns_points"], line["group"]) for line in board_1["lines"]}
    assert got == {1: (4.0, 0), 2: (7.3333, 0), 3: (0.6667, 0), 4: (6.5, 1), 5: (1.5, 1)}
    plain = results(made, rounds, tables, [])
    assert "fouled" not in plain["travellers"][0]
    assert {line["ns"]: line["ns_points"] for line in plain["travellers"][0]["lines"]} == \
        {1: 6.0, 2: 8.0, 3: 4.0, 4: 2.0, 5: 0.0}
    unmarked = results(made, rounds, tables, [marked, {**marked, "groups": []}])
    assert unmarked["travellers"][0]["lines"] == plain["travellers"][0]["lines"]


@pytest.mark.parametrize(("groups", "field"), [
    ("4", "groups"), ([[{"ns": 4, "ew": 99}]], "groups[0][0]"),
    ([[{"ns": 4, "ew": True}]], "groups[0][0].ew"),
    ([[{"ns": 4}]], "groups[0][0].ew"), ([[]], "groups[0]")])
def test_a_marking_at_fault_names_its_field(groups: object, field: str) -> None:
    made = _mitchell()
    places = scheduled(rounds_of(round_records(made), made))
    with pytest.raises(ScoreError) as caught:
        fouled_board({"board": 1, "groups": groups}, places)
    assert caught.value.field == field
