"""The results' exports of the three pairs forms, downloaded through the gateway from events played
on the real stack (docs/scoring.md, "USEBIO for sections, individuals and Swiss pairs"): the
two-section Mitchell of `test_sections`, the individual of `test_individuals` and the Swiss pairs
of `test_swiss_pairs`, each played there and worked by hand there (Law 78A across the field;
each player his sides' matchpoints; cross-IMPs, Law 78B, to VPs on the WBF scale). Each USEBIO
file is parsed back and each PBN file's tables read column by column."""

from __future__ import annotations

import re
import shlex
from typing import Any
from xml.etree import ElementTree

from tests.integration.pairs_by_hand import by_hand, ranks
from tests.integration.test_individuals import BY_HAND, ROUND_1, ROUND_2, play_individual
from tests.integration.test_sections import play_sections
from tests.integration.test_swiss_pairs import _vp, play_swiss_pairs
from tests.integration.test_tournament_results import _wbf_scale
from tests.stack import Stack


def _download(http: Any, t: str, form: str) -> str:
    got = http.get(f"/api/tournaments/{t}/results", params={"format": form})
    assert got.status_code == 200, got.text
    text: str = got.text
    return text


def _event(http: Any, t: str) -> ElementTree.Element:
    event = ElementTree.fromstring(_download(http, t, "usebio")).find("EVENT")
    assert event is not None
    return event


def _pbn(http: Any, t: str) -> list[tuple[dict[str, str], str, list[dict[str, str]]]]:
    """Each game's tags with each of its tables (name, rows by column)."""
    out = []
    for game in (g for g in _download(http, t, "pbn").split("\n\n") if "[Board" in g):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', game, flags=re.M))
        for name, header, body in re.findall(
                r'\[(ScoreTable|TotalScoreTable) "([^"]+)"\]\n((?:[^\[\n].*\n?)*)', game):
            columns = [c.split("\\")[0] for c in header.split(";")]
            out.append((tags, name, [dict(zip(columns, shlex.split(row), strict=True))
                                     for row in body.strip().splitlines()]))
    return out


def _text(node: ElementTree.Element, tag: str) -> str:
    return node.findtext(tag) or ""


def test_sections_exported_each_with_its_pairs_places_and_lines(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        played, _ = play_sections(http, "xsect")
        event = _event(http, "xsect")
        pbn = _pbn(http, "xsect")
    percent = by_hand(played, {}, [])  # Law 78A over both sections, from the raw scores
    direction = {p: "NS" if (p - 1) % 6 < 3 else "EW" for p in range(1, 13)}
    assert event.get("EVENT_TYPE") == "PAIRS" and _text(event, "SECTION_COUNT") == "2"
    sections = event.findall("SESSION/SECTION")
    assert [s.get("SECTION_ID") for s in sections] == ["A", "B"]
    for s, first in zip(sections, (1, 7), strict=True):
        mine = range(first, first + 6)
        pairs = {int(_text(p, "PAIR_NUMBER")): p for p in s.findall("PARTICIPANTS/PAIR")}
        assert sorted(pairs) == list(mine)
        for field in ("NS", "EW"):
            within = ranks({p: percent[p] for p in mine if direction[p] == field})
            for p, rank in within.items():
                assert _text(pairs[p], "SECTION_PLACE").rstrip("=") == str(rank)
                assert _text(pairs[p], "PERCENTAGE") == f"{percent[p]:.2f}"
        lines = [(int(_text(x, "NS_PAIR_NUMBER")), int(_text(x, "EW_PAIR_NUMBER")))
                 for b in s.findall("BOARD") for x in b.findall("TRAVELLER_LINE")]
        assert len(lines) == 18 and all(ns in mine and ew in mine for ns, ew in lines)
    games = [(tags["Board"], tags["Section"]) for tags, name, _ in pbn if name == "ScoreTable"]
    assert games == [(str(b), s) for s in "AB" for b in range(1, 7)]
    [total] = [rows for _, name, rows in pbn if name == "TotalScoreTable"]
    assert {int(r["PairId"]): r["Section"] for r in total} == {
        p: "A" if p <= 6 else "B" for p in range(1, 13)}


def test_an_individual_exported_with_its_players(stack: Stack) -> None:
    with stack.client(stack.director) as director:
        play_individual(stack, director, "xindiv")
        event = _event(director, "xindiv")
        pbn = _pbn(director, "xindiv")
    assert event.get("EVENT_TYPE") == "INDIVIDUAL"
    assert event.findall("PARTICIPANTS/PAIR") == []
    players = {int(_text(p, "PLAYER_NUMBER")): (
        _text(p, "PLAYER_NAME"), _text(p, "PLACE").rstrip("="), _text(p, "PERCENTAGE"))
        for p in event.findall("PARTICIPANTS/PLAYER")}
    assert players == {p: (f"P{p}", str(rank), f"{pct:.2f}")
                       for p, (rank, _, pct) in BY_HAND.items()}
    seats = ("N", "E", "S", "W")
    for board, where in ((1, ROUND_1), (2, ROUND_2)):
        found = {tuple(int(_text(x, f"{name}_PLAYER_NUMBER")) for name in
                       ("NORTH", "EAST", "SOUTH", "WEST"))
                 for b in event.findall("BOARD") if _text(b, "BOARD_NUMBER") == str(board)
                 for x in b.findall("TRAVELLER_LINE")}
        by_seat = {(t, s): p for p, (t, s) in where.items()}
        assert found == {tuple(by_seat[t, s] for s in seats) for t in (1, 2)}
    assert {tags["Competition"] for tags, _, _ in pbn} == {"Individuals"}
    [total] = [rows for _, name, rows in pbn if name == "TotalScoreTable"]
    assert {int(r["PlayerId"]): r["Rank"] for r in total} == {
        p: str(rank) for p, (rank, _, _) in BY_HAND.items()}


def test_a_swiss_pairs_exported_with_each_match_and_its_vps(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        vp, imps, pairings, _ = play_swiss_pairs(http, "xswp")
        event = _event(http, "xswp")
        pbn = _pbn(http, "xswp")
    scale = _wbf_scale(2)
    assert event.get("EVENT_TYPE") == "SWISS_PAIRS"
    assert _text(event, "MATCH_SCORING_METHOD") == "VPS"
    assert {int(_text(p, "PAIR_NUMBER")): _text(p, "TOTAL_SCORE")
            for p in event.findall("PARTICIPANTS/PAIR")} == {
        p: f"{v:.2f}" for p, v in vp.items()}
    matches = {(int(_text(m, "ROUND_NUMBER")), int(_text(m, "NS_PAIR_NUMBER")),
                int(_text(m, "EW_PAIR_NUMBER"))): m for m in event.findall("MATCH")}
    assert sorted(matches) == sorted((rnd, ns, ew) for rnd, pairing in pairings.items()
                                     for ns, ew in pairing)
    for (rnd, ns, ew), m in matches.items():
        assert (_text(m, "NS_IMPS"), _text(m, "NS_SCORE"), _text(m, "EW_SCORE")) == (
            f"{imps[rnd, ns]:.2f}", f"{_vp(imps[rnd, ns], scale):.2f}",
            f"{_vp(imps[rnd, ew], scale):.2f}")
        assert [int(_text(b, "BOARD_NUMBER")) for b in m.findall("BOARD")] == [
            2 * rnd - 1, 2 * rnd]
    [total] = [rows for _, name, rows in pbn if name == "TotalScoreTable"]
    assert {int(r["PairId"]): r["TotalScoreVP"] for r in total} == {
        p: f"{v:.2f}" for p, v in vp.items()}
