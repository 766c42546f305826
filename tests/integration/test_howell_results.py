"""A Howell played through on the real stack (issue 28): four pairs at two tables, three rounds
of two boards, every pair meeting every other once (the circle method), each round started as
the movement says and its boards played (1NT by the dealer, led, tricks recorded: Law 79A); then
the Director's scores of each kind posted (Laws 12C1(b), 12C1(c), 12C2(a), 90 and a correction),
and the ranking compared with an independent computation written here from the raw table
scores: Law 78A's matchpoints (two for each result beaten, one for each tied), Neuberg where a
board has fewer comparable results, Law 12C2(c) for the artificial scores. The USEBIO file is
checked complete: every board, every traveller line, every pair and player, the adjusted
scores in their lines."""

from __future__ import annotations

from collections import defaultdict
from typing import Any
from xml.etree import ElementTree

import pytest

from tests.helpers import DEALS, wait_for
from tests.integration.test_tournament_results import (
    SEATS,
    _deals,
    _lead,
    _one_notrump,
    _play,
)
from tests.stack import Stack

T = "howl"
TABLES = ["howl-a", "howl-b"]
PAIRS = [{"name": f"howell {n}", "players": [f"H{n}a", f"H{n}b"]} for n in range(1, 5)]
# the circle method written out for four pairs (pair 4 fixed, 1-2-3 rotating), each round's
# boards the next group of two: round → table → (NS pair, EW pair, boards)
SEATED = {1: {"howl-a": (1, 4, (1, 2)), "howl-b": (3, 2, (1, 2))},
          2: {"howl-a": (1, 3, (3, 4)), "howl-b": (2, 4, (3, 4))},
          3: {"howl-a": (1, 2, (5, 6)), "howl-b": (3, 4, (5, 6))}}
# the Director's scores, one of each kind, keyed by the place (board, NS, EW) they replace
DIRECTOR = {
    (1, 1, 4): {"kind": "corrected", "score_ns": 150,
                "reason": "1NT made 9 tricks, not 8 (Law 79C)"},
    (2, 3, 2): {"kind": "weighted", "reason": "misinformation (Law 21B, 12C1(c))",
                "parts": [{"percent": 60, "score_ns": 120}, {"percent": 40, "score_ns": -50}]},
    (3, 1, 3): {"kind": "assigned", "score_ns": 110, "reason": "unauthorized information "
                "(Law 16B, 12C1(b))"},
    (4, 2, 4): {"kind": "split", "reason": "Law 12C1(b), (c): each side its own",
                "ns_score": {"score_ns": 110},
                "ew_score": {"parts": [{"percent": 50, "score_ns": 110},
                                       {"percent": 50, "score_ns": -100}]}},
    (5, 1, 2): {"kind": "artificial", "ns_fault": "not_at_fault",
                "ew_fault": "directly_at_fault", "reason": "EW too late to play it (12C2(a))"},
    (6, 3, 4): {"kind": "artificial", "ns_fault": "partly_at_fault",
                "ew_fault": "partly_at_fault", "reason": "fouled board (12C2(a))"},
}
PENALTY = {"kind": "penalty", "board": 6, "entrant": 1, "amount": 10,
           "reason": "slow play (Law 90B2)"}
PERCENT = {"not_at_fault": 60.0, "partly_at_fault": 50.0, "directly_at_fault": 40.0}  # 12C2(a)
Dist = list[tuple[int, float]]


def _law_78a(ours: Dist, theirs: Dist) -> float:
    """Law 78A: two for each result beaten, one for each tied, weighted part by part."""
    return sum(w * v * (2 if a > b else 1 if a == b else 0) for a, w in ours for b, v in theirs)


