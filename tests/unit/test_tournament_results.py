"""A tournament's results from its tables' results, its rounds' seatings and the Director's
scores (scoring.md): a Mitchell and a team match, each with adjusted scores of every kind, ranked
as an independent computation here ranks them (Law 78A matchpoints pairwise, Law 78B IMPs from
the Law's table written out again, Laws 12C1(b), 12C1(c), 12C2, 90)."""

from __future__ import annotations

import csv
import io
import re
import shlex
from dataclasses import replace
from typing import Any

import pytest

from services.gateway.tournaments.scores import Folded, fold_more, table_results
from shared.codec import encode, from_map
from shared.scores.adjustments import ScoreError
from shared.scores.corrections import scheduled
from shared.scores.victory_points import scale
from shared.scores.vocabulary import Scoring
from shared.tournament.director_scores import parse
from shared.tournament.entrants import (
    Movement,
    MovementKind,
    movement_of,
    plan,
    seat_names,
    seating_map,
    swiss_round,
)
from shared.tournament.results import results, rounds_of, standings
from shared.tournament.results_formats import write_csv, write_pbn
from shared.tournament.session import Tournament, TournamentError
from tests.unit.tournament_fixtures import entrants, imps_by_law, round_records


def _made(kind: MovementKind, entrants_count: int, per: int, rounds: int | None
          ) -> Tournament:
    deals = {n: {"board": n} for n in range(1, 13)}
    tables = (entrants_count + 1) // 2 if kind is MovementKind.MITCHELL \
        else entrants_count // 2 * 2
    movement = movement_of(kind, per, rounds, Scoring.MATCHPOINTS, entrants_count, tables,
                           list(deals))
    return Tournament("t", "t", "duplicate", tuple(f"t-{n}" for n in range(1, tables + 1)),
                      deals, entrants=entrants(entrants_count), movement=movement)


MITCHELL_TABLES = {"t-1": {1: 420, 2: -50, 3: 450, 4: 100},
                   "t-2": {3: 420, 4: 140, 5: -200, 6: 300},
                   "t-3": {5: -100, 6: 300, 1: 450, 2: -100}}
DIRECTOR = [
    {"kind": "corrected", "board": 1, "ns": 1, "ew": 4, "score_ns": 450,
     "reason": "4♠ made 11 tricks, not 10 (Law 79C)"},
    {"kind": "weighted", "board": 3, "ns": 2, "ew": 5, "reason": "misinformation (Law 21B)",
     "parts": [{"percent": 60, "score_ns": 620}, {"percent": 40, "score_ns": -100}]},
    {"kind": "artificial", "board": 5, "ns": 3, "ew": 6, "ns_fault": "not_at_fault",
     "ew_fault": "directly_at_fault", "reason": "EW arrived too late to play it"},
    {"kind": "assigned", "board": 6, "ns": 2, "ew": 4, "score_ns": 200,
     "reason": "unauthorized information (Law 16B)"},
    {"kind": "penalty", "board": 2, "entrant": 4, "amount": 25, "unit": "percent",
     "reason": "slow play (Law 90B2)"},
]


def _pairwise(ours: list[tuple[int, float]], theirs: list[tuple[int, float]]) -> float:
    """Law 78A written out: two for each result beaten, one for each tied, by weight."""
    return sum(w * v * (2 if a > b else 1 if a == b else 0)
               for a, w in ours for b, v in theirs)


def _independent_mitchell() -> dict[int, float]:
    """Each pair's percentage by hand: the boards, each played twice (top 2), the Director's
    scores as Laws 12C and 90 give them."""
    dist = {(1, 1, 4): [(450, 1.0)], (2, 1, 4): [(-50, 1.0)], (3, 1, 6): [(450, 1.0)],
            (4, 1, 6): [(100, 1.0)], (3, 2, 5): [(620, 0.6), (-100, 0.4)],
            (4, 2, 5): [(140, 1.0)], (5, 2, 4): [(-200, 1.0)], (6, 2, 4): [(200, 1.0)],
            (6, 3, 6): [(300, 1.0)], (1, 3, 5): [(450, 1.0)], (2, 3, 5): [(-100, 1.0)]}
    points: dict[int, float] = {p: 0.0 for p in range(1, 7)}
    tops: dict[int, float] = {p: 0.0 for p in range(1, 7)}
    for (board, ns, ew), ours in dist.items():
        others = [d for (b, n, e), d in dist.items() if b == board and (n, e) != (ns, ew)]
        # board 5: one comparable result of the two expected (Neuberg: (m + 1) × N / n − 1)
        mp_ns = _pairwise(ours, others[0]) if others else (0 + 1) * 2 / 1 - 1
        points[ns] += mp_ns
        points[ew] += 2 - mp_ns
        tops[ns] += 2
        tops[ew] += 2
    # Law 12C2(c): average plus (60 %) to pair 3 unless it did better elsewhere; average
    # minus (40 %) to pair 6 unless it did worse elsewhere
    for pair, percent, better in ((3, 60.0, max), (6, 40.0, min)):
        other = 100 * points[pair] / tops[pair]
        points[pair] += better(percent, other) * 2 / 100
        tops[pair] += 2
    points[4] -= 0.25 * 2  # Law 90: 25 % of a top
    return {p: round(100 * points[p] / tops[p], 4) for p in points}


