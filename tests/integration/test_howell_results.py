"""A Howell played through on the real stack (scoring.md): four pairs at two tables, three rounds
of two boards, every pair meeting every other once (the circle method), each round started as
the movement says and its boards played (1NT by the dealer, led, tricks recorded: Law 79A); then
the Director's scores of each kind posted (Laws 12C1(b), 12C1(c), 12C2(a), 90 and a correction),
and the ranking compared with an independent computation written here from the raw table
scores: Law 78A's matchpoints (two for each result beaten, one for each tied), Neuberg where a
board has fewer comparable results, Law 12C2(c) for the artificial scores. The USEBIO file is
checked complete: every board, every traveller line, every pair and player, the adjusted
scores in their lines."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree

import pytest

from tests.helpers import DEALS, wait_for, wait_for_auction
from tests.integration.pairs_by_hand import PERCENT, by_hand, ranks
from tests.integration.test_tournament_results import (
    SEATS,
    _deals,
    _lead,
    _one_notrump,
    _play,
)
from tests.stack import Stack

T = "howl"
PAIRS = [{"name": f"howell {n}", "players": [f"H{n}a", f"H{n}b"]} for n in range(1, 5)]
# the circle method written out for four pairs (pair 4 fixed, 1-2-3 rotating), each round's
# boards the next group of two: round → table (t-a, t-b) → (NS pair, EW pair, boards)
SEATED = {1: {"a": (1, 4, (1, 2)), "b": (3, 2, (1, 2))},
          2: {"a": (1, 3, (3, 4)), "b": (2, 4, (3, 4))},
          3: {"a": (1, 2, (5, 6)), "b": (3, 4, (5, 6))}}
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


def play_howell(http: Any, t: str, scoring: dict[str, Any] | None = None
                ) -> tuple[dict[tuple[int, int, int], int],
                           dict[tuple[int, int, int], list[str]]]:
    """The Howell `t` created (tables `t`-a, `t`-b; `scoring`: the movement's other fields)
    and its three rounds played as the movement seats them: each place's (board, NS, EW) NS
    score, and its contract, declarer, lead and tricks."""
    deals = _deals()
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": [f"{t}-a", f"{t}-b"], "deals": DEALS, "entrants": PAIRS,
        "movement": {"kind": "howell", "boards_per_round": 2, "rounds": 3,
                     **(scoring or {})}})
    assert made.status_code == 201, made.text
    seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
    played: dict[tuple[int, int, int], int] = {}
    plays: dict[tuple[int, int, int], list[str]] = {}
    for rnd in (1, 2, 3):
        started = http.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
        assert started.status_code == 202, started.text
        for x, (ns, ew, boards) in SEATED[rnd].items():
            table = f"{t}-{x}"
            for k, board in enumerate(boards):
                wait_for_auction(http, table, board)
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
    return played, plays


def give_director_scores(http: Any, t: str) -> None:
    """Every score of `DIRECTOR` (Law 12C) and the `PENALTY` (Law 90) given to tournament
    `t`, each acknowledged."""
    for (board, ns, ew), body in DIRECTOR.items():
        response = http.post(f"/api/tournaments/{t}/scores",
                             json={**body, "board": board, "ns": ns, "ew": ew})
        assert response.status_code == 202, response.text
    response = http.post(f"/api/tournaments/{t}/scores", json=PENALTY)
    assert response.status_code == 202, response.text


def test_a_howell_is_played_adjusted_and_ranked_as_computed_by_hand(stack: Stack) -> None:
    """Laws 78A, 12C1(b), 12C1(c), 12C2(a) and (c), 79C, 90; Neuberg where a board has an
    artificial score; USEBIO 1.2 complete."""
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": f"{T}-bad", "tables": ["x-a", "x-b", "x-c"], "deals": DEALS,
            "entrants": PAIRS, "movement": {"kind": "howell", "boards_per_round": 2}})
        assert bad.status_code == 400 and bad.json()["field"] == "tables", bad.text
        played, plays = play_howell(http, T)

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{T}/results").json()
            return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
        doc = wait_for(complete, 30, "every board's results")
        assert {(b["board"], x["ns"], x["ew"]): x["score_ns"] for b in doc["travellers"]
                for x in b["lines"]} == played
        # before the Director: Law 78A alone
        percent = {r["entrant"]: r["percent"] for r in doc["rankings"]}
        assert percent == pytest.approx(by_hand(played, {}, []), abs=1e-3)

        give_director_scores(http, T)
        doc = http.get(f"/api/tournaments/{T}/results").json()
        expected = by_hand(played, DIRECTOR, [PENALTY])
        got = {r["entrant"]: r["percent"] for r in doc["rankings"]}
        assert got == pytest.approx(expected, abs=1e-3)
        assert {r["entrant"]: r["rank"] for r in doc["rankings"]} == ranks(expected)
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
    places = ranks(expected)
    pairs = {int(p.findtext("PAIR_NUMBER") or 0): p for p in event.findall("PARTICIPANTS/PAIR")}
    assert sorted(pairs) == [1, 2, 3, 4]
    for n, pair in pairs.items():
        assert [x.text for x in pair.findall("PLAYER/PLAYER_NAME")] == [f"H{n}a", f"H{n}b"]
        assert (pair.findtext("PLACE") or "").rstrip("=") == str(places[n])
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


def test_an_entrant_added_before_the_first_round_is_seated_by_the_movement(
        stack: Stack) -> None:
    """Scoring: entrants "given at creation or added before a round". A fifth pair added to a
    four-pair Howell (still two tables: the circle method with a sit-out) sits where the
    five-pair movement says; one that needs a third table is refused naming `tables`, one
    after round 1 has started 409 naming `entrants`; nothing recorded by either."""
    t, tables = "howl-add", ["howl-add-a", "howl-add-b"]
    fifth = {"number": 5, "name": "howell 5", "players": ["H5a", "H5b"]}
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": tables, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 1, "rounds": 3}})
        assert made.status_code == 201, made.text
        wrong = http.post(f"/api/tournaments/{t}/entrants", json={**fifth, "number": 6})
        assert wrong.status_code == 400 and wrong.json()["field"] == "number", wrong.text
        added = http.post(f"/api/tournaments/{t}/entrants", json=fifth)
        assert added.status_code == 201, added.text
        assert added.json() == {**fifth, "added": True}
        again = http.post(f"/api/tournaments/{t}/entrants", json=fifth)
        assert again.status_code == 200 and again.json()["added"] is False, again.text
        sixth = {"name": "howell 6", "players": ["H6a", "H6b"]}
        too_many = http.post(f"/api/tournaments/{t}/entrants", json=sixth)
        assert too_many.status_code == 400 and too_many.json()["field"] == "tables", \
            too_many.text
        assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202
        # the circle method for five pairs, round 1: pair 1 sits out, 3 v 4 and 5 v 2
        # (docs/scoring.md: a Howell with an odd number of pairs, each sitting out once)
        for table, (ns, ew) in zip(tables, ((3, 4), (5, 2)), strict=True):
            def on(table: str = table) -> bool:
                state = http.get(f"/api/tables/{table}/state").json()
                return bool(state.get("board") and state["board"]["status"] == "auction")
            wait_for(on, 30, f"round 1 at {table}")
            state = http.get(f"/api/tables/{table}/state").json()
            assert state["board"]["players"] == {
                "N": f"H{ns}a", "S": f"H{ns}b", "E": f"H{ew}a", "W": f"H{ew}b"}
        late = http.post(f"/api/tournaments/{t}/entrants", json=sixth)
        assert late.status_code == 409 and late.json()["field"] == "entrants", late.text
        doc = http.get(f"/api/tournaments/{t}/results").json()
        assert [e["number"] for e in doc["entrants"]] == [1, 2, 3, 4, 5]
