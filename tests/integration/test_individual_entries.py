"""Entries for an individual on the real stack (docs/api.md "Entries"): the Director opens
entries with the movement `individual`; twelve players enter one by one with the entry token,
each given his own link (a pair's entry is refused naming `players`); a close of eleven is
refused naming `entrants` and the sizes, nothing recorded; the twelfth enters and the close
makes the individual of twelve (three tables, eleven rounds): each player's link from his
entry's answer shows, in the lobby, the round-1 seat the movement gives him (players 1–4 at
table 1 N, E, S, W, and so on: `shared.scores.individual_movements.round_1`) and his partner."""

from __future__ import annotations

from tests.helpers import DEALS
from tests.integration.test_individual_twelve import ROUND_1
from tests.integration.test_individuals import _partner, _places
from tests.stack import Stack

T = "indiv-entries"
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


def test_twelve_players_enter_alone_and_the_close_seats_them_by_the_individual(
        stack: Stack) -> None:
    with stack.client(stack.director) as director:
        opened = director.post(f"/api/tournaments/{T}/entries/open", json={
            "name": "Club individual", "deals": DEALS,
            "movement": {"kind": "individual", "boards_per_round": 1}})
        assert opened.status_code == 201, opened.text
        entry = {"Authorization": f"Bearer {opened.json()['token']}"}
        pair = director.post(f"/api/tournaments/{T}/entries", headers=entry,
                             json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
        assert (pair.status_code, pair.json()["field"]) == (400, "players"), pair.text
        links: dict[int, str] = {}
        for n in range(1, 13):
            made = director.post(f"/api/tournaments/{T}/entries", headers=entry,
                                 json={"players": [{"name": f"P{n}"}]})
            assert made.status_code == 201, made.text
            assert made.json()["number"] == n
            links[n] = made.json()["links"][0]["token"]
            if n == 11:
                early = director.post(f"/api/tournaments/{T}/entries/close", json={})
                assert (early.status_code, early.json()["field"]) == (400, "entrants")
                assert "8, 12, 16, 20 or 24 players" in early.text
                assert "11 entries stand" in early.text
        closed = director.post(f"/api/tournaments/{T}/entries/close", json={})
        assert closed.status_code == 201, closed.text
        assert (closed.json()["tables"], closed.json()["movement"]["kind"],
                closed.json()["movement"]["rounds"]) == (3, "individual", 11)
        assert _places(stack, links, "lobby") == ROUND_1
        at = {place: p for p, place in ROUND_1.items()}
        for p, (table, seat) in ROUND_1.items():
            partner = at[table, PARTNER[seat]]
            assert f"P{partner}" in _partner(stack, links[p]), p
