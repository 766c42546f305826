"""An arrow-switched Mitchell played through on the real stack (docs/scoring.md): six pairs at
three tables, three rounds of two boards, the last round switched (the EBU's club practice:
the moving pair sits NS, the stationary pair EW), the players' names at the seats as the
switch puts them, and every pair ranked in one field by Law 78A's matchpoints as
`tests/integration/pairs_by_hand.py` computes them from the raw table scores."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import DEALS, wait_for, wait_for_auction
from tests.integration.pairs_by_hand import by_hand, ranks
from tests.integration.test_tournament_results import SEATS, _deals, _one_notrump, _play
from tests.stack import Stack

T = "arrow"
PAIRS = [{"name": f"arrow {n}", "players": [f"A{n}a", f"A{n}b"]} for n in range(1, 7)]
# the Mitchell written out (NS 1-3 stay, EW 4-6 move up a table, the boards down), round 3
# arrow-switched: table → (NS pair, EW pair, boards)
SEATED = {1: {"a": (1, 4, (1, 2)), "b": (2, 5, (3, 4)), "c": (3, 6, (5, 6))},
          2: {"a": (1, 6, (3, 4)), "b": (2, 4, (5, 6)), "c": (3, 5, (1, 2))},
          3: {"a": (5, 1, (5, 6)), "b": (6, 2, (1, 2)), "c": (4, 3, (3, 4))}}


def play_arrow_switched(http: Any, t: str, **creation: Any
                        ) -> tuple[dict[tuple[int, int, int], int], dict[str, Any]]:
    """The arrow-switched Mitchell `t` created (tables `t`-a, -b, -c; `creation`'s fields
    added to the request) and its three rounds played as `SEATED` seats them, each round's
    names at the seats checked: each place's (board, NS, EW) NS score, and the results once
    every board is complete."""
    deals = _deals()
    made = http.post("/api/tournaments", json=creation | {
        "tournament": t, "tables": [f"{t}-{x}" for x in "abc"], "deals": DEALS,
        "entrants": PAIRS,
        "movement": {"kind": "mitchell", "boards_per_round": 2, "arrow_switch": True}})
    assert made.status_code == 201, made.text
    seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
    played: dict[tuple[int, int, int], int] = {}
    for rnd in (1, 2, 3):
        started = http.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
        assert started.status_code == 202, started.text
        for x, (ns, ew, boards) in SEATED[rnd].items():
            table = f"{t}-{x}"
            for k, board in enumerate(boards):
                wait_for_auction(http, table, board)
                if k == 0:  # the switch seats the moving pair NS
                    state = http.get(f"/api/tables/{table}/state").json()
                    assert state["board"]["players"] == {
                        "N": f"A{ns}a", "S": f"A{ns}b", "E": f"A{ew}a", "W": f"A{ew}b"}
                tricks = 6 + (board + ns + k) % 4
                _play(http, seats[table], table, board, deals[board], tricks)
                played[board, ns, ew] = _one_notrump(SEATS[(board - 1) % 4], board, tricks)

    def complete() -> dict[str, Any] | None:
        doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
        return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
    return played, wait_for(complete, 30, "every board's results")


def test_an_arrow_switched_mitchell_is_played_and_ranked_as_one_field(stack: Stack) -> None:
    """Law 78A across both lines: each pair compared on each board with those who held its
    cards there; one field, ranks as computed by hand; a Howell cannot be switched (400 naming
    `movement.arrow_switch`)."""
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": f"{T}-bad", "tables": 3, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 2, "arrow_switch": True}})
        assert bad.status_code == 400, bad.text
        assert bad.json()["field"] == "movement.arrow_switch", bad.text
        played, doc = play_arrow_switched(http, T)
    assert doc["movement"]["arrow_switch"] == 1
    assert {(b["board"], x["ns"], x["ew"]): x["score_ns"] for b in doc["travellers"]
            for x in b["lines"]} == played
    expected = by_hand(played, {}, [])
    assert {r["entrant"]: r["percent"] for r in doc["rankings"]} == pytest.approx(
        expected, abs=1e-3)
    assert {r["entrant"]: r["rank"] for r in doc["rankings"]} == ranks(expected)
    assert {r["direction"] for r in doc["rankings"]} == {None}  # one field
