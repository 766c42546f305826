"""A pairs tournament scored on the real stack (scoring.md): created with six pairs and a Mitchell
(3 tables, 2 rounds of 2 boards), each round seating the pairs (their names at the seats), each
board bid to 1NT by its dealer, led and its tricks agreed (Law 79A: declarer's result, both
defenders agreeing, Law 69A); the Director's scores (Laws 12C1(b), 12C1(c), 12C2, 90, and a
correction) posted as events, bad ones (one beyond Law 77's bound) refused naming the field;
the results' rankings, before and after them, equal to an independent matchpoint computation
(Law 78A, Neuberg, 12C2(c): tests/integration/pairs_by_hand.py). A team match too, to VPs."""

from __future__ import annotations

import math
from typing import Any
from xml.etree import ElementTree

import pytest

from shared.notation.pbn import pbn_events
from tests.helpers import DEALS, wait_for, wait_for_auction
from tests.integration.pairs_by_hand import by_hand, ranks
from tests.stack import Stack
from tests.unit.tournament_fixtures import imps_by_law

SEATS = "NESW"
PAIRS = [{"name": f"pair {n}", "players": [f"P{n}a", f"P{n}b"]} for n in range(1, 7)]
# the Mitchell's seatings (shared.scores.movements: NS pairs stay, EW pairs move up a table)
SEATED = {1: {"mitch-t": (1, 4, (1, 2)), "mitch-u": (2, 5, (3, 4)), "mitch-v": (3, 6, (5, 6))},
          2: {"mitch-t": (1, 6, (3, 4)), "mitch-u": (2, 4, (5, 6)), "mitch-v": (3, 5, (1, 2))}}
VULNERABLE = {1: "", 2: "NS", 3: "EW", 4: "NSEW", 5: "NS", 6: "EW"}  # Law 2


def _deals() -> dict[int, str]:
    return {e["board"]: e["deal"] for e in pbn_events(DEALS) if e["type"] == "board_started"}


def _lead(deal: str, leader: str) -> str:
    """The leader's highest card of its first suit held."""
    first, hands = deal.split(":")
    hand = hands.split()[(SEATS.index(leader) - SEATS.index(first)) % 4]
    for suit, cards in zip("SHDC", hand.split("."), strict=True):
        if cards:
            return suit + cards[0]
    raise AssertionError("an empty hand")


def _one_notrump(declarer: str, board: int, tricks: int) -> int:
    """Law 77 written out for 1NT undoubled: 40 + 50 (a part score), 30 an overtrick, 50 or
    100 an undertrick; from NS's side."""
    side = "NS" if declarer in "NS" else "EW"
    vulnerable = side in VULNERABLE[board] if VULNERABLE[board] != "NSEW" else True
    score = 90 + 30 * (tricks - 7) if tricks >= 7 else -(100 if vulnerable else 50) * (
        7 - tricks)
    return score if side == "NS" else -score


