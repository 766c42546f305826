"""What the results show agrees with what they count (scoring.md): Law 12C2(c)'s
artificial score computed once for the scorecard, the traveller and the ranking; Neuberg's N
from the movement, so that a running ranking means something after any round; PBN 2.1's
`[Dealer]` and `[Vulnerable]`; never a negative zero; a weight of 100/3 as the Director gave it.
The expected values are worked by hand below (Law 78A, the EBU's Neuberg formula
(m + 1) × N / n − 1, Law 12C2(c), Law 78B)."""

from __future__ import annotations

import json
import re

import pytest

from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import MovementKind, movement_of, plan
from shared.tournament.results import results
from shared.tournament.results_formats import write_pbn
from shared.tournament.session import Tournament
from tests.unit.test_tournament_results import MITCHELL_TABLES, TEAM_TABLES, _made
from tests.unit.tournament_fixtures import entrants, round_records

ARTIFICIAL_BOARD_4 = {"kind": "artificial", "board": 4, "ns": 1, "ew": 6,
                      "ns_fault": "not_at_fault", "ew_fault": "directly_at_fault",
                      "reason": "no time to play it"}


def test_law_12c2c_the_scorecard_adds_up_to_the_ranking() -> None:
    """Law 12C2(c): pair 1 (NS), in no way at fault, scores 66.67 % on its other boards (board
    1: 420 loses to 450, 0 MP; board 2: −50 beats −100, 2; board 3: 450 beats 420, 2: 4 of
    6), so its average plus on board 4 is 66.67 % of the top of 2, not 60 %; pair 6 (EW),
    directly at fault, scores 16.67 % on its others (board 3: 0, board 5: 0, board 6: a tie,
    1: 1 of 6), so its average minus is 16.67 %, not 40 %. The card, the traveller and the
    ranking agree."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    tables = {t: {b: s for b, s in r.items() if (t, b) != ("t-1", 4)}
              for t, r in MITCHELL_TABLES.items()}
    doc = results(made, round_records(made), tables, [ARTIFICIAL_BOARD_4])
    card1 = {c["board"]: c for c in doc["scorecards"]["1"]}
    card6 = {c["board"]: c for c in doc["scorecards"]["6"]}
    assert card1[4]["points"] == pytest.approx(2 * 4 / 6, abs=1e-4)
    assert card1[4]["percent"] == pytest.approx(66.67, abs=0.01)
    assert card6[4]["points"] == pytest.approx(2 * 1 / 6, abs=1e-4)
    board4 = next(t for t in doc["travellers"] if t["board"] == 4)
    line = next(x for x in board4["lines"] if x["ns"] == 1)
    assert (line["ns_points"], line["ew_points"]) == (card1[4]["points"], card6[4]["points"])
    for ranking in doc["rankings"]:
        card = doc["scorecards"][str(ranking["entrant"])]
        assert sum(c["points"] for c in card) == pytest.approx(ranking["points"], abs=1e-3)
    pair1 = next(r for r in doc["rankings"] if r["entrant"] == 1)
    assert pair1["points"] == pytest.approx(4 + 2 * 4 / 6, abs=1e-4)


def _neuberg(m: float, n: int, expected: int) -> float:
    """The EBU's Neuberg formula, written out: each of n results stands for N / n."""
    return (m + 1) * expected / n - 1


def test_a_running_mitchell_ranking_is_neuberg_to_the_movements_plays() -> None:
    """Law 78A with Neuberg: a three-round Mitchell plays each board three times, so N = 3
    from round 1 on. After round 1 each board has one result: (0 + 1) × 3 / 1 − 1 = 2 of a
    top of 4, 50 % to every pair (not 0 points and 0 %). After round 2 each board has two:
    the better (m = 2) gets 3.5, the worse 0.5, a tie 2."""
    made = _made(MovementKind.MITCHELL, 6, 2, 3)
    records = round_records(made)
    first = {"t-1": {1: 420, 2: -50}, "t-2": {3: 420, 4: 140}, "t-3": {5: -100, 6: 300}}
    doc = results(made, records[:1], first, [])
    assert {(r["points"], r["top"], r["percent"], r["rank"]) for r in doc["rankings"]} == {
        (2 * _neuberg(0, 1, 3), 8.0, 50.0, 1)}
    doc = results(made, records[:2], MITCHELL_TABLES, [])
    # pair 1 NS: board 1 420 < 450, board 2 −50 > −100, board 3 450 > 420, board 4 100 < 140
    pair1 = 2 * _neuberg(0, 2, 3) + 2 * _neuberg(2, 2, 3)
    # pair 2 NS: board 3 420 < 450, 4 140 > 100, 5 −200 < −100, 6 300 = 300
    pair2 = _neuberg(0, 2, 3) + _neuberg(2, 2, 3) + _neuberg(0, 2, 3) + _neuberg(1, 2, 3)
    got = {r["entrant"]: (r["points"], r["percent"]) for r in doc["rankings"]}
    assert got[1] == pytest.approx((pair1, 100 * pair1 / 16))
    assert got[2] == pytest.approx((pair2, 100 * pair2 / 16))
    assert pair1 == 8.0 and pair2 == 6.5


