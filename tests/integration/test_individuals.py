"""An individual on the real stack (docs/scoring.md, "Individuals"): eight players, each with
his one link for the evening, at two tables by Sicherman's rotation (table 1's North stays;
1W → 2W → 2E → 2N → 1E → 2S → 1S → 1W, http://sicherman.net/bridge/pseudoteam.txt). Each
player's page shows his seat in round 1 and, the round over, his seat in round 2 with that
round's partner; the tables' seats name the players the rotation puts there; the results rank
the eight players, each on his own side's matchpoints (Law 78A)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.helpers import DEALS, wait_for
from tests.integration.test_player_links import round_played
from tests.stack import Stack

T = "indiv"
PLAYERS = [{"name": f"P{n}", "players": [f"P{n}"]} for n in range(1, 9)]
# The rotation written out: each player's (table, seat) in rounds 1 and 2.
ROUND_1 = {1: (1, "N"), 2: (1, "E"), 3: (1, "S"), 4: (1, "W"),
           5: (2, "N"), 6: (2, "E"), 7: (2, "S"), 8: (2, "W")}
ROUND_2 = {1: (1, "N"), 5: (1, "E"), 7: (1, "S"), 3: (1, "W"),
           6: (2, "N"), 8: (2, "E"), 2: (2, "S"), 4: (2, "W")}


def _play(stack: Stack, token: str) -> dict[str, Any]:
    with stack.client(token) as http:
        response = http.get("/api/play")
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found


def _places(stack: Stack, links: dict[int, str], phase: str) -> dict[int, tuple[int, str]]:
    """Each player's (table number, seat) as his page shows it, all in `phase`."""
    out = {}
    for player, token in links.items():
        view = wait_for(lambda token=token: (v := _play(stack, token))["phase"] == phase and v,
                        30, f"player's page in phase {phase}")
        out[player] = (view["seat"]["table_number"], view["seat"]["seat"])
    return out


def _partner(stack: Stack, token: str) -> list[str]:
    seat = _play(stack, token)["seat"]
    names: list[str] = seat["partnership"]["players"]
    return names


# The Director's scores (Law 12C1(b)), on partnerships' numbers (10000 × N or E + S or W):
# board 1 at table 1 (1–3 v 2–4) +420, board 2 at table 2 (6–2 v 8–4) −50; the rest passed
# out. Board 1: 1–3 2 of the top 2, 5–7 0 (0 < 420), 2–4 0, 6–8 2. Board 2: table 1 (1–7 v
# 5–3) 0 beats −50: 1–7 2, 5–3 0, 6–2 0, 8–4 2. Each player's 4: 1 and 8 4 (100 %); 3, 4, 6
# and 7 2 (50 %); 2 and 5 0 (Law 78A).
ASSIGNED = [{"board": 1, "ns": 10003, "ew": 20004, "score_ns": 420},
            {"board": 2, "ns": 60002, "ew": 80004, "score_ns": -50}]
BY_HAND = {1: (1, 4, 100), 8: (1, 4, 100), 3: (3, 2, 50), 4: (3, 2, 50), 6: (3, 2, 50),
           7: (3, 2, 50), 2: (7, 0, 0), 5: (7, 0, 0)}


def play_individual(stack: Stack, director: httpx.Client, t: str = T) -> dict[str, Any]:
    """The individual played through: each round's seats checked at the players' pages and
    the tables, the Director's scores given; the results once both boards are complete."""
    made = director.post("/api/tournaments", json={
        "tournament": t, "tables": [f"{t}-1", f"{t}-2"], "deals": DEALS,
        "entrants": PLAYERS,
        "movement": {"kind": "individual", "boards_per_round": 1, "rounds": 2}})
    assert made.status_code == 201, made.text
    listed = director.get(f"/api/tournaments/{t}/players")
    assert listed.status_code == 200, listed.text
    links = {p["entrant"]: p["token"] for p in listed.json()["players"]}
    assert sorted(links) == list(range(1, 9))  # one link a player, no second place

    assert _places(stack, links, "lobby") == ROUND_1
    started = director.post(f"/api/tournaments/{t}/rounds", json={"round": 1})
    assert started.status_code == 202, started.text
    assert _places(stack, links, "seated") == ROUND_1
    assert sorted(_partner(stack, links[3])) == ["P1", "P3"]  # 1S partners 1N
    _seat_names(director, t, 1, ROUND_1)

    round_played(stack, {(p, 1): tok for p, tok in links.items()}, [1])
    assert _places(stack, links, "between") == ROUND_2
    started = director.post(f"/api/tournaments/{t}/rounds", json={"round": 2})
    assert started.status_code == 202, started.text
    assert _places(stack, links, "seated") == ROUND_2
    assert sorted(_partner(stack, links[3])) == ["P3", "P5"]  # 1W partners 1E
    _seat_names(director, t, 2, ROUND_2)

    round_played(stack, {(p, 1): tok for p, tok in links.items()}, [2])
    for score in ASSIGNED:
        given = director.post(f"/api/tournaments/{t}/scores",
                              json={"kind": "assigned", "reason": "by hand", **score})
        assert given.status_code == 202, given.text

    def scored() -> dict[str, Any] | None:
        doc: dict[str, Any] = director.get(f"/api/tournaments/{t}/results").json()
        return doc if doc["complete"] == [1, 2] and len(doc["adjustments"]) == 2 else None
    found: dict[str, Any] = wait_for(scored, 30, "both boards complete, both scores given")
    return found


def test_eight_players_links_seat_each_by_the_rotation_round_by_round(stack: Stack) -> None:
    with stack.client(stack.director) as director:
        doc = play_individual(stack, director)
    assert {r["entrant"]: (r["rank"], r["points"], r["percent"]) for r in doc["rankings"]} \
        == BY_HAND
    assert {r["top"] for r in doc["rankings"]} == {4}
    assert len(doc["partnerships"]) == 8


def _seat_names(director: httpx.Client, t: str, number: int,
                where: dict[int, tuple[int, str]], tables: int = 2) -> None:
    """Each table's seats name the players the rotation seats there in round `number`."""
    for table in range(1, tables + 1):
        want = {seat: f"P{p}" for p, (x, seat) in where.items() if x == table}

        def named(table: int = table, want: dict[str, str] = want) -> dict[str, str] | None:
            board = director.get(f"/api/tables/{t}-{table}/state").json().get("board") or {}
            players: dict[str, str] | None = board.get("players")
            return players if players == want else None
        wait_for(named, 30, f"round {number}'s players {want} at table {table}")