def test_a_mitchell_with_each_kind_of_directors_score_ranks_as_computed_by_hand() -> None:
    """Laws 78A, 12C1(b), 12C1(c), 12C2(a) and (c), 90: each pair's percentage."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    rounds = round_records(made)
    doc = results(made, rounds, MITCHELL_TABLES, DIRECTOR)
    expected = _independent_mitchell()
    got = {r["entrant"]: r["percent"] for r in doc["rankings"]}
    assert got == pytest.approx(expected, abs=1e-3)
    for direction, pairs in (("NS", (1, 2, 3)), ("EW", (4, 5, 6))):
        best = {p for p in pairs if expected[p] == max(expected[q] for q in pairs)}
        # pairs tied for first (NS 2 and 3): the EBU's split tie puts one first
        assert next(r for r in doc["rankings"] if r["direction"] == direction
                    and r["rank"] == 1)["entrant"] in best
    board3 = next(t for t in doc["travellers"] if t["board"] == 3)
    weighted = next(line for line in board3["lines"] if line["ns"] == 2)
    assert weighted["kind"] == "weighted" and weighted["reason"].startswith("misinformation")
    assert doc["complete"] == [1, 2, 3, 4, 5, 6]


def test_the_public_sees_a_travellers_board_only_once_every_table_has_played_it() -> None:
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    tables = {t: dict(r) for t, r in MITCHELL_TABLES.items()}
    del tables["t-3"][1]  # board 1 still at table 3
    doc = results(made, round_records(made), tables, [], everything=False)
    assert 1 not in doc["complete"] and 2 in doc["complete"]
    assert [t["board"] for t in doc["travellers"]] == [2, 3, 4, 5, 6]
    everything = results(made, round_records(made), tables, [])
    assert [t["board"] for t in everything["travellers"]] == [1, 2, 3, 4, 5, 6]


def test_the_public_never_sees_a_board_a_pair_has_still_to_play_in_a_later_round() -> None:
    """The tournament's regulation (Law 80B) against Law 16C1's unauthorized information: in
    a Mitchell the boards move down a table a round, so a board every table has finished in
    round 1 is still to come at another table in round 2. Its traveller, its lines on the
    scorecards, the Director's scores on it and the rankings (which would move as another
    table plays it) wait for round 2; the Director sees every result at once."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    first = round_records(made)[:1]  # round 1 only: boards 1-2 at t-1, 3-4 at t-2, 5-6 at t-3
    tables = {"t-1": {1: 420, 2: -50}, "t-2": {3: 450, 4: 100}, "t-3": {5: -100, 6: 300}}
    weighted = {"kind": "weighted", "board": 1, "ns": 1, "ew": 4, "reason": "Law 21B",
                "parts": [{"percent": 60, "score_ns": 420}, {"percent": 40, "score_ns": -50}]}
    penalty = {"kind": "penalty", "board": 3, "entrant": 2, "amount": 10, "reason": "slow"}
    doc = results(made, first, tables, [weighted, penalty], everything=False)
    assert doc["complete"] == [] and doc["travellers"] == []
    assert doc["adjustments"] == [] and doc["penalties"] == []
    assert all(card == [] for card in doc["scorecards"].values())
    assert doc["rankings"] == [] and doc["counted"] == "complete"
    assert doc == results(made, first, tables, [weighted, penalty], everything=False)
    director = results(made, first, tables, [weighted, penalty])
    assert [t["board"] for t in director["travellers"]] == [1, 2, 3, 4, 5, 6]
    assert {r["entrant"] for r in director["rankings"]} == {1, 2, 3, 4, 5, 6}
    # round 2: board 1 at t-3 (pairs 3 and 5) finished; boards 3-4 still at t-1
    tables["t-3"] |= {1: 450, 2: -100}
    tables["t-2"] |= {5: -200, 6: 140}
    doc = results(made, round_records(made), tables, [weighted, penalty], everything=False)
    assert doc["complete"] == [1, 2, 5, 6]
    assert [t["board"] for t in doc["travellers"]] == [1, 2, 5, 6]
    assert [a["board"] for a in doc["adjustments"]] == [1] and doc["penalties"] == []
    card = doc["scorecards"]["4"]  # pair 4: EW against 1 (round 1), then against 2
    assert [(c["board"], c["direction"], c["opponent"]) for c in card] == [
        (1, "EW", 1), (2, "EW", 1), (5, "EW", 2), (6, "EW", 2)]
    board1 = next(t for t in doc["travellers"] if t["board"] == 1)
    line = next(x for x in board1["lines"] if x["ns"] == 1)
    assert card[0]["points"] == line["ew_points"] and card[0]["reason"] == "Law 21B"
    boards = {r["entrant"]: r["boards"] for r in doc["rankings"]}
    assert boards == {int(n): len(c) for n, c in doc["scorecards"].items() if c}


