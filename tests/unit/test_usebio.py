"""The results as USEBIO 1.2 XML (docs/scoring.md), read back with an XML parser and checked against
the results document and a hand computation: a Mitchell with each kind of the Director's
scores (Law 78A matchpoints, Laws 12C1(b), 12C1(c), 12C2, 90), its two fields ranked apart.
No DTD is checked: USEBIO's own DTD is not among the stored sources (docs/scoring.md)."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

import pytest

from shared.tournament.entrants import MovementKind
from shared.tournament.results import results
from shared.tournament.results_formats import write
from shared.tournament.usebio import UsebioError, score_text, write_usebio
from tests.unit.test_tournament_results import (
    DIRECTOR,
    MITCHELL_TABLES,
    TEAM_DIRECTOR,
    TEAM_TABLES,
    _independent_mitchell,
    _made,
)
from tests.unit.tournament_fixtures import round_records

PLAYED = {"t-1": {2: {"contract": "1NTX", "declarer": "N", "lead": "HK", "tricks": 6}}}


def _parsed() -> tuple[dict[str, Any], ElementTree.Element]:
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    doc = results(made, round_records(made), MITCHELL_TABLES, DIRECTOR, table_lines=PLAYED)
    return doc, ElementTree.fromstring(write_usebio(doc, made))


def test_the_usebio_file_holds_the_ranking_as_computed_by_hand() -> None:
    doc, root = _parsed()
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    assert root.findtext("CLUB/CLUB_NAME") == "tableserver"
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "PAIRS"
    assert event.findtext("WINNER_TYPE") == "2"  # a Mitchell: NS and EW ranked apart
    assert event.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    assert event.findtext("BOARDS_PLAYED") == "6"
    by_hand = _independent_mitchell()
    pairs = event.findall("PARTICIPANTS/PAIR")
    assert len(pairs) == 6
    for pair in pairs:
        number = int(pair.findtext("PAIR_NUMBER") or 0)
        assert float(pair.findtext("PERCENTAGE") or 0) == pytest.approx(by_hand[number],
                                                                         abs=0.006)
        assert pair.findtext("DIRECTION") == ("NS" if number <= 3 else "EW")
        ranked = next(r for r in doc["rankings"] if r["entrant"] == number)
        assert (pair.findtext("PLACE") or "").rstrip("=") == str(ranked["rank"])
        assert [p.findtext("PLAYER_NAME") for p in pair.findall("PLAYER")] == [
            f"{chr(64 + number)}{k}" for k in range(1, 5)]


def test_each_traveller_line_is_the_results_line() -> None:
    doc, root = _parsed()
    boards = root.findall("EVENT/BOARD")
    assert [int(b.findtext("BOARD_NUMBER") or 0) for b in boards] == [
        t["board"] for t in doc["travellers"]]
    for board, traveller in zip(boards, doc["travellers"], strict=True):
        lines = board.findall("TRAVELLER_LINE")
        assert len(lines) == len(traveller["lines"])
        for node, line in zip(lines, traveller["lines"], strict=True):
            assert int(node.findtext("NS_PAIR_NUMBER") or 0) == line["ns"]
            assert int(node.findtext("EW_PAIR_NUMBER") or 0) == line["ew"]
            assert float(node.findtext("NS_MATCH_POINTS") or -1) == pytest.approx(
                line["ns_points"], abs=0.005)
            assert float(node.findtext("EW_MATCH_POINTS") or -1) == pytest.approx(
                line["ew_points"], abs=0.005)
    scores = {(int(b.findtext("BOARD_NUMBER") or 0), int(n.findtext("NS_PAIR_NUMBER") or 0)):
              n for b in boards for n in b.findall("TRAVELLER_LINE")}
    assert scores[1, 1].findtext("SCORE") == "450"  # corrected (Law 79C)
    assert scores[3, 2].findtext("SCORE") == "332"  # 60 % of 620 and 40 % of −100
    assert scores[5, 3].findtext("SCORE") == "A6040"  # Law 12C2: A+ to NS, A− to EW
    assert scores[6, 2].findtext("SCORE") == "200"  # assigned (Law 12C1(b))
    assert scores[3, 1].findtext("SCORE") == "450"  # played at t-1
    played = scores[2, 1]
    assert [played.findtext(t) for t in ("CONTRACT", "PLAYED_BY", "LEAD", "TRICKS")] == [
        "1NTX", "N", "HK", "6"]
    assert scores[4, 1].find("CONTRACT") is None  # no play recorded for it here


def test_a_split_score_and_the_pairs_writer_refuses_a_teams_event() -> None:
    assert score_text({"kind": "split", "ns_score": {"score_ns": 110}, "ew_score": {}}) == "110"
    assert score_text({"kind": "artificial", "ns_fault": "partly_at_fault",
                       "ew_fault": "partly_at_fault"}) == "A5050"
    teams = _made(MovementKind.TEAMS, 2, 4, 1)
    doc = results(teams, round_records(teams), TEAM_TABLES, TEAM_DIRECTOR)
    with pytest.raises(UsebioError):
        write_usebio(doc, teams)
    assert ElementTree.fromstring(write(doc, teams, "usebio")[0]).find("EVENT/MATCH") \
        is not None  # a teams event's file: shared.tournament.usebio_teams
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    text, media = write(results(made, round_records(made), MITCHELL_TABLES, []), made, "usebio")
    assert media == "application/xml" and text.startswith('<?xml version="1.0"')
