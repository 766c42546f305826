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


def test_eight_players_links_seat_each_by_the_rotation_round_by_round(stack: Stack) -> None:
    with stack.client(stack.director) as director:
        made = director.post("/api/tournaments", json={
            "tournament": T, "tables": [f"{T}-1", f"{T}-2"], "deals": DEALS,
            "entrants": PLAYERS,
            "movement": {"kind": "individual", "boards_per_round": 1, "rounds": 2}})
        assert made.status_code == 201, made.text
        listed = director.get(f"/api/tournaments/{T}/players")
        assert listed.status_code == 200, listed.text
        links = {p["entrant"]: p["token"] for p in listed.json()["players"]}
        assert sorted(links) == list(range(1, 9))  # one link a player, no second place

        assert _places(stack, links, "lobby") == ROUND_1
        started = director.post(f"/api/tournaments/{T}/rounds", json={"round": 1})
        assert started.status_code == 202, started.text
        assert _places(stack, links, "seated") == ROUND_1
        assert sorted(_partner(stack, links[3])) == ["P1", "P3"]  # 1S partners 1N
        _seat_names(director, 1, ROUND_1)

        round_played(stack, {(p, 1): t for p, t in links.items()}, [1])
        assert _places(stack, links, "between") == ROUND_2
        started = director.post(f"/api/tournaments/{T}/rounds", json={"round": 2})
        assert started.status_code == 202, started.text
        assert _places(stack, links, "seated") == ROUND_2
        assert sorted(_partner(stack, links[3])) == ["P3", "P5"]  # 1W partners 1E
        _seat_names(director, 2, ROUND_2)

        round_played(stack, {(p, 1): t for p, t in links.items()}, [2])
        doc = wait_for(lambda: (r := director.get(f"/api/tournaments/{T}/results").json())
                       ["complete"] == [1, 2] and r, 30, "both boards complete")
        # every board passed out at both tables: each side 1 of the top 2 (Law 78A), each
        # player 2 of 4 over his two boards
        assert {(r["entrant"], r["rank"], r["boards"], r["points"], r["top"], r["percent"])
                for r in doc["rankings"]} == {(p, 1, 2, 2, 4, 50) for p in range(1, 9)}
        assert len(doc["partnerships"]) == 8


def _seat_names(director: httpx.Client, number: int, where: dict[int, tuple[int, str]]
                ) -> None:
    """Each table's seats name the players the rotation seats there in round `number`."""
    for table in (1, 2):
        want = {seat: f"P{p}" for p, (t, seat) in where.items() if t == table}
        def named(table: int = table, want: dict[str, str] = want) -> dict[str, str] | None:
            board = director.get(f"/api/tables/{T}-{table}/state").json().get("board") or {}
            players: dict[str, str] | None = board.get("players")
            return players if players == want else None
        wait_for(named, 30, f"round {number}'s players {want} at table {table}")