def test_the_overviews_standings_are_the_top_of_each_fields_ranking() -> None:
    """Law 78A's ranking per direction in a Mitchell (the NS and EW pairs apart): the first
    `top` places of each, ties included, named; before any result, no field."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    doc = results(made, round_records(made), MITCHELL_TABLES, DIRECTOR)
    for top in (1, 2, 3):
        got = standings(doc, top)
        assert got["complete"] == 6 and got["scoring"] == "matchpoints"
        for field in got["fields"]:
            expected = [r for r in doc["rankings"] if r["direction"] == field["direction"]
                        and r["rank"] <= top]
            assert [x["entrant"] for x in field["top"]] == [r["entrant"] for r in expected]
            assert [x["name"] for x in field["top"]] == [chr(64 + r["entrant"])
                                                         for r in expected]
        assert sorted(f["direction"] for f in got["fields"]) == ["EW", "NS"]
    empty = results(made, round_records(made), {}, [])
    assert standings(empty) == {"scoring": "matchpoints", "complete": 0, "fields": []}


TEAM_TABLES = {"t-1": {1: 620, 2: -100, 3: 1430, 4: 0},
               "t-2": {1: -170, 2: -100, 3: 1430, 4: 0}}
TEAM_DIRECTOR = [
    {"kind": "split", "board": 2, "ns": 2, "ew": 1, "reason": "hesitation (Law 16B)",
     "ns_score": {"score_ns": 110}, "ew_score": {"parts": [{"percent": 50, "score_ns": 110},
                                                           {"percent": 50, "score_ns": -100}]}},
    {"kind": "artificial", "board": 4, "ns": 1, "ew": 2, "ns_fault": "partly_at_fault",
     "ew_fault": "not_at_fault", "reason": "fouled board (Law 87)"},
    {"kind": "penalty", "board": 3, "entrant": 2, "amount": 1, "unit": "imps",
     "reason": "late arrival (Law 90B1)"},
]


def test_a_team_match_to_vps_with_split_artificial_and_penalty_as_computed_by_hand() -> None:
    """Law 78B (IMPs), 12C1(b)/(c) (a split score, one side weighted), 12C2(b) (±3 IMPs), 90."""
    made = _made(MovementKind.TEAMS, 2, 4, 1)
    doc = results(made, round_records(made), TEAM_TABLES, TEAM_DIRECTOR)
    # board 1: home NS +620 in the open room, away NS −170 in the closed: 790 to home.
    # board 2: the closed room's split: team 2 (NS) scored by +110, team 1 (EW) by half
    # +110, half −100; the open room −100 (home NS). Home: half imps(−210), half flat;
    # away: its +110 against the open room's −100.
    home_2 = 0.5 * imps_by_law(-100 - 110) + 0.5 * imps_by_law(-100 - -100)
    away_2 = -imps_by_law(-100 - 110)
    # board 3 flat, and a penalty of 1 IMP on team 2; board 4: the open room's artificial
    # score, team 1 (NS) partly at fault (0), team 2 (EW) in no way at fault (+3 IMPs)
    home_total = imps_by_law(620 - -170) + max(home_2, 0) + 0
    away_total = max(away_2, 0) + 3 - 1
    assert (home_2, away_2) == (-2.5, 5)
    match = doc["matches"][0]
    assert (match["home_imps"], match["away_imps"]) == pytest.approx((home_total, away_total))
    margin = home_total - away_total
    vp = scale(4)[int(margin)] + (scale(4)[int(margin) + 1] - scale(4)[int(margin)]) * (
        margin - int(margin))
    assert match["home_vp"] == pytest.approx(round(vp, 2), abs=0.011)
    assert [r["entrant"] for r in doc["rankings"]] == [1, 2]
    assert doc["rankings"][0]["vp"] + doc["rankings"][1]["vp"] == pytest.approx(20)


def test_a_directors_score_names_the_field_at_fault() -> None:
    """Law 12C1(c): weights summing to 100 %; a board not scheduled is refused; Law 77: no
    score beyond what a board can give (7,600 either way)."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    places = scheduled(rounds_of(round_records(made), made))
    bad: list[tuple[dict[str, Any], str]] = [
        ({"kind": "weighted", "board": 3, "ns": 2, "ew": 5, "parts": [
            {"percent": 60, "score_ns": 620}, {"percent": 30, "score_ns": -100}]}, "parts"),
        ({"kind": "weighted", "board": 3, "ns": 2, "ew": 5, "parts": [
            {"percent": "x", "score_ns": 620}, {"percent": 30, "score_ns": -100}]},
         "parts[0].percent"),
        ({"kind": "assigned", "board": 3, "ns": 1, "ew": 4, "score_ns": 420}, "board"),
        ({"kind": "assigned", "board": 1, "ns": 1, "ew": 4, "score_ns": 425}, "score_ns"),
        ({"kind": "assigned", "board": 1, "ns": 1, "ew": 4, "score_ns": 10 ** 30},
         "score_ns"),  # beyond what Law 77 gives a board
        ({"kind": "split", "board": 1, "ns": 1, "ew": 4, "ns_score": {"score_ns": -7610},
          "ew_score": {"score_ns": 420}}, "ns_score.score_ns"),
        ({"kind": "artificial", "board": 1, "ns": 1, "ew": 4, "ns_fault": "?"}, "ns_fault"),
        ({"kind": "penalty", "board": 1, "entrant": 2, "amount": 10}, "board"),
        ({"kind": "penalty", "board": 1, "entrant": 4, "amount": 1, "unit": "imps"}, "unit"),
        ({"kind": "split", "board": 1, "ns": 1, "ew": 4, "ns_score": {"score_ns": 420},
          "ew_score": {"parts": [{"percent": 50, "score_ns": 1}]}}, "ew_score.parts"),
        ({"kind": "bonus", "board": 1}, "kind"),
    ]
    for body, field in bad:
        with pytest.raises(ScoreError) as refused:
            parse(body, places, pairs_matchpoints=True)
        assert refused.value.field == field, body


