"""An individual of twelve players on the real stack (docs/scoring.md, "Individuals"): three
tables over eleven rounds by the complete Howell's circle rule
(`shared.scores.individual_movements`), each player with his one link for the evening. Each
round every player's page shows the seat the movement gives him (rounds 1 and 2 written out by
hand), the tables' seats name those players, every board is passed out at every table by the
players' own seats; a size not offered is refused naming the field and the sizes; the results
rank the twelve players, each on his own side's matchpoints (Law 78A), the Director's scores on
boards 1 and 2 as worked by hand in tests/unit/test_individual_movements.py."""

from __future__ import annotations

from typing import Any

import httpx

from shared.scores.individuals import individual, partnership, seat_players
from tests.helpers import DEALS, wait_for
from tests.integration.test_individuals import _places, _seat_names
from tests.integration.test_player_links import round_played
from tests.stack import Stack

T = "indiv12"
PLAYERS = [{"name": f"P{n}", "players": [f"P{n}"]} for n in range(1, 13)]
TABLES = [f"{T}-{n}" for n in (1, 2, 3)]
# Rounds 1 and 2 written out: each player's (table, seat); round 2 by the circle rule's move
# (each mover to the place one lower: 1S → 1W, 1E → 1S, 1W → 2S, 2N → 1E, 2S → 3S, 2E → 3N,
# 2W → 3W, 3N → 2N, 3S → 2W, 3E → 2E, 3W → 3E; 1N stays).
ROUND_1 = {p: ((p - 1) // 4 + 1, "NESW"[(p - 1) % 4]) for p in range(1, 13)}
ROUND_2 = {1: (1, "N"), 5: (1, "E"), 2: (1, "S"), 3: (1, "W"),
           9: (2, "N"), 10: (2, "E"), 4: (2, "S"), 11: (2, "W"),
           6: (3, "N"), 12: (3, "E"), 7: (3, "S"), 8: (3, "W")}
# The Director's scores (Law 12C1(b)) on boards 1 and 2, by partnership (10000 × N or E + S or
# W); boards 3–11 passed out at every table (each side 2 of the top 4 on each).
ASSIGNED = [(1, partnership(1, 3), partnership(2, 4), 420),
            (1, partnership(5, 7), partnership(6, 8), 170),
            (1, partnership(9, 11), partnership(10, 12), -50),
            (2, partnership(1, 2), partnership(5, 3), -100),
            (2, partnership(9, 4), partnership(10, 11), -100),
            (2, partnership(6, 7), partnership(12, 8), 110)]
# Boards 1–2 by hand (the unit test's) + 18 for boards 3–11, of a top of 44 (11 boards × 4).
BY_HAND = {3: (1, 25), 10: (1, 25), 6: (3, 24), 7: (3, 24), 1: (5, 23), 5: (5, 23),
           12: (7, 22), 11: (8, 21), 8: (9, 20), 2: (10, 19), 4: (10, 19), 9: (10, 19)}


def _movement(rounds: int | None = None) -> dict[str, Any]:
    return {"kind": "individual", "boards_per_round": 1,
            **({} if rounds is None else {"rounds": rounds})}


def test_a_size_not_offered_is_refused_naming_the_entrants(stack: Stack) -> None:
    with stack.client(stack.director) as director:
        refused = director.post("/api/tournaments", json={
            "tournament": f"{T}x", "tables": TABLES, "deals": DEALS,
            "entrants": PLAYERS[:10], "movement": _movement()})
        assert refused.status_code == 400, refused.text
        body = refused.json()
        assert body["field"] == "entrants", body
        assert "8, 12, 16, 20 or 24 players" in refused.text and "not 10" in refused.text
        assert director.get(f"/api/tournaments/{T}x").status_code == 404


def test_twelve_players_links_seat_each_by_the_movement_to_the_last_round(
        stack: Stack) -> None:
    with stack.client(stack.director) as director:
        made = director.post("/api/tournaments", json={
            "tournament": T, "tables": TABLES, "deals": DEALS, "entrants": PLAYERS,
            "movement": _movement()})
        assert made.status_code == 201, made.text
        listed = director.get(f"/api/tournaments/{T}/players")
        assert listed.status_code == 200, listed.text
        links = {p["entrant"]: p["token"] for p in listed.json()["players"]}
        assert sorted(links) == list(range(1, 13))
        assert _places(stack, links, "lobby") == ROUND_1
        planned = individual(12, 1)
        for r in planned:
            want = {p: (s.table, seat) for s in r.tables
                    for seat, p in seat_players(s).items()}
            assert want == {1: ROUND_1, 2: ROUND_2}.get(r.number, want)
            started = director.post(f"/api/tournaments/{T}/rounds", json={"round": r.number})
            assert started.status_code == 202, started.text
            assert _places(stack, links, "seated") == want, f"round {r.number}"
            _seat_names(director, T, r.number, want, tables=3)
            round_played(stack, {(p, 1): tok for p, tok in links.items()}, [r.number],
                         tables=3)
        assert {_play_phase(stack, tok) for tok in links.values()} == {"end"}
        for board, ns, ew, score in ASSIGNED:
            given = director.post(f"/api/tournaments/{T}/scores", json={
                "kind": "assigned", "reason": "by hand", "board": board, "ns": ns, "ew": ew,
                "score_ns": score})
            assert given.status_code == 202, given.text
        doc = wait_for(lambda: _scored(director), 60, "all 11 boards complete, 6 scores given")
    got = {r["entrant"]: (r["rank"], r["points"]) for r in doc["rankings"]}
    assert got == BY_HAND
    assert {r["top"] for r in doc["rankings"]} == {44}
    assert {r["boards"] for r in doc["rankings"]} == {11}
    assert len(doc["partnerships"]) == 66  # each two of the twelve partnered once


def _play_phase(stack: Stack, token: str) -> str:
    def ended() -> str | None:
        with stack.client(token) as http:
            phase: str = http.get("/api/play").json()["phase"]
        return phase if phase == "end" else None
    found: str = wait_for(ended, 30, "the player's evening over")
    return found


def _scored(director: httpx.Client) -> dict[str, Any] | None:
    doc: dict[str, Any] = director.get(f"/api/tournaments/{T}/results").json()
    done = doc["complete"] == list(range(1, 12)) and len(doc["adjustments"]) == 6
    return doc if done else None
