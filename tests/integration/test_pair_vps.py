"""A cross-IMP Howell ranked by VPs, played through on the real stack (docs/scoring.md): four
pairs, three rounds of two boards (tests/integration/test_howell_results.py's play), each
board's IMPs by Law 78B's table written out (two results a board: a pair's cross-IMPs are its
IMPs against the other table), each pair's round converted on the WBF continuous scale written
out from its formula (`_wbf_scale`), the pairs ranked by total VPs, all worked here from the
raw table scores."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tests.helpers import DEALS, wait_for
from tests.integration.test_howell_results import PAIRS, SEATED, play_howell
from tests.integration.test_tournament_results import _wbf_scale
from tests.stack import Stack
from tests.unit.tournament_fixtures import imps_by_law


def _vp(imps: float, scale: list[float]) -> float:
    won = scale[min(int(abs(imps)), len(scale) - 1)]
    return won if imps >= 0 else round(20 - won, 2)


def test_a_cross_imp_howell_is_ranked_by_vps_round_by_round(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": "pvp-bad", "tables": 2, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 2, "imps_to_vp": True}})
        assert bad.status_code == 400, bad.text  # matchpoints: no IMPs to convert
        assert bad.json()["field"] == "movement.imps_to_vp", bad.text
        played, _ = play_howell(http, "pvp", {"scoring": "cross_imps", "imps_to_vp": True})

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get("/api/tournaments/pvp/results").json()
            return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
        doc = wait_for(complete, 30, "every board's results")
    scale = _wbf_scale(2)
    round_imps: dict[tuple[int, int], float] = defaultdict(float)
    for rnd, tables in SEATED.items():
        (ns_a, ew_a, boards), (ns_b, ew_b, _) = tables["a"], tables["b"]
        for board in boards:
            swing = imps_by_law(played[board, ns_a, ew_a] - played[board, ns_b, ew_b])
            for pair, imps in ((ns_a, swing), (ew_a, -swing), (ns_b, -swing), (ew_b, swing)):
                round_imps[rnd, pair] += imps
    vp: dict[int, float] = defaultdict(float)
    for (_, pair), imps in round_imps.items():
        vp[pair] += _vp(imps, scale)
    assert abs(sum(vp.values()) - 120) < 1e-6  # six matches of 20
    got = {r["entrant"]: r["vp"] for r in doc["rankings"]}
    assert got == {p: round(v, 2) for p, v in vp.items()}
    order = sorted(vp, key=lambda p: (-round(vp[p], 2), p))
    assert [r["entrant"] for r in doc["rankings"]] == order
    assert {(r["round"], r["entrant"]): r["imps"] for r in doc["vp_rounds"]} == {
        k: float(v) for k, v in round_imps.items()}