@pytest.mark.parametrize(("kind", "entrants", "tables", "rounds", "field"), [
    (MovementKind.MITCHELL, 6, 4, 2, "tables"),
    (MovementKind.MITCHELL, 6, 3, 5, "movement.rounds"),
    (MovementKind.HOWELL, 2, 1, None, "entrants"),
    (MovementKind.TEAMS, 1, 2, None, "entrants"),
    (MovementKind.MITCHELL, 6, 3, 3, "movement.boards_per_round"),  # 9 boards of 12? 3 × 4
    (MovementKind.SWISS, 4, 4, None, "movement.rounds"),
])
def test_a_movement_that_does_not_fit_names_the_field(
        kind: MovementKind, entrants: int, tables: int, rounds: int | None, field: str) -> None:
    per = 4 if field == "movement.boards_per_round" else 2
    deals = list(range(1, 10))
    with pytest.raises(TournamentError) as refused:
        movement_of(kind, per, rounds, Scoring.MATCHPOINTS, entrants, tables, deals)
    assert refused.value.field == field


def test_a_round_seats_the_entrants_names_at_the_tables() -> None:
    made = _made(MovementKind.TEAMS, 2, 4, 1)
    assert made.movement == Movement(MovementKind.TEAMS, 4, 1)
    open_room, closed_room = plan(made.movement, 2)[0].tables
    assert seat_names(open_room, made.entrants, teams=True) == {
        "N": "A1", "S": "A2", "E": "B3", "W": "B4"}
    assert seat_names(closed_room, made.entrants, teams=True) == {
        "N": "B1", "S": "B2", "E": "A3", "W": "A4"}
    assert seating_map(open_room) == {"ns": 1, "ew": 2, "boards": [1, 2, 3, 4]}


