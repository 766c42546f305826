"""The exports of the three pairs forms a single field's file does not say (docs/scoring.md, "USEBIO
for sections, individuals and Swiss pairs"; "PBN's score tables"): read back (an XML parser, PBN's
tables column by column) and checked against the small events worked by hand in
`test_sections` (board 1 matchpointed across both sections, Law 78A), `test_individuals` (each
player his sides' matchpoints, Neuberg on a board played once, Law 78A) and `test_swiss_pairs`
(cross-IMPs, Law 78B, to VPs on the WBF scale)."""

from __future__ import annotations

import re
import shlex
from typing import Any
from xml.etree import ElementTree

import pytest

from shared.scores.corrections import scheduled
from shared.scores.movements import Round
from shared.scores.swiss_pairs import swiss_pairs_round
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import Entrant, MovementKind, movement_of
from shared.tournament.results import results, rounds_of
from shared.tournament.results_formats import write
from shared.tournament.session import Tournament
from shared.tournament.swiss_pairs_rounds import next_swiss_pairs_round
from shared.tournament.usebio_import import imported_scores
from tests.unit.test_individuals import TABLES as INDIVIDUAL_TABLES
from tests.unit.test_sections import TABLES as SECTION_TABLES, _tables as section_tables
from tests.unit.test_swiss_pairs import ROUND_1, ROUND_2, _records
from tests.unit.tournament_fixtures import entrants, round_records

pytestmark = pytest.mark.unit


def _sections() -> tuple[Tournament, dict[str, Any]]:
    movement = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 12, 6,
                           [1, 2, 3], sections=2)
    made = Tournament("s", "s", "duplicate", SECTION_TABLES,
                      {n: {"board": n} for n in (1, 2, 3)}, entrants=entrants(12),
                      movement=movement)
    return made, dict(results(made, round_records(made), section_tables(), []))


PLAYERS = tuple(Entrant(i, f"P{i}", (f"P{i}",), (f"EBU {i}",)) for i in range(1, 9))


def _individual() -> tuple[Tournament, dict[str, Any]]:
    movement = movement_of(MovementKind.INDIVIDUAL, 1, 2, Scoring.MATCHPOINTS, 8, 2,
                           list(range(1, 8)))
    made = Tournament("i", "i", "duplicate", INDIVIDUAL_TABLES,
                      {n: {"board": n} for n in range(1, 8)}, entrants=PLAYERS,
                      movement=movement)
    tables = {"i-1": {1: 420, 2: -100}, "i-2": {1: 170}}
    return made, dict(results(made, round_records(made), tables, []))


def _swiss_pairs() -> tuple[Tournament, list[Round], dict[str, Any]]:
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.SWISS_PAIRS, 2, 3, Scoring.CROSS_IMPS, 4, 2,
                           list(deals))
    made = Tournament("sp", "sp", "duplicate", ("sp-1", "sp-2"), deals, entrants=entrants(4),
                      movement=movement)
    one = swiss_pairs_round(1, 4, 2, {})
    vp = {r["entrant"]: r["vp"] for r in results(made, _records(made, [one]), ROUND_1,
                                                  [])["rankings"]}
    two = next_swiss_pairs_round(2, made, _records(made, [one]), vp)
    tables = {t: ROUND_1[t] | ROUND_2[t] for t in ROUND_1}
    return made, [one, two], dict(results(made, _records(made, [one, two]), tables, []))


def _xml(doc: dict[str, Any], made: Tournament) -> ElementTree.Element:
    return ElementTree.fromstring(write(doc, made, "usebio")[0])


def _text(node: ElementTree.Element, tag: str) -> str:
    return node.findtext(tag) or ""


def _pbn_tables(text: str) -> list[tuple[dict[str, str], str, list[dict[str, str]]]]:
    """Each PBN game's tags, and each of its tables (name, rows by column)."""
    out = []
    for game in (g for g in text.split("\n\n") if "[Board" in g):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', game, flags=re.M))
        for name, header, body in re.findall(
                r'\[(ScoreTable|TotalScoreTable) "([^"]+)"\]\n((?:[^\[\n].*\n?)*)', game):
            columns = [c.split("\\")[0] for c in header.split(";")]
            rows = [dict(zip(columns, shlex.split(row), strict=True))
                    for row in body.strip().splitlines()]
            out.append((tags, name, rows))
    return out