def _independent(played: dict[tuple[int, int, int], int],
                 director: dict[tuple[int, int, int], dict[str, Any]],
                 penalties: list[dict[str, Any]]) -> dict[int, float]:
    """Each pair's percentage from the raw table scores and the Director's scores as
    docs/scoring.md reads the Laws: a weighted score's parts for their weights (12C1(c)); a
    split score's sides each by its own score, the other result compared with both for half
    each; an artificial score not compared (12C2(a)), the board's other result factored by
    Neuberg, (m + 1) × N / n − 1 with N = 2; 12C2(c): average plus raised to the pair's
    percentage on its other boards if higher, average minus lowered to it if lower; Law 90's
    penalty, 10 % of a top, off the offender's total."""
    ns_side: dict[tuple[int, int, int], Dist] = {}
    ew_side: dict[tuple[int, int, int], Dist] = {}
    field: dict[tuple[int, int, int], Dist] = {}
    for place, score in played.items():
        given = director.get(place, {"kind": "played"})
        kind = given["kind"]
        if kind in ("played",):
            ns_side[place] = ew_side[place] = field[place] = [(score, 1.0)]
        elif kind in ("corrected", "assigned"):
            ns_side[place] = ew_side[place] = field[place] = [(given["score_ns"], 1.0)]
        elif kind == "weighted":
            parts = [(p["score_ns"], p["percent"] / 100) for p in given["parts"]]
            ns_side[place] = ew_side[place] = field[place] = parts
        elif kind == "split":
            ns_side[place] = [(given["ns_score"]["score_ns"], 1.0)]
            ew_side[place] = [(p["score_ns"], p["percent"] / 100)
                              for p in given["ew_score"]["parts"]]
            field[place] = [(s, w / 2) for s, w in ns_side[place] + ew_side[place]]
    expected = 2  # every board is played at both tables
    points: dict[int, float] = defaultdict(float)
    tops: dict[int, float] = defaultdict(float)
    artificial: dict[int, list[str]] = defaultdict(list)
    for board in range(1, 7):
        compared = [p for p in field if p[0] == board]
        n = len(compared)
        for place in compared:
            others = [field[o] for o in compared if o != place]
            m_ns = sum(_law_78a(ns_side[place], f) for f in others)
            m_ew = 2 * (n - 1) - sum(_law_78a(ew_side[place], f) for f in others)
            for pair, m in ((place[1], m_ns), (place[2], m_ew)):
                points[pair] += (m + 1) * expected / n - 1  # Neuberg (identity if n = N)
                tops[pair] += 2 * (expected - 1)
        for place, given in director.items():
            if place[0] == board and given["kind"] == "artificial":
                artificial[place[1]].append(given["ns_fault"])
                artificial[place[2]].append(given["ew_fault"])
    for pair, faults in artificial.items():
        other = 100 * points[pair] / tops[pair]
        for fault in faults:
            pct = PERCENT[fault]
            if fault == "not_at_fault":
                pct = max(pct, other)
            elif fault == "directly_at_fault":
                pct = min(pct, other)
            points[pair] += pct * 2 / 100
            tops[pair] += 2
    for penalty in penalties:
        points[penalty["entrant"]] -= penalty["amount"] / 100 * 2
    return {p: 100 * points[p] / tops[p] for p in range(1, 5)}


def _ranks(percent: dict[int, float]) -> dict[int, int]:
    """Best first; equal percentages share the place."""
    return {p: 1 + sum(1 for q in percent if round(percent[q], 4) > round(percent[p], 4))
            for p in percent}