def test_the_results_as_pbn_score_tables_and_csv() -> None:
    """PBN 2.1 section 5 (tables): each column named with its width, each row as many values
    as columns, a ranking line per pair, a traveller line per result."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    doc = results(made, round_records(made), MITCHELL_TABLES, DIRECTOR)
    pbn = write_pbn(doc, made)
    tables = re.findall(r'\[(ScoreTable|TotalScoreTable) "([^"]+)"\]\n((?:[^\[\n].*\n?)*)', pbn)
    assert [name for name, _, _ in tables].count("ScoreTable") == 6
    assert [name for name, _, _ in tables].count("TotalScoreTable") == 1
    for name, header, body in tables:
        columns = header.split(";")
        assert all(re.fullmatch(r"\w+\\\d+[LR]", c) for c in columns), header
        rows = [shlex.split(row) for row in body.strip().splitlines()]
        assert rows and all(len(row) == len(columns) for row in rows), (name, rows)
        if name == "TotalScoreTable":
            assert sorted(int(row[1]) for row in rows) == [1, 2, 3, 4, 5, 6]
            percent = {int(row[1]): float(row[4]) for row in rows}
            assert percent == {r["entrant"]: round(r["percent"], 2) for r in doc["rankings"]}
    board1 = next(body for name, _, body in tables if name == "ScoreTable")
    assert '1 4 "450" - 1.00 1.00 50.00 50.00' in board1  # the corrected +450 ties
    csv = write_csv(doc).splitlines()
    assert csv[0].startswith("ranking,rank,entrant") and len(
        [row for row in csv if row.startswith("traveller,")]) == 1 + 12


def test_the_csv_travellers_carry_the_play_as_the_json_does() -> None:
    """A traveller's line played at the table: its contract, declarer, opening lead and
    tricks (`shared.table.board_result.contract_line`) in the CSV's last columns, as in the JSON;
    empty where the Director gave the score (Law 12C) or the play is not known."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    played = {"t-1": {2: {"contract": "1NTX", "declarer": "N", "lead": "HK", "tricks": 6}}}
    doc = results(made, round_records(made), MITCHELL_TABLES, DIRECTOR, table_lines=played)
    rows = list(csv.reader(io.StringIO(write_csv(doc))))
    header = next(r for r in rows if r[:2] == ["traveller", "board"])
    play = ["contract", "declarer", "lead", "tricks"]
    assert header[-4:] == play
    lines = [dict(zip(header, r, strict=True)) for r in rows
             if r[0] == "traveller" and r[1] != "board"]
    expected = [{k: str(line.get(k, "")) for k in play}
                for t in doc["travellers"] for line in t["lines"]]
    assert [{k: x[k] for k in play} for x in lines] == expected
    assert {"contract": "1NTX", "declarer": "N", "lead": "HK", "tricks": "6"} in expected


