"""A fouled board (Law 87) on the real stack (docs/scoring.md): the six-pair arrow-switched
Mitchell of `test_arrow_switch` played through, the Director marks board 1 fouled at one of its
three places (`POST …/fouled`, on the tournament's topic), and the traveller scores it in its
groups (Law 87B, the EBU's method: each group matchpointed apart, (M × E + (E − A)) / A); the
two pairs it leaves tied for first, alike by every test of the EBU White Book §143.7.1, share
first place."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import wait_for
from tests.integration.test_arrow_switch import play_arrow_switched
from tests.integration.ties_by_hand import first_place_by_hand
from tests.stack import Stack

T = "fouled"


def law_87b(scores: dict[tuple[int, int], int], groups: list[set[tuple[int, int]]],
            expected: int) -> dict[tuple[int, int], float]:
    """Each place's NS matchpoints, its group matchpointed apart (Law 78A: two a result beaten,
    one a tie) and factored as the EBU's formula has it: (M × E + (E − A)) / A."""
    out = {}
    for group in groups:
        a = len(group)
        for place in group:
            m = sum(2 if scores[place] > scores[o] else 1 if scores[place] == scores[o] else 0
                    for o in group if o != place)
            out[place] = (m * expected + (expected - a)) / a
    return out


def fouled_at(http: Any, t: str, body: dict[str, Any]) -> Any:
    return http.post(f"/api/tournaments/{t}/fouled", json=body)


def test_a_fouled_board_is_scored_in_its_groups(stack: Stack) -> None:
    """Law 87B: the place named plays alone in its group (average, 2 of a top of 4), the two
    others are matchpointed between them and factored to the top of 4; a place the movement
    never seated there is refused (400 naming it) and records nothing."""
    with stack.client(stack.director) as http:
        played, first = play_arrow_switched(http, T)
        board_1 = {(ns, ew): s for (b, ns, ew), s in played.items() if b == 1}
        changed = sorted(board_1)[0]
        bad = fouled_at(http, T, {"board": 1, "groups": [[{"ns": 1, "ew": 2}]]})
        assert bad.status_code == 400, bad.text
        assert bad.json()["field"] == "groups[0][0]", bad.text
        reason = "East's and West's hands swapped"
        ok = fouled_at(http, T, {"board": 1, "reason": reason, "groups": [
            [{"ns": changed[0], "ew": changed[1]}]]})
        assert ok.status_code == 202, ok.text

        def fouled() -> dict[str, Any] | None:
            found: dict[str, Any] = http.get(f"/api/tournaments/{T}/results").json()
            t = next(x for x in found["travellers"] if x["board"] == 1)
            return t if "fouled" in t else None
        traveller = wait_for(fouled, 30, "board 1 scored in its groups")
        doc = http.get(f"/api/tournaments/{T}/results").json()
    assert traveller["fouled"] == {"forms": 1, "reason": reason}
    expected = law_87b(board_1, [{changed}, set(board_1) - {changed}], 3)
    assert {(x["ns"], x["ew"]): x["ns_points"] for x in traveller["lines"]} == pytest.approx(
        expected, abs=1e-3)
    assert {(x["ns"], x["ew"]): x["group"] for x in traveller["lines"]} == {
        p: 1 if p == changed else 0 for p in board_1}
    assert first["travellers"][0].get("fouled") is None  # before the marking
    # the fouling leaves two pairs tied for first, alike by every test of the EBU's
    # §143.7.1 (they never met, the same opponents, as many boards won): they share first
    order, rule = first_place_by_hand(doc)
    assert len(order) == 2 and rule is None
    got = {r["entrant"]: (r["rank"], r.get("tie_break")) for r in doc["rankings"]}
    assert [got[p] for p in order] == [(1, None), (1, None)]