def _post(http: Any, token: str, table: str, body: dict[str, Any]) -> None:
    response = http.post(f"/api/tables/{table}/events", json=body,
                         headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 202, response.text


def _play(http: Any, seats: dict[str, str], table: str, board: int, deal: str,
          tricks: int) -> None:
    dealer = SEATS[(board - 1) % 4]
    order = [SEATS[(SEATS.index(dealer) + k) % 4] for k in range(4)]
    _post(http, seats[order[0]], table, {"type": "call", "call": "1N"})
    for seat in order[1:]:
        _post(http, seats[seat], table, {"type": "call", "call": "P"})
    _post(http, seats[order[1]], table, {"type": "opening_lead", "card": _lead(deal, order[1])})
    # declarer's result, agreed by both defenders (Law 79A, as a claim is: Law 69A)
    _post(http, seats[dealer], table, {"type": "result_recorded", "tricks": tricks})
    for defender in (order[1], order[3]):
        _post(http, seats[defender], table, {"type": "claim_response", "accept": True})


def _matchpoints(scores: dict[int, list[tuple[int, int, float]]]) -> dict[int, float]:
    """Law 78A by hand: each result against each other, 2 a win, 1 a tie; a pair's
    percentage of its tops."""
    points = {p: 0.0 for p in range(1, 7)}
    tops = {p: 0.0 for p in range(1, 7)}
    for results in scores.values():
        for ns, ew, score in results:
            mp = sum(2 if score > other else 1 if score == other else 0
                     for n, _, other in results if n != ns)
            top = 2 * (len(results) - 1)
            points[ns] += mp
            points[ew] += top - mp
            tops[ns] += top
            tops[ew] += top
    return {p: 100 * points[p] / tops[p] for p in points}


def test_a_mitchell_is_played_scored_adjusted_and_ranked(stack: Stack) -> None:
    t = "mitch"
    deals = _deals()
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": "mitch-bad", "tables": 4, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "mitchell", "boards_per_round": 2, "rounds": 2}})
        assert bad.status_code == 400 and bad.json()["field"] == "tables", bad.text
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": ["mitch-t", "mitch-u", "mitch-v"], "deals": DEALS,
            "entrants": PAIRS,
            "movement": {"kind": "mitchell", "boards_per_round": 2, "rounds": 2}})
        assert made.status_code == 201, made.text
        seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
        bad = http.post(f"/api/tournaments/{t}/rounds", json={"round": 1, "boards": [1]})
        assert bad.status_code == 400 and bad.json()["field"] == "boards"
        overview = http.get(f"/api/tournaments/{t}").json()
        assert overview["standings"] == {"scoring": "matchpoints", "complete": 0, "fields": []}
        expected: dict[int, list[tuple[int, int, float]]] = {}
        plays: dict[tuple[int, int], list[str]] = {}
        for rnd in (1, 2):
            started = http.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
            assert started.status_code == 202, started.text
            for table, (ns, ew, boards) in SEATED[rnd].items():
                for k, board in enumerate(boards):
                    wait_for_auction(http, table, board)
                    if board == 1 and table == "mitch-t":  # names at the seats follow the movement
                        state = http.get(f"/api/tables/{table}/state").json()
                        assert state["board"]["players"] == {
                            "N": "P1a", "S": "P1b", "E": "P4a", "W": "P4b"}
                    tricks = 6 + (board + ns + k) % 3
                    _play(http, seats[table], table, board, deals[board], tricks)
                    dealer = SEATS[(board - 1) % 4]
                    expected.setdefault(board, []).append(
                        (ns, ew, _one_notrump(dealer, board, tricks)))
                    leader = SEATS[(SEATS.index(dealer) + 1) % 4]
                    plays[board, ns] = ["1NT", dealer, _lead(deals[board], leader),
                                        str(tricks)]

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
            return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
        doc = wait_for(complete, 30, "every board's results")
        got = {b["board"]: sorted((line["ns"], line["ew"], line["score_ns"])
                                  for line in b["lines"]) for b in doc["travellers"]}
        assert got == {b: sorted(r) for b, r in expected.items()}
        percent = {r["entrant"]: r["percent"] for r in doc["rankings"]}
        unadjusted = _matchpoints(expected)
        assert percent == {p: round(v, 4) for p, v in unadjusted.items()}

        # the Director's scores: bad ones refused naming the field, nothing recorded
        for body, field in (
                ({"kind": "weighted", "board": 1, "ns": 1, "ew": 4, "parts": [
                    {"percent": 70, "score_ns": 120}, {"percent": 20, "score_ns": -50}]},
                 "parts"),
                ({"kind": "assigned", "board": 3, "ns": 1, "ew": 4, "score_ns": 90}, "board"),
                ({"kind": "assigned", "board": 1, "ns": 1, "ew": 4, "score_ns": 10 ** 30},
                 "score_ns")):  # beyond what Law 77 gives a board: the 400 says the bound
            refused = http.post(f"/api/tournaments/{t}/scores", json=body)
            assert refused.status_code == 400 and refused.json()["field"] == field
            assert field != "score_ns" or "7600 (Law 77" in refused.json()["error"]
        given = [
            {"kind": "weighted", "board": 1, "ns": 1, "ew": 4, "reason": "Law 21B",
             "parts": [{"percent": 60, "score_ns": 120}, {"percent": 40, "score_ns": -50}]},
            {"kind": "assigned", "board": 3, "ns": 2, "ew": 5, "score_ns": 150,
             "reason": "Law 16B"},
            {"kind": "artificial", "board": 5, "ns": 3, "ew": 6, "ns_fault": "partly_at_fault",
             "ew_fault": "partly_at_fault", "reason": "fouled board"},
            {"kind": "corrected", "board": 2, "ns": 1, "ew": 4, "score_ns": -100,
             "reason": "Law 79C"},
            {"kind": "split", "board": 4, "ns": 1, "ew": 6, "reason": "Law 12C1(b), (c)",
             "ns_score": {"score_ns": 110}, "ew_score": {"parts": [
                 {"percent": 50, "score_ns": 110}, {"percent": 50, "score_ns": -100}]}},
            {"kind": "artificial", "board": 6, "ns": 2, "ew": 4, "ns_fault": "not_at_fault",
             "ew_fault": "directly_at_fault", "reason": "EW late"},
            {"kind": "penalty", "board": 2, "entrant": 4, "amount": 10, "reason": "slow"}]
        for body in given:
            response = http.post(f"/api/tournaments/{t}/scores", json=body)
            assert response.status_code == 202, response.text
        doc = http.get(f"/api/tournaments/{t}/results").json()
        assert [a["reason"] for a in doc["adjustments"]] == [
            "Law 21B", "Law 16B", "fouled board", "Law 79C", "Law 12C1(b), (c)", "EW late"]
        assert doc["penalties"][0]["entrant"] == 4
        # each pair's percentage as Laws 78A, 12C1, 12C2(a) and (c), 90 give it, by hand
        director = {(g["board"], g["ns"], g["ew"]): g for g in given if g["kind"] != "penalty"}
        adjusted_percent = by_hand({(b, ns, ew): score for b, lines in expected.items()
                                    for ns, ew, score in lines}, director, given[-1:])
        assert {r["entrant"]: r["percent"] for r in doc["rankings"]} == pytest.approx(
            adjusted_percent, abs=1e-3)
        for direction, pairs in (("NS", (1, 2, 3)), ("EW", (4, 5, 6))):
            field = {p: adjusted_percent[p] for p in pairs}
            assert {r["entrant"]: r["rank"] for r in doc["rankings"]
                    if r["direction"] == direction} == ranks(field)
        # the overview the director's console reads carries the standings: each direction's
        # ranking (Law 78A; a Mitchell ranks NS and EW apart) as the results give it
        standings = http.get(f"/api/tournaments/{t}").json()["standings"]
        assert standings["complete"] == 6
        assert {f["direction"]: [(x["entrant"], x["rank"], x["percent"]) for x in f["top"]]
                for f in standings["fields"]} == {
            d: [(r["entrant"], r["rank"], r["percent"]) for r in doc["rankings"]
                if r["direction"] == d] for d in ("NS", "EW")}
        # board 5: both sides average (Law 12C2(a)), the other result Neuberg-factored: 50 %
        board5 = {(x["ns"], x["ew"]): x for x in
                  next(b for b in doc["travellers"] if b["board"] == 5)["lines"]}
        assert board5[3, 6]["ns_percent"] == board5[3, 6]["ew_percent"] == 50.0
        assert board5[2, 4]["ns_percent"] == 50.0
        csv = http.get(f"/api/tournaments/{t}/results", params={"format": "csv"})
        assert csv.status_code == 200 and csv.text.startswith("ranking,rank,entrant")
        pbn = http.get(f"/api/tournaments/{t}/results", params={"format": "pbn"})
        assert pbn.status_code == 200 and pbn.text.count("[ScoreTable ") == 6
        assert pbn.text.count("[TotalScoreTable ") == 1
        # USEBIO 1.2: each line's contract, declarer, lead and tricks as played; the Director's
        # scores in their lines (board 5: A5050, both sides partly at fault, Law 12C2(a))
        usebio = http.get(f"/api/tournaments/{t}/results", params={"format": "usebio"})
        assert usebio.status_code == 200, usebio.text
        root = ElementTree.fromstring(usebio.text)
        assert len(root.findall("EVENT/PARTICIPANTS/PAIR")) == 6
        lines = {(int(b.findtext("BOARD_NUMBER") or 0), int(x.findtext("NS_PAIR_NUMBER") or 0)):
                 x for b in root.findall("EVENT/BOARD") for x in b.findall("TRAVELLER_LINE")}
        adjusted = {(1, 1), (3, 2), (5, 3), (2, 1), (4, 1), (6, 2)}
        for place, line in lines.items():
            if place not in adjusted:
                assert [line.findtext(k) for k in ("CONTRACT", "PLAYED_BY", "LEAD",
                                                   "TRICKS")] == plays[place], place
        assert lines[5, 3].findtext("SCORE") == "A5050" and lines[5, 3].find("CONTRACT") is None
        assert len(lines) == 12
    with stack.client() as public:  # no token: the boards every table has finished
        assert public.get(f"/api/tournaments/{t}/results").json()["rankings"] == \
            doc["rankings"]