def test_a_csv_cell_a_spreadsheet_would_run_is_written_as_text() -> None:
    """CSV injection (OWASP): a pair named `=cmd|' /C calc'!A0`, others `@SUM(A1)` and
    `-2+3`, a Director's reason `+1`: each such cell begins with a single quote, so that a
    spreadsheet shows it rather than runs it; a score (-100, +620 weighted) and a number
    stay numbers (Law 77's scores, the matchpoints)."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    hostile = {1: "=cmd|' /C calc'!A0", 2: "@SUM(A1)", 3: "-2+3", 4: "\t=1+1"}
    made = replace(made, entrants=tuple(replace(e, name=hostile.get(e.number, e.name))
                                        for e in made.entrants))
    director = [{**DIRECTOR[0], "reason": "+1 (Law 79C)"}, *DIRECTOR[1:]]
    doc = results(made, round_records(made), MITCHELL_TABLES, director)
    rows = list(csv.reader(io.StringIO(write_csv(doc))))
    names = {int(row[2]): row[3] for row in rows if row[0] == "ranking" and row[1] != "rank"}
    assert names == {1: "'=cmd|' /C calc'!A0", 2: "'@SUM(A1)", 3: "'-2+3", 4: "'\t=1+1",
                     5: "E", 6: "F"}
    header = next(r for r in rows if r[:2] == ["traveller", "board"])
    lines = [row for row in rows if row[0] == "traveller" and row[1] != "board"]
    assert "'+1 (Law 79C)" in [row[header.index("reason")] for row in lines]
    scores = [row[5] for row in lines]
    assert "-100" in scores and "-200" in scores and "60%:620 40%:-100" in scores
    assert all(not row[5].startswith("'") and not row[6].startswith("'") for row in lines)


def test_a_swiss_pairs_its_next_round_by_the_vps_without_a_repeat() -> None:
    """Round 1 in order; round 2 the leaders together, no match met before, the bye to the
    lowest team that has not had one; each round its own boards."""
    first = swiss_round(1, 5, 3, {}, ())
    assert [(s.ns, s.ew) for s in first.tables] == [(1, 2), (2, 1), (3, 4), (4, 3)]
    assert first.sit_out == (5,) and first.tables[0].boards == (1, 2, 3)
    vp = {1: 15.0, 2: 5.0, 3: 12.0, 4: 8.0, 5: 10.0}
    second = swiss_round(2, 5, 3, vp, [frozenset((1, 2)), frozenset((3, 4))], [5])
    assert [(s.ns, s.ew) for s in second.tables[0::2]] == [(1, 3), (5, 4)]
    assert second.sit_out == (2,) and second.tables[0].boards == (4, 5, 6)


def test_a_howell_is_one_field_ranked_by_cross_imps() -> None:
    """Law 78B: cross-IMPs, each result against each other on the board, over n − 1."""
    deals = {n: {"board": n} for n in range(1, 13)}
    movement = movement_of(MovementKind.HOWELL, 2, 1, Scoring.CROSS_IMPS, 4, 2, list(deals))
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), deals, entrants=entrants(4),
                      movement=movement)
    seat = plan(movement, 4)[0].tables
    tables = {"t-1": {1: 620, 2: 100}, "t-2": {1: 170, 2: 100}}
    doc = results(made, round_records(made), tables, [])
    ns1, ew1, ns2, ew2 = seat[0].ns, seat[0].ew, seat[1].ns, seat[1].ew
    imps = {ns1: imps_by_law(450), ew1: -imps_by_law(450), ns2: -imps_by_law(450),
            ew2: imps_by_law(450)}
    assert {r["entrant"]: r["points"] for r in doc["rankings"]} == imps
    assert all(r["direction"] is None for r in doc["rankings"])


def test_a_tables_results_fold_on_from_where_the_last_request_left_them() -> None:
    """The gateway folds only the records past the last offset it folded: step by step, the
    same results as the whole log at once (a record that is no event is skipped)."""
    log = [encode(from_map(e)) for e in _one_notrump_boards(3)]
    records: list[tuple[int, bytes | None]] = [(i, v) for i, v in enumerate(log)]
    records.insert(4, (len(log), b"\x00 not an event"))
    records = [(i, v) for i, (_, v) in enumerate(records)]
    whole = table_results(records)
    assert whole == {1: 120, 2: -120, 3: 120}
    kept = Folded()
    steps = [fold_more(kept, records[:n]) for n in (3, 9, len(records), len(records))]
    assert steps[-1] == steps[-2] == whole and steps[0] == {}
    assert kept.next_offset == len(records)


def _one_notrump_boards(boards: int) -> list[dict[str, Any]]:
    """A round of `boards` boards, each bid 1NT by its dealer and 8 tricks recorded
    (Law 79A): NS score +120 on North's and South's deals, −120 on East's and West's."""
    deal = "N:AKQJ.AKQJ.AKQ.AK T987.T98.T98.T98 65432.765.765.76 .432.J432.QJ5432"
    events: list[dict[str, Any]] = [{"type": "round_started", "round": 1, "ts": 1,
                                     "boards": [{"board": b, "deal": deal}
                                                for b in range(1, boards + 1)]}]
    for b in range(1, boards + 1):
        seats = ["NESW"[(b - 1 + k) % 4] for k in range(4)]
        events.append({"type": "call", "seat": seats[0], "call": "1N", "ts": 1})
        events += [{"type": "call", "seat": s, "call": "P", "ts": 1} for s in seats[1:]]
        events.append({"type": "result_recorded", "tricks": 8, "ts": 1})
    return events