def test_pbn_has_dealer_and_vulnerable_in_pbn_order() -> None:
    """PBN 2.1 section 3 (the mandatory tags' order: ... Board, ..., Dealer, Vulnerable,
    Deal, Scoring): each game's dealer and vulnerability, as the dealing program's file gave
    them, else the board's number's (Law 2: board 2 East, NS vulnerable, by the 16-board
    cycle)."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    made.deals[5] = {"board": 5, "dealer": "S", "vulnerability": "Both"}
    pbn = write_pbn(results(made, round_records(made), MITCHELL_TABLES, []), made)
    games = [g for g in pbn.split("\n\n") if "[Board" in g]
    assert len(games) == 6
    tags = {}
    for game in games:
        names = re.findall(r"^\[(\w+) ", game, flags=re.M)
        assert names.index("Board") < names.index("Dealer") < names.index("Vulnerable") \
            < names.index("Scoring")
        board = int(re.search(r'\[Board "(\d+)"\]', game).group(1))  # type: ignore[union-attr]
        tags[board] = (re.search(r'\[Dealer "(\w)"\]', game).group(1),  # type: ignore[union-attr]
                       re.search(r'\[Vulnerable "(\w+)"\]', game).group(1))  # type: ignore[union-attr]
    assert tags == {1: ("N", "None"), 2: ("E", "NS"), 3: ("S", "EW"), 4: ("W", "All"),
                    5: ("S", "All"), 6: ("E", "EW")}


def _negative_zero(doc: object) -> list[str]:
    return re.findall(r"-0\.0\b", json.dumps(doc))


def test_no_negative_zero_in_butler_cross_imps_or_teams() -> None:
    """Law 78B: a flat board is 0 IMPs to both sides, never −0 (a JSON reader's −0.0)."""
    deals = {n: {"board": n} for n in range(1, 13)}
    for scoring in (Scoring.BUTLER, Scoring.CROSS_IMPS):
        movement = movement_of(MovementKind.HOWELL, 2, 1, scoring, 4, 2, list(deals))
        made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), deals,
                          entrants=entrants(4), movement=movement)
        assert plan(movement, 4)
        doc = results(made, round_records(made), {"t-1": {1: 420, 2: 100},
                                                 "t-2": {1: 420, 2: 100}}, [])
        assert doc["travellers"] and _negative_zero(doc) == []
    made = _made(MovementKind.TEAMS, 2, 4, 1)
    doc = results(made, round_records(made), TEAM_TABLES, [])
    assert doc["matches"][0]["boards"] and _negative_zero(doc) == []


def test_a_weight_of_100_over_3_comes_back_as_the_director_gave_it() -> None:
    """Law 12C1(c): a weighted score of ⅓ and ⅔ shows 33.33 % and 66.67 % (two places),
    and keeps the exact weight as given ("100/3"); 60 % stays 60."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    weighted = {"kind": "weighted", "board": 4, "ns": 1, "ew": 6, "reason": "Law 21B",
                "parts": [{"percent": "100/3", "score_ns": 100},
                          {"percent": "200/3", "score_ns": 140}]}
    sixty = {"kind": "weighted", "board": 3, "ns": 1, "ew": 6, "reason": "Law 16B",
             "parts": [{"percent": 60, "score_ns": 450}, {"percent": 40, "score_ns": 420}]}
    doc = results(made, round_records(made), MITCHELL_TABLES, [weighted, sixty])
    parts = {a["board"]: a["parts"] for a in doc["adjustments"]}
    assert [(p["percent"], p["percent_text"]) for p in parts[4]] == [(33.33, "100/3"),
                                                                     (66.67, "200/3")]
    assert [(p["percent"], p["percent_text"]) for p in parts[3]] == [(60, "60"), (40, "40")]
    assert "33.333" not in json.dumps(doc)