def test_a_howell_is_played_adjusted_and_ranked_as_computed_by_hand(stack: Stack) -> None:
    """Laws 78A, 12C1(b), 12C1(c), 12C2(a) and (c), 79C, 90; Neuberg where a board has an
    artificial score; USEBIO 1.2 complete."""
    deals = _deals()
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": f"{T}-bad", "tables": ["x-a", "x-b", "x-c"], "deals": DEALS,
            "entrants": PAIRS, "movement": {"kind": "howell", "boards_per_round": 2}})
        assert bad.status_code == 400 and bad.json()["field"] == "tables", bad.text
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": TABLES, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 2, "rounds": 3}})
        assert made.status_code == 201, made.text
        seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
        played: dict[tuple[int, int, int], int] = {}
        plays: dict[tuple[int, int, int], list[str]] = {}
        for rnd in (1, 2, 3):
            started = http.post(f"/api/tournaments/{T}/rounds", json={"round": rnd})
            assert started.status_code == 202, started.text
            for table, (ns, ew, boards) in SEATED[rnd].items():
                for k, board in enumerate(boards):
                    def on(table: str = table, board: int = board) -> bool:
                        state = http.get(f"/api/tables/{table}/state").json()
                        return bool(state.get("board") and state["board"]["board"] == board
                                    and state["board"]["status"] == "auction")
                    wait_for(on, 30, f"board {board} at {table}")
                    if k == 0:  # the round seats the pairs the movement says
                        state = http.get(f"/api/tables/{table}/state").json()
                        assert state["board"]["players"] == {
                            "N": f"H{ns}a", "S": f"H{ns}b", "E": f"H{ew}a", "W": f"H{ew}b"}
                    tricks = 6 + (board + ns + k) % 3
                    _play(http, seats[table], table, board, deals[board], tricks)
                    dealer = SEATS[(board - 1) % 4]
                    played[board, ns, ew] = _one_notrump(dealer, board, tricks)
                    leader = SEATS[(SEATS.index(dealer) + 1) % 4]
                    plays[board, ns, ew] = ["1NT", dealer, _lead(deals[board], leader),
                                            str(tricks)]

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{T}/results").json()
            return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
        doc = wait_for(complete, 30, "every board's results")
        assert {(b["board"], x["ns"], x["ew"]): x["score_ns"] for b in doc["travellers"]
                for x in b["lines"]} == played
        # before the Director: Law 78A alone
        percent = {r["entrant"]: r["percent"] for r in doc["rankings"]}
        assert percent == pytest.approx(_independent(played, {}, []), abs=1e-3)

        for (board, ns, ew), body in DIRECTOR.items():
            response = http.post(f"/api/tournaments/{T}/scores",
                                 json={**body, "board": board, "ns": ns, "ew": ew})
            assert response.status_code == 202, response.text
        response = http.post(f"/api/tournaments/{T}/scores", json=PENALTY)
        assert response.status_code == 202, response.text
        doc = http.get(f"/api/tournaments/{T}/results").json()
        expected = _independent(played, DIRECTOR, [PENALTY])
        got = {r["entrant"]: r["percent"] for r in doc["rankings"]}
        assert got == pytest.approx(expected, abs=1e-3)
        assert {r["entrant"]: r["rank"] for r in doc["rankings"]} == _ranks(expected)
        assert {r.get("direction") for r in doc["rankings"]} == {None}  # one field
        assert sorted(a["reason"] for a in doc["adjustments"]) == sorted(
            d["reason"] for d in DIRECTOR.values())
        assert [p["reason"] for p in doc["penalties"]] == [PENALTY["reason"]]

        usebio = http.get(f"/api/tournaments/{T}/results", params={"format": "usebio"})
        assert usebio.status_code == 200, usebio.text
    _check_usebio(usebio.text, played, plays, expected)


def _check_usebio(text: str, played: dict[tuple[int, int, int], int],
                  plays: dict[tuple[int, int, int], list[str]],
                  expected: dict[int, float]) -> None:
    """Complete: every board played, every traveller line, every pair with its players, its
    place and percentage, each Director's score in its line (USEBIO's `SCORE`: NS's score,
    `A` and both sides' percentages for an artificial one, a weighted score's mean)."""
    root = ElementTree.fromstring(text)
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "PAIRS"
    assert event.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    assert event.findtext("BOARDS_PLAYED") == "6" and event.findtext("WINNER_TYPE") == "1"
    ranks = _ranks(expected)
    pairs = {int(p.findtext("PAIR_NUMBER") or 0): p for p in event.findall("PARTICIPANTS/PAIR")}
    assert sorted(pairs) == [1, 2, 3, 4]
    for n, pair in pairs.items():
        assert [x.text for x in pair.findall("PLAYER/PLAYER_NAME")] == [f"H{n}a", f"H{n}b"]
        assert (pair.findtext("PLACE") or "").rstrip("=") == str(ranks[n])
        assert float(pair.findtext("PERCENTAGE") or "nan") == pytest.approx(expected[n],
                                                                             abs=0.006)
    lines = {(int(b.findtext("BOARD_NUMBER") or 0), int(x.findtext("NS_PAIR_NUMBER") or 0),
              int(x.findtext("EW_PAIR_NUMBER") or 0)): x
             for b in event.findall("BOARD") for x in b.findall("TRAVELLER_LINE")}
    assert len(event.findall("BOARD")) == 6 and len(lines) == 12
    assert set(lines) == set(played)
    scores = {"corrected": "150", "weighted": str(round(0.6 * 120 + 0.4 * -50)),
              "assigned": "110", "split": "110"}
    for place, line in lines.items():
        for tag in ("SCORE", "NS_MATCH_POINTS", "EW_MATCH_POINTS"):
            assert line.find(tag) is not None, (place, tag)
        given = DIRECTOR.get(place)
        if given is None:
            assert [line.findtext(k) for k in ("CONTRACT", "PLAYED_BY", "LEAD", "TRICKS")] \
                == plays[place], place
            assert line.findtext("SCORE") == str(played[place])
        elif given["kind"] == "artificial":
            assert line.findtext("SCORE") == "A{:02.0f}{:02.0f}".format(
                PERCENT[given["ns_fault"]], PERCENT[given["ew_fault"]])
        else:
            assert line.findtext("SCORE") == scores[given["kind"]], place