def test_usebio_sections_each_with_its_pairs_places_and_lines() -> None:
    """Board 1 across the field (test_sections, Law 78A): 420 at table 1 (pair 1 v 4) is 7 of
    the top 10, not section A's top of 4 alone; 450 (pair 9) 10. Places: NS 9 first, 1 and 7
    tie second over the field, each first in his section; EW 4 and 10 tie fourth, third and
    second in their sections."""
    made, doc = _sections()
    root = _xml(doc, made)
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "PAIRS"
    assert (_text(event, "SECTION_COUNT"), _text(event, "SESSION_COUNT"),
            _text(event, "WINNER_TYPE")) == ("2", "1", "2")
    assert event.find("PARTICIPANTS") is None and event.find("BOARD") is None
    sessions = event.findall("SESSION")
    assert [s.get("SESSION_ID") for s in sessions] == ["1"]
    sections = sessions[0].findall("SECTION")
    assert [s.get("SECTION_ID") for s in sections] == ["A", "B"]
    pairs = {s.get("SECTION_ID"): {int(_text(p, "PAIR_NUMBER")): (
        _text(p, "DIRECTION"), _text(p, "PLACE"), _text(p, "SECTION_PLACE"),
        _text(p, "PERCENTAGE")) for p in s.findall("PARTICIPANTS/PAIR")} for s in sections}
    assert sorted(pairs["A"]) == [1, 2, 3, 4, 5, 6]
    assert sorted(pairs["B"]) == [7, 8, 9, 10, 11, 12]
    assert pairs["B"][9] == ("NS", "1", "1", "66.67")
    assert pairs["A"][1] == ("NS", "2=", "1", "56.67")
    assert pairs["B"][7] == ("NS", "2=", "2", "56.67")
    assert pairs["A"][4] == ("EW", "4=", "3", "43.33")
    assert pairs["B"][10] == ("EW", "4=", "2", "43.33")
    board_1 = {s.get("SECTION_ID"): {
        (int(_text(x, "NS_PAIR_NUMBER")), int(_text(x, "EW_PAIR_NUMBER"))): (
            _text(x, "SCORE"), _text(x, "NS_MATCH_POINTS"), _text(x, "EW_MATCH_POINTS"))
        for b in s.findall("BOARD") if _text(b, "BOARD_NUMBER") == "1"
        for x in b.findall("TRAVELLER_LINE")} for s in sections}
    assert board_1 == {
        "A": {(1, 4): ("420", "7.00", "3.00"), (3, 5): ("170", "2.00", "8.00"),
              (2, 6): ("400", "4.00", "6.00")},
        "B": {(7, 10): ("420", "7.00", "3.00"), (9, 11): ("450", "10.00", "0.00"),
              (8, 12): ("-50", "0.00", "10.00")}}


def test_pbn_sections_a_game_per_board_and_section() -> None:
    made, doc = _sections()
    tables = _pbn_tables(write(doc, made, "pbn")[0])
    scores = [(tags["Board"], tags["Section"], rows) for tags, name, rows in tables
              if name == "ScoreTable"]
    assert [(b, s) for b, s, _ in scores] == [
        ("1", "A"), ("2", "A"), ("3", "A"), ("1", "B"), ("2", "B"), ("3", "B")]
    assert {tags["Competition"] for tags, _, _ in tables} == {"Pairs"}
    board_1 = {s: {(r["PairId_NS"], r["MP_NS"]) for r in rows} for b, s, rows in scores
               if b == "1"}
    assert board_1 == {"A": {("1", "7.00"), ("3", "2.00"), ("2", "4.00")},
                       "B": {("7", "7.00"), ("9", "10.00"), ("8", "0.00")}}
    [total] = [rows for _, name, rows in tables if name == "TotalScoreTable"]
    assert {r["PairId"]: (r["Section"], r["Rank"]) for r in total} == {
        str(r["entrant"]): ("A" if r["entrant"] <= 6 else "B", str(r["rank"]))
        for r in doc["rankings"]}


