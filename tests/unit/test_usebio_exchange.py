"""USEBIO 1.2 for teams and for pairs scored in IMPs, and results imported from another program's
USEBIO file (docs/scoring.md), read back with an XML parser and checked against hand-worked
examples: Law 78B's IMP scale (written out again in `tests.unit.tournament_fixtures.imps_by_law`),
cross-IMPs (each result against every other, over n − 1) and Butler (against the mean), a team
match's IMPs and VPs (the two-team match of `test_tournament_results`, worked there by hand:
Laws 78B, 12C1, 12C2, 90), and the Director's scores an import records (Laws 79C, 12C2(a))."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

import pytest

from shared.scores.corrections import scheduled
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import MovementKind, movement_of, plan
from shared.tournament.results import results, rounds_of
from shared.tournament.results_formats import write
from shared.tournament.session import Tournament
from shared.tournament.usebio import UsebioError, write_usebio
from shared.tournament.usebio_import import UsebioImportError, imported_scores
from tests.unit.test_tournament_results import TEAM_DIRECTOR, TEAM_TABLES, _made
from tests.unit.tournament_fixtures import entrants, imps_by_law, round_records

DEALS = {n: {"board": n} for n in range(1, 13)}
HOWELL_TABLES = {"t-1": {1: 620, 2: 100}, "t-2": {1: 170, 2: 100}}


def _howell(scoring: Scoring) -> Tournament:
    movement = movement_of(MovementKind.HOWELL, 2, 1, scoring, 4, 2, list(DEALS))
    return Tournament("t", "t", "duplicate", ("t-1", "t-2"), DEALS, entrants=entrants(4),
                      movement=movement)


def _usebio(made: Tournament, tables: dict[str, dict[int, int]],
            director: list[dict[str, Any]]) -> ElementTree.Element:
    text, media = write(results(made, round_records(made), tables, director), made, "usebio")
    assert media == "application/xml"
    return ElementTree.fromstring(text)


def _lines(root: ElementTree.Element) -> dict[tuple[int, int], ElementTree.Element]:
    return {(int(b.findtext("BOARD_NUMBER") or 0), int(n.findtext("NS_PAIR_NUMBER") or 0)): n
            for b in root.findall("EVENT/BOARD") for n in b.findall("TRAVELLER_LINE")}


@pytest.mark.parametrize(("scoring", "method", "imps"), [
    # Law 78B: 620 against 170 is 450, 10 IMPs (430–490); over n − 1 = 1 other result
    (Scoring.CROSS_IMPS, "CROSS_IMPS", imps_by_law(620 - 170)),
    # Butler: the datum is the mean, 395; 620 − 395 = 225, 6 IMPs (220–260)
    (Scoring.BUTLER, "BUTLER_IMPS", imps_by_law(620 - 395))])
def test_imp_pairs_are_written_with_their_method_and_each_lines_imps(
        scoring: Scoring, method: str, imps: int) -> None:
    made = _howell(scoring)
    seat = plan(made.movement, 4)[0].tables if made.movement else ()
    root = _usebio(made, HOWELL_TABLES, [])
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "PAIRS"
    assert event.findtext("BOARD_SCORING_METHOD") == method
    assert imps == (10 if scoring is Scoring.CROSS_IMPS else 6)  # the scale, read by hand
    lines = _lines(root)
    first, second = lines[1, seat[0].ns], lines[1, seat[1].ns]
    assert (first.findtext("SCORE"), second.findtext("SCORE")) == ("620", "170")
    assert float(first.findtext("NS_IMPS") or 0) == imps
    assert float(first.findtext("EW_IMPS") or 0) == -imps
    assert float(second.findtext("NS_IMPS") or 0) == -imps
    assert first.find("NS_MATCH_POINTS") is None
    assert float(lines[2, seat[0].ns].findtext("NS_IMPS") or 1) == 0  # flat
    totals = {int(p.findtext("PAIR_NUMBER") or 0): p
              for p in event.findall("PARTICIPANTS/PAIR")}
    assert float(totals[seat[0].ns].findtext("TOTAL_SCORE") or 0) == imps
    assert float(totals[seat[0].ew].findtext("TOTAL_SCORE") or 0) == -imps
    # one field: the first table's NS and the second's EW each won the swing, tied first
    assert totals[seat[0].ns].findtext("PLACE") == totals[seat[1].ew].findtext("PLACE") == "1="
    assert totals[seat[0].ew].findtext("PLACE") == "3="
    assert all(p.find("PERCENTAGE") is None for p in totals.values())  # IMPs: no percentage


def test_a_team_match_is_written_with_its_imps_vps_and_both_rooms() -> None:
    """Law 78B per board, 12C1 (a split score), 12C2 (A5060: ±3 IMPs), 90 (1 IMP off)."""
    made = _made(MovementKind.TEAMS, 2, 4, 1)
    root = _usebio(made, TEAM_TABLES, TEAM_DIRECTOR)
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "TEAMS"
    assert (event.findtext("BOARD_SCORING_METHOD"), event.findtext("MATCH_SCORING_METHOD")) \
        == ("IMPS", "VPS")
    assert event.findtext("BOARDS_PLAYED") == "4"
    teams = {t.get("TEAM_ID"): t for t in event.findall("PARTICIPANTS/TEAM")}
    assert teams["1"].get("TEAM_NAME") == "A" and teams["2"].get("TEAM_NAME") == "B"
    assert [p.findtext("PLAYER_NAME") for p in teams["2"].findall("PLAYER")] == [
        "B1", "B2", "B3", "B4"]
    assert (teams["1"].findtext("PLACE"), teams["2"].findtext("PLACE")) == ("1", "2")
    vp_home, vp_away = (float(teams[t].findtext("TOTAL_SCORE") or 0) for t in ("1", "2"))
    assert vp_home + vp_away == pytest.approx(20) and vp_home > 10
    match = event.find("MATCH")
    assert match is not None
    assert [match.findtext(t) for t in ("ROUND_NUMBER", "TEAM", "OPPOSING_TEAM")] == [
        "1", "1", "2"]
    assert float(match.findtext("TEAM_SCORE") or 0) == vp_home
    # by hand (test_tournament_results): home 13 (board 1: 620 and 170 the other way, 790,
    # 13 IMPs) and away 5 (board 2) + 3 (board 4, A5060) − 1 (penalty) = 7
    assert float(match.findtext("TEAM_IMPS") or 0) == imps_by_law(790) == 13
    assert float(match.findtext("OPPOSING_TEAM_IMPS") or 0) == 5 + 3 - 1
    boards = {int(b.findtext("BOARD_NUMBER") or 0): b for b in match.findall("BOARD")}
    assert float(boards[1].findtext("IMPS") or 0) == 13
    assert float(boards[2].findtext("IMPS") or 0) == -2.5  # the split's home side
    assert [(n.findtext("DIRECTION"), n.findtext("SCORE"))
            for n in boards[1].findall("TRAVELLER_LINE")] == [("NS", "620"), ("EW", "-170")]
    assert boards[4].findall("TRAVELLER_LINE")[0].findtext("SCORE") == "A5060"
    with pytest.raises(UsebioError):
        write_usebio(results(made, round_records(made), TEAM_TABLES, []), made)  # pairs only


def _places(made: Tournament) -> frozenset[tuple[int, int, int]]:
    return scheduled(rounds_of(round_records(made), made))


def test_an_exported_file_imports_as_the_directors_scores_and_ranks_the_same() -> None:
    """Law 79C (a result entered by the Director, scored as played), 12C2(a) (A6040)."""
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    tables = {"t-1": {1: 420, 2: -50, 3: 450, 4: 100},
              "t-2": {3: 420, 4: 140, 5: -200, 6: 300},
              "t-3": {5: -100, 6: 300, 1: 450, 2: -100}}
    artificial = [{"kind": "artificial", "board": 5, "ns": 3, "ew": 6,
                   "ns_fault": "not_at_fault", "ew_fault": "directly_at_fault"}]
    before = results(made, round_records(made), tables, artificial)
    data = write_usebio(before, made).encode()
    scores = imported_scores(data, _places(made), True)
    assert len(scores) == 12
    assert {"kind": "corrected", "board": 1, "ns": 1, "ew": 4, "score_ns": 420} \
        .items() <= scores[0].items()
    assert next(s for s in scores if s["kind"] == "artificial") | {"reason": ""} == \
        artificial[0] | {"reason": ""}
    assert scores[0]["reason"] == "imported from tableserver's USEBIO file"
    after = results(made, round_records(made), {}, scores)  # no table played: the file's
    assert [(r["entrant"], r["rank"], r["percent"]) for r in after["rankings"]] == [
        (r["entrant"], r["rank"], r["percent"]) for r in before["rankings"]]


def test_a_teams_file_imports_each_room_by_where_the_team_sat() -> None:
    made = _made(MovementKind.TEAMS, 2, 4, 1)
    doc = results(made, round_records(made), TEAM_TABLES, [])
    scores = imported_scores(write(doc, made, "usebio")[0].encode(), _places(made), False)
    assert [(s["board"], s["ns"], s["ew"], s["score_ns"]) for s in scores[:2]] == [
        (1, 1, 2, 620), (1, 2, 1, -170)]
    again = results(made, round_records(made), {}, scores)
    assert again["matches"][0]["home_imps"] == doc["matches"][0]["home_imps"]


BAD_SCORE = b"""<?xml version="1.0" encoding="iso-8859-1"?>
<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">
<USEBIO Version="1.2"><EVENT EVENT_TYPE="PAIRS"><SESSION><SECTION>
<BOARD><BOARD_NUMBER>1</BOARD_NUMBER>
<TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER>
<SCORE>420</SCORE></TRAVELLER_LINE>
<TRAVELLER_LINE><NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>5</EW_PAIR_NUMBER>
<SCORE>%s</SCORE></TRAVELLER_LINE></BOARD></SECTION></SESSION></EVENT></USEBIO>"""


@pytest.mark.parametrize(("data", "field"), [
    (BAD_SCORE % b"4 hearts", "TRAVELLER_LINE[2].SCORE"),
    (BAD_SCORE % b"A7030", "TRAVELLER_LINE[2].SCORE"),  # no such artificial score
    (BAD_SCORE.replace(b"<EW_PAIR_NUMBER>5", b"<EW_PAIR_NUMBER>x") % b"50",
     "TRAVELLER_LINE[2].EW_PAIR_NUMBER"),
    (BAD_SCORE.replace(b"<NS_PAIR_NUMBER>3", b"<NS_PAIR_NUMBER>1")
     .replace(b"<EW_PAIR_NUMBER>5", b"<EW_PAIR_NUMBER>4") % b"50", "TRAVELLER_LINE[2]"),
    (BAD_SCORE.replace(b"<EW_PAIR_NUMBER>5", b"<EW_PAIR_NUMBER>6") % b"50",
     "TRAVELLER_LINE[2].board"),  # 3 and 6 do not meet on board 1
    (b"<USEBIO><EVENT/>", "usebio"),
    (b"<PBN/>", "usebio"),
    (b'<!DOCTYPE USEBIO [<!ENTITY a "aaaa">]><USEBIO>&a;</USEBIO>', "usebio"),
    (b"<USEBIO Version='1.2'><EVENT/></USEBIO>", "usebio")])
def test_a_line_at_fault_refuses_the_whole_file_naming_it(data: bytes, field: str) -> None:
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    assert imported_scores(BAD_SCORE % b"50", _places(made), True)[1]["score_ns"] == 50
    with pytest.raises(UsebioImportError) as refused:
        imported_scores(data, _places(made), True)
    assert refused.value.field == field
    assert field.split(".")[0] in str(refused.value)