TEAMS = [{"name": "Lions", "players": ["L1", "L2", "L3", "L4"]},
         {"name": "Tigers", "players": ["T1", "T2", "T3", "T4"]}]


def test_a_team_match_is_played_adjusted_and_scored_to_vps(stack: Stack) -> None:
    """Law 78B: each board's IMPs between the rooms (the Law's table written out in
    tests/unit/tournament_fixtures.py), the match to VPs by the WBF continuous scale written
    out here from its formula; a corrected result, an assigned (Law 12C1(b)), a weighted
    (12C1(c)), a split and an artificial score (12C2(b): +3 IMPs) and a penalty in IMPs
    (Law 90)."""
    t = "match"
    deals = _deals()
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": ["match-open", "match-closed"], "deals": DEALS,
            "entrants": TEAMS,
            "movement": {"kind": "teams", "boards_per_round": 4}})
        assert made.status_code == 201, made.text
        seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
        assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202
        scores: dict[tuple[str, int], int] = {}
        for table, shift in (("match-open", 0), ("match-closed", 1)):
            for board in (1, 2, 3, 4):
                def on(table: str = table, board: int = board) -> bool:
                    state = http.get(f"/api/tables/{table}/state").json()
                    return bool(state.get("board") and state["board"]["board"] == board
                                and state["board"]["status"] == "auction")
                wait_for(on, 30, f"board {board} in the {table} room")
                if board == 1:
                    state = http.get(f"/api/tables/{table}/state").json()
                    assert state["board"]["players"] == (
                        {"N": "L1", "S": "L2", "E": "T3", "W": "T4"} if table == "match-open" else
                        {"N": "T1", "S": "T2", "E": "L3", "W": "L4"})
                tricks = 6 + (board + shift) % 4
                _play(http, seats[table], table, board, deals[board], tricks)
                scores[table, board] = _one_notrump(SEATS[(board - 1) % 4], board, tricks)

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
            return doc if doc["complete"] == [1, 2, 3, 4] else None
        wait_for(complete, 30, "both rooms' results")
        # the Director: board 1 in the closed room corrected; board 2 in the open room split
        # (Lions NS scored by +110, Tigers EW by half +110, half −100); 2 IMPs off the Lions
        scores["match-closed", 1] = -300
        scores["match-open", 1] = 400
        given = [{"kind": "corrected", "board": 1, "ns": 2, "ew": 1, "score_ns": -300,
                  "reason": "mis-recorded"},
                 {"kind": "assigned", "board": 1, "ns": 1, "ew": 2, "score_ns": 400,
                  "reason": "Law 12C1(b)"},
                 {"kind": "weighted", "board": 3, "ns": 2, "ew": 1, "reason": "Law 12C1(c)",
                  "parts": [{"percent": 70, "score_ns": 400}, {"percent": 30,
                                                               "score_ns": -100}]},
                 {"kind": "artificial", "board": 4, "ns": 1, "ew": 2, "reason": "Law 12C2(b)",
                  "ns_fault": "not_at_fault", "ew_fault": "partly_at_fault"},
                 {"kind": "split", "board": 2, "ns": 1, "ew": 2, "reason": "Law 16B",
                  "ns_score": {"score_ns": 110}, "ew_score": {"parts": [
                      {"percent": 50, "score_ns": 110}, {"percent": 50, "score_ns": -100}]}},
                 {"kind": "penalty", "board": 3, "entrant": 1, "amount": 2, "unit": "imps",
                  "reason": "Law 90B"}]
        for body in given:
            response = http.post(f"/api/tournaments/{t}/scores", json=body)
            assert response.status_code == 202, response.text
        bad = http.post(f"/api/tournaments/{t}/scores", json={**given[-1], "unit": "percent"})
        assert bad.status_code == 400 and bad.json()["field"] == "unit"
        doc = http.get(f"/api/tournaments/{t}/results").json()
        pbn = http.get(f"/api/tournaments/{t}/results", params={"format": "pbn"})
        assert pbn.status_code == 400 and pbn.json()["field"] == "format"
        usebio = http.get(f"/api/tournaments/{t}/results", params={"format": "usebio"})
        assert usebio.status_code == 200, usebio.text  # a teams event's USEBIO: its MATCHes
        assert 'EVENT_TYPE="TEAMS"' in usebio.text and "<MATCH>" in usebio.text
    lions = tigers = 0.0
    for board in (1, 2, 3):
        closed = scores["match-closed", board]
        if board == 2:  # the split: each team against the other room by its own score
            home = imps_by_law(110 - closed)
            away = -(0.5 * imps_by_law(110 - closed) + 0.5 * imps_by_law(-100 - closed))
        elif board == 3:  # the closed room weighted (12C1(c)): IMPed part by part
            open_ns = scores["match-open", 3]
            home = 0.7 * imps_by_law(open_ns - 400) + 0.3 * imps_by_law(open_ns + 100)
            away = -home
        else:
            home = imps_by_law(scores["match-open", board] - closed)
            away = -home
        lions += max(home, 0)
        tigers += max(away, 0)
    lions += 3  # board 4, Law 12C2(b): average plus at IMPs, +3 to the Lions, 0 to the Tigers
    lions -= 2  # Law 90, in IMPs
    match = doc["matches"][0]
    assert (match["home_imps"], match["away_imps"]) == pytest.approx((lions, tigers))
    margin = lions - tigers
    assert _wbf_scale(20)[1:3] == [10.28, 10.55]  # the published 20-board values (bcstar.nl)
    table = _wbf_scale(4)
    low = int(abs(margin))
    vp = table[low] + (table[min(low + 1, len(table) - 1)] - table[low]) * (abs(margin) - low)
    winner = 1 if margin >= 0 else 2
    assert doc["rankings"][0]["entrant"] == winner
    assert doc["rankings"][0]["vp"] == pytest.approx(round(vp, 2), abs=0.011)
    assert doc["rankings"][0]["vp"] + doc["rankings"][1]["vp"] == pytest.approx(20)