def test_usebio_individual_ranks_players_and_names_each_seat() -> None:
    """test_individuals' event by hand: board 1 at table 1 (N1 E2 S3 W4) +420 beats 170 at
    table 2 (N5 E6 S7 W8): 2 of the top 2 to 1 and 3; board 2 at table 1 only (N1 E5 S7 W3,
    −100), due twice: Neuberg 1 to each side. Players 6 and 8 100 % (first, tied), 1 and 3
    75 %, 5 and 7 25 %, 2 and 4 0 %."""
    made, doc = _individual()
    event = _xml(doc, made).find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "INDIVIDUAL"
    assert event.findall("PARTICIPANTS/PAIR") == []
    players = {int(_text(p, "PLAYER_NUMBER")): (
        _text(p, "PLAYER_NAME"), _text(p, "NATIONAL_ID_NUMBER"), _text(p, "PLACE"),
        _text(p, "TOTAL_SCORE"), _text(p, "PERCENTAGE"))
        for p in event.findall("PARTICIPANTS/PLAYER")}
    assert players == {
        6: ("P6", "EBU 6", "1=", "2.00", "100.00"), 8: ("P8", "EBU 8", "1=", "2.00", "100.00"),
        1: ("P1", "EBU 1", "3=", "3.00", "75.00"), 3: ("P3", "EBU 3", "3=", "3.00", "75.00"),
        5: ("P5", "EBU 5", "5=", "1.00", "25.00"), 7: ("P7", "EBU 7", "5=", "1.00", "25.00"),
        2: ("P2", "EBU 2", "7=", "0.00", "0.00"), 4: ("P4", "EBU 4", "7=", "0.00", "0.00")}
    seats = ("NORTH", "EAST", "SOUTH", "WEST")
    lines = {(int(_text(b, "BOARD_NUMBER")), tuple(
        int(_text(x, f"{s}_PLAYER_NUMBER")) for s in seats)): (
        _text(x, "NS_PAIR_NUMBER"), _text(x, "SCORE"), _text(x, "NS_MATCH_POINTS"),
        _text(x, "EW_MATCH_POINTS"))
        for b in event.findall("BOARD") for x in b.findall("TRAVELLER_LINE")}
    assert lines == {(1, (1, 2, 3, 4)): ("10003", "420", "2.00", "0.00"),
                     (1, (5, 6, 7, 8)): ("50007", "170", "0.00", "2.00"),
                     (2, (1, 5, 7, 3)): ("10007", "-100", "1.00", "1.00")}


def test_pbn_individual_players_in_place_of_pairs() -> None:
    made, doc = _individual()
    tables = _pbn_tables(write(doc, made, "pbn")[0])
    assert {tags["Competition"] for tags, _, _ in tables} == {"Individuals"}
    [total] = [rows for _, name, rows in tables if name == "TotalScoreTable"]
    assert {r["PlayerId"]: (r["Rank"], r["Name"], r["TotalPercentage"]) for r in total} == {
        "6": ("1", "P6", "100.00"), "8": ("1", "P8", "100.00"), "1": ("3", "P1", "75.00"),
        "3": ("3", "P3", "75.00"), "5": ("5", "P5", "25.00"), "7": ("5", "P7", "25.00"),
        "2": ("7", "P2", "0.00"), "4": ("7", "P4", "0.00")}
    board_1 = next(rows for tags, name, rows in tables
                   if name == "ScoreTable" and tags["Board"] == "1")
    assert [(r["PlayerId_North"], r["PlayerId_East"], r["PlayerId_South"],
             r["PlayerId_West"], r["Score_NS"], r["MP_NS"]) for r in board_1] == [
        ("1", "2", "3", "4", "420", "2.00"), ("5", "6", "7", "8", "170", "0.00")]


