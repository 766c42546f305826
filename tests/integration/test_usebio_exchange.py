"""USEBIO exchanged with another scoring program on the real stack (scoring.md): a team match and
an IMP pairs Howell with their results recorded through the API (the Director's scores of the
results obtained, Law 79C), exported as USEBIO and read back, each line's IMPs as worked by hand
from Law 78B's table (tests/unit/tournament_fixtures.py); the teams file imported into a second
match (`POST …/results/import`) scores it the same, and a file with a line at fault is refused
naming it, nothing recorded."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

from tests.helpers import DEALS
from tests.integration.test_tournament_results import TEAMS
from tests.stack import Stack
from tests.unit.tournament_fixtures import imps_by_law

# (board, NS team, EW team) → NS's score: the open room home NS, the closed room away NS
TEAM_SCORES = {(1, 1, 2): 620, (1, 2, 1): -170, (2, 1, 2): -100, (2, 2, 1): -100,
               (3, 1, 2): 1430, (3, 2, 1): 1430, (4, 1, 2): 0, (4, 2, 1): -50}
# the first round of a four-pair Howell (test_howell_results: pair 4 fixed)
HOWELL_SCORES = {(1, 1, 4): 620, (1, 3, 2): 170, (2, 1, 4): 100, (2, 3, 2): 100}
PAIRS = [{"name": f"x {n}", "players": [f"X{n}a", f"X{n}b"]} for n in range(1, 5)]


def _recorded(http: Any, t: str, scores: dict[tuple[int, int, int], int]) -> None:
    for (board, ns, ew), score in scores.items():
        given = http.post(f"/api/tournaments/{t}/scores", json={
            "kind": "corrected", "board": board, "ns": ns, "ew": ew, "score_ns": score,
            "reason": "the table's result, entered by the Director"})
        assert given.status_code == 202, given.text


def _match(http: Any, t: str) -> None:
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": [f"{t}-open", f"{t}-closed"], "deals": DEALS,
        "entrants": TEAMS, "movement": {"kind": "teams", "boards_per_round": 4}})
    assert made.status_code == 201, made.text
    assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202


def _usebio(http: Any, t: str) -> tuple[str, ElementTree.Element]:
    got = http.get(f"/api/tournaments/{t}/results", params={"format": "usebio"})
    assert got.status_code == 200, got.text
    assert got.headers["content-type"].startswith("application/xml")
    return got.text, ElementTree.fromstring(got.content)


def test_a_team_match_exported_as_usebio_imports_into_another(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        _match(http, "xt")
        _recorded(http, "xt", TEAM_SCORES)
        text, root = _usebio(http, "xt")
        event = root.find("EVENT")
        assert event is not None and event.get("EVENT_TYPE") == "TEAMS"
        assert [t.get("TEAM_NAME") for t in event.findall("PARTICIPANTS/TEAM")] == [
            "Lions", "Tigers"]
        match = event.find("MATCH")
        assert match is not None and match.findtext("TEAM") == "1"
        # by hand, Law 78B: board 1 620 and 170 the other way, 790: 13 IMPs; board 4 the
        # closed room's −50 is +50 to the home team sitting EW: 2 IMPs; boards 2, 3 flat
        imps = {int(b.findtext("BOARD_NUMBER") or 0): float(b.findtext("IMPS") or 0)
                for b in match.findall("BOARD")}
        assert imps == {1: imps_by_law(790), 2: 0, 3: 0, 4: imps_by_law(50)} == \
            {1: 13, 2: 0, 3: 0, 4: 2}
        assert float(match.findtext("TEAM_IMPS") or 0) == 15
        assert float(match.findtext("OPPOSING_TEAM_IMPS") or 0) == 0
        exported = http.get("/api/tournaments/xt/results").json()

        _match(http, "xu")
        bad = text.replace("<SCORE>1430</SCORE>", "<SCORE>seven</SCORE>", 1)
        refused = http.post("/api/tournaments/xu/results/import", content=bad.encode(),
                            headers={"Content-Type": "application/xml"})
        assert refused.status_code == 400, refused.text
        assert "TRAVELLER_LINE[5].SCORE" in refused.text  # board 3's open room
        assert http.get("/api/tournaments/xu/results").json()["adjustments"] == []
        imported = http.post("/api/tournaments/xu/results/import", content=text.encode(),
                             headers={"Content-Type": "application/xml"})
        assert imported.status_code == 202, imported.text
        assert imported.json()["imported"] == 8
        again = http.get("/api/tournaments/xu/results").json()
        assert [(r["entrant"], r["vp"], r["imps"]) for r in again["rankings"]] == [
            (r["entrant"], r["vp"], r["imps"]) for r in exported["rankings"]]
        assert {(a["board"], a["ns"], a["ew"]): a["score_ns"] for a in again["adjustments"]} \
            == TEAM_SCORES
    with stack.client() as public:
        assert public.post("/api/tournaments/xu/results/import",
                           content=text.encode()).status_code == 401


def test_an_imp_pairs_howell_is_exported_with_each_lines_cross_imps(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": "xh", "tables": ["xh-a", "xh-b"], "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 2, "rounds": 3,
                         "scoring": "cross_imps"}})
        assert made.status_code == 201, made.text
        assert http.post("/api/tournaments/xh/rounds", json={"round": 1}).status_code == 202
        _recorded(http, "xh", HOWELL_SCORES)
        _, root = _usebio(http, "xh")
        assert root.findtext("EVENT/BOARD_SCORING_METHOD") == "CROSS_IMPS"
        lines = {(int(b.findtext("BOARD_NUMBER") or 0), int(n.findtext("NS_PAIR_NUMBER") or 0)):
                 n for b in root.findall("EVENT/BOARD") for n in b.findall("TRAVELLER_LINE")}
        # Law 78B: 620 against 170, 450: 10 IMPs, over the one other result
        assert float(lines[1, 1].findtext("NS_IMPS") or 0) == imps_by_law(450) == 10
        assert float(lines[1, 3].findtext("EW_IMPS") or 0) == 10
        assert float(lines[2, 1].findtext("NS_IMPS") or 1) == 0
        totals = {p.findtext("PAIR_NUMBER"): float(p.findtext("TOTAL_SCORE") or 0)
                  for p in root.findall("EVENT/PARTICIPANTS/PAIR")}
        assert totals == {"1": 10, "2": 10, "3": -10, "4": -10}