def _wbf_scale(boards: int) -> list[float]:
    """The WBF continuous 20-VP scale written out from its formula (the WBF Scoring Panel's
    "The New WBF IMP to VP Scales", 2013, https://www.worldbridge.org/victory-point-scales.aspx
    ; docs/scoring.md): τ = (√5 − 1) / 2, blitz X = 15√N, a margin of I IMPs gives
    10 + 10 (1 − τ^(3I/X)) / (1 − τ³), at most 20, to two decimals; then, as the report's
    concavity rule has it, the middle of any three values whose second step is larger than
    the first is raised by 0.01 until none is. Entry I is margin I, from 0 to past the blitz."""
    tau = (math.sqrt(5) - 1) / 2
    blitz = 15 * math.sqrt(boards)
    cents = [round(100 * min(20.0, round(
        10 + 10 * (1 - tau ** (3 * i / blitz)) / (1 - tau ** 3), 2)))
        for i in range(math.ceil(blitz) + 2)]
    while any(cents[i + 1] - cents[i] > cents[i] - cents[i - 1]
              for i in range(1, len(cents) - 1)):
        i = next(i for i in range(1, len(cents) - 1)
                 if cents[i + 1] - cents[i] > cents[i] - cents[i - 1])
        cents[i] += 1
    return [c / 100 for c in cents]