def test_usebio_swiss_pairs_each_match_with_its_vps() -> None:
    """test_swiss_pairs by hand (Law 78B, the WBF scale): round 1, 1 v 2 and 3 v 4, each
    +1 or −1 IMP (10.86 / 9.14 VPs); round 2, 1 v 4 and 2 v 3, ±6 (14.39 / 5.61). Totals 1
    25.25, 3 23.53, 4 16.47, 2 14.75."""
    made, _, doc = _swiss_pairs()
    event = _xml(doc, made).find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "SWISS_PAIRS"
    assert (_text(event, "MATCH_SCORING_METHOD"), _text(event, "BOARD_SCORING_METHOD")) == (
        "VPS", "CROSS_IMPS")
    pairs = {int(_text(p, "PAIR_NUMBER")): (_text(p, "PLACE"), _text(p, "TOTAL_SCORE"))
             for p in event.findall("PARTICIPANTS/PAIR")}
    assert pairs == {1: ("1", "25.25"), 3: ("2", "23.53"), 4: ("3", "16.47"),
                     2: ("4", "14.75")}
    assert all(p.find("DIRECTION") is None and p.find("PERCENTAGE") is None
               for p in event.findall("PARTICIPANTS/PAIR"))
    assert event.find("BOARD") is None  # the boards are in their matches
    matches = {(int(_text(m, "ROUND_NUMBER")), int(_text(m, "NS_PAIR_NUMBER")),
                int(_text(m, "EW_PAIR_NUMBER"))): (
        _text(m, "NS_SCORE"), _text(m, "EW_SCORE"), _text(m, "NS_IMPS"), _text(m, "EW_IMPS"),
        [int(_text(b, "BOARD_NUMBER")) for b in m.findall("BOARD")])
        for m in event.findall("MATCH")}
    assert matches == {
        (1, 1, 2): ("10.86", "9.14", "1.00", "-1.00", [1, 2]),
        (1, 3, 4): ("9.14", "10.86", "-1.00", "1.00", [1, 2]),
        (2, 1, 4): ("14.39", "5.61", "6.00", "-6.00", [3, 4]),
        (2, 2, 3): ("5.61", "14.39", "-6.00", "6.00", [3, 4])}
    [board_1] = [b for m in event.findall("MATCH") if _text(m, "NS_PAIR_NUMBER") == "1"
                 and _text(m, "ROUND_NUMBER") == "1" for b in m.findall("BOARD")
                 if _text(b, "BOARD_NUMBER") == "1"]
    line = board_1.find("TRAVELLER_LINE")
    assert line is not None and (_text(line, "SCORE"), _text(line, "NS_IMPS")) == (
        "420", "6.00")  # 420 against 170: 250, 6 IMPs


def test_pbn_swiss_pairs_total_vps_and_each_lines_round() -> None:
    made, _, doc = _swiss_pairs()
    tables = _pbn_tables(write(doc, made, "pbn")[0])
    [total] = [rows for _, name, rows in tables if name == "TotalScoreTable"]
    assert {r["PairId"]: (r["Rank"], r["TotalScoreVP"], r["TotalScoreIMP"])
            for r in total} == {"1": ("1", "25.25", "7.00"), "3": ("2", "23.53", "5.00"),
                                "4": ("3", "16.47", "-5.00"), "2": ("4", "14.75", "-7.00")}
    rounds = {(tags["Board"], r["PairId_NS"]): r["Round"] for tags, name, rows in tables
              if name == "ScoreTable" for r in rows}
    assert rounds == {("1", "1"): "1", ("1", "3"): "1", ("2", "1"): "1", ("2", "3"): "1",
                      ("3", "1"): "2", ("3", "2"): "2", ("4", "1"): "2", ("4", "2"): "2"}


def test_a_swiss_pairs_and_an_individuals_file_import_back_and_rank_the_same() -> None:
    """Each exported line imported as the Director's score (Law 79C), on no table's result:
    the same ranking."""
    made, rounds, doc = _swiss_pairs()
    records = _records(made, rounds)
    scores = imported_scores(write(doc, made, "usebio")[0].encode(),
                             scheduled(rounds_of(records, made)), False)
    assert len(scores) == 8
    again = results(made, records, {}, scores)
    assert [(r["entrant"], r["vp"]) for r in again["rankings"]] == [
        (r["entrant"], r["vp"]) for r in doc["rankings"]]
    made, doc = _individual()
    records = round_records(made)
    scores = imported_scores(write(doc, made, "usebio")[0].encode(),
                             scheduled(rounds_of(records, made)), True)
    again = results(made, records, {}, scores)
    assert [(r["entrant"], r["percent"]) for r in again["rankings"]] == [
        (r["entrant"], r["percent"]) for r in doc["rankings"]]
