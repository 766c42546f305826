"""A multi-session event on the real stack (docs/scoring.md, `shared.tournament.carry_over`):
two sessions of the six-pair arrow-switched Mitchell of `test_arrow_switch`, the second
created with `continues` the first (a fouled board in it, so that the sessions differ); its
results carry the totals over: each pair's matchpoints of both sessions over the tops it
played for (the tops equal here: the sessions' percentages averaged), ranked, ties sharing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import DEALS, wait_for
from tests.integration.pairs_by_hand import by_hand
from tests.integration.test_arrow_switch import PAIRS, play_arrow_switched
from tests.integration.test_fouled_board import fouled_at
from tests.stack import Stack


def play_two_sessions(http: Any, first: str, second: str
                      ) -> tuple[dict[str, Any], dict[str, Any], dict[str, float]]:
    """Sessions `first` ("Monday") and `second` ("Tuesday", continuing it) played, board 1 of
    the second fouled at its first place: the first's results, the second's once the fouling
    shows, and each pair's overall percentage by hand (session 1 by Law 78A by hand, session
    2 as its own ranking gives it: the tops are equal, so the two averaged)."""
    played, one = play_arrow_switched(http, first, session="Monday")
    _, two = play_arrow_switched(http, second, continues=first, session="Tuesday")
    board_1 = sorted((ns, ew) for (b, ns, ew) in played if b == 1)
    marked = fouled_at(http, second, {"board": 1, "groups": [
        [{"ns": board_1[0][0], "ew": board_1[0][1]}]]})
    assert marked.status_code == 202, marked.text

    def fouled() -> dict[str, Any] | None:
        doc: dict[str, Any] = http.get(f"/api/tournaments/{second}/results").json()
        return doc if "fouled" in doc["travellers"][0] else None
    doc = wait_for(fouled, 30, "session 2's board 1 scored in its groups")
    names = {e["number"]: e["name"] for e in doc["entrants"]}
    session_2 = {names[r["entrant"]]: r["percent"] for r in doc["rankings"]}
    assert session_2 != {names[r["entrant"]]: r["percent"] for r in two["rankings"]}
    session_1 = by_hand(played, {}, [])
    return one, doc, {names[p]: (session_1[p] + session_2[names[p]]) / 2 for p in session_1}


def overall_ranks(expected: dict[str, float]) -> dict[str, int]:
    """Places by the totals, ties sharing the better one."""
    return {n: 1 + sum(1 for v in expected.values() if v > value + 1e-6)
            for n, value in expected.items()}


def test_a_second_session_carries_the_first_sessions_totals_over(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": "ms-bad", "tables": 3, "deals": DEALS, "entrants": PAIRS,
            "continues": "no-such-session",
            "movement": {"kind": "mitchell", "boards_per_round": 2, "arrow_switch": True}})
        assert bad.status_code == 400, bad.text
        assert bad.json()["field"] == "continues", bad.text
        first, doc, expected = play_two_sessions(http, "ms1", "ms2")
    with stack.client() as anyone:  # the public's view carries over too
        public = anyone.get("/api/tournaments/ms2/results")
    assert doc["sessions"] == ["Monday", "Tuesday"] and doc["session"] == "Tuesday"
    assert doc["continues"] == "ms1" and doc["carried"] == "percent"
    rows = {r["name"]: r for r in doc["overall"]}
    assert {n: r["percent"] for n, r in rows.items()} == pytest.approx(expected, abs=1e-3)
    assert {n: r["rank"] for n, r in rows.items()} == overall_ranks(expected)
    assert all(r["boards"] == 12 for r in rows.values())
    assert first.get("overall") is None  # the first session carries nothing
    assert public.status_code == 200, public.text
    assert [r["name"] for r in public.json()["overall"]] == [r["name"] for r in doc["overall"]]
