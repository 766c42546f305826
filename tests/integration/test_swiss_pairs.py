"""A Swiss pairs played through on the real stack (docs/scoring.md, "Swiss pairs"): six pairs
at three tables, three rounds of two boards, scored in cross-IMPs converted to VPs a match.
Each round after the first is paired by the gateway from the VPs so far; the test works the
same by hand from the raw table scores: each board's cross-IMPs (Law 78B's table written out,
each result against the two others, the sum over the two comparisons), each pair's match
converted on the WBF continuous scale written out from its formula (`_wbf_scale`, a
fractional margin in proportion between its two whole margins), and the next round's pairing
(the pairs by VPs, ties by number, each with the next below it not met before, backtracking).
The seats' names at each table show the pairing the gateway made."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from tests.helpers import DEALS, wait_for, wait_for_auction
from tests.integration.test_tournament_results import (
    SEATS,
    _deals,
    _one_notrump,
    _play,
    _wbf_scale,
)
from tests.stack import Stack
from tests.unit.tournament_fixtures import imps_by_law

T = "swp"
PAIRS = [{"name": f"swiss {n}", "players": [f"S{n}a", f"S{n}b"]} for n in range(1, 7)]


def _vp(imps: float, scale: list[float]) -> float:
    low = math.floor(abs(imps))
    won = round(scale[low] + (scale[low + 1] - scale[low]) * (abs(imps) - low), 2)
    return won if imps >= 0 else round(20 - won, 2)


def _pairing(vp: dict[int, float], met: set[frozenset[int]]) -> list[tuple[int, int]]:
    """By hand: the pairs by VPs (ties by number), the first with the next below it not
    met, backtracking where that leaves the rest unpairable."""
    def pair(order: list[int]) -> list[tuple[int, int]] | None:
        if not order:
            return []
        for i, other in enumerate(order[1:], 1):
            if frozenset((order[0], other)) not in met:
                rest = pair(order[1:i] + order[i + 1:])
                if rest is not None:
                    return [(order[0], other), *rest]
        return None
    found = pair(sorted(vp, key=lambda p: (-vp[p], p)))
    assert found is not None
    return found


def play_swiss_pairs(http: Any, t: str) -> tuple[dict[int, float],
                                                 dict[tuple[int, int], float],
                                                 dict[int, list[tuple[int, int]]],
                                                 dict[str, Any]]:
    """The Swiss pairs `t` created (tables `t`-1 … `t`-3) and its three rounds played, each
    seated as worked by hand (checked at the tables): each pair's VPs, each round's IMPs
    (round, pair), each round's pairing (NS, EW a table), and the results once every board
    is in."""
    deals = _deals()
    scale = _wbf_scale(2)
    vp: dict[int, float] = {p: 0.0 for p in range(1, 7)}
    imps: dict[tuple[int, int], float] = defaultdict(float)  # (round, pair) → IMPs
    met: set[frozenset[int]] = set()
    tables = [f"{t}-{n}" for n in (1, 2, 3)]
    made = http.post("/api/tournaments", json={
        "tournament": t, "tables": tables, "deals": DEALS, "entrants": PAIRS,
        "movement": {"kind": "swiss_pairs", "boards_per_round": 2, "rounds": 3,
                     "scoring": "cross_imps"}})
    assert made.status_code == 201, made.text
    seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
    doc: dict[str, Any] = {}
    pairings: dict[int, list[tuple[int, int]]] = {}
    for rnd in (1, 2, 3):
        pairing = pairings[rnd] = _pairing({p: round(v, 2) for p, v in vp.items()}, met)
        boards = (2 * rnd - 1, 2 * rnd)
        started = http.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
        assert started.status_code == 202, started.text
        scores: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for table, (ns, ew) in zip(tables, pairing, strict=True):
            for k, board in enumerate(boards):
                wait_for_auction(http, table, board)
                if k == 0:  # the gateway's pairing is the one worked by hand
                    state = http.get(f"/api/tables/{table}/state").json()
                    assert state["board"]["players"] == {
                        "N": f"S{ns}a", "S": f"S{ns}b", "E": f"S{ew}a", "W": f"S{ew}b"}
                tricks = 5 + (board * ns + ew) % 5
                _play(http, seats[table], table, board, deals[board], tricks)
                scores[board].append((ns, ew, _one_notrump(SEATS[(board - 1) % 4], board,
                                                           tricks)))
            met.add(frozenset((ns, ew)))
        for board_scores in scores.values():  # cross-IMPs: the sum over n − 1 = 2
            for ns, ew, score in board_scores:
                x = sum(imps_by_law(score - other) for n, _, other in board_scores
                        if n != ns) / 2
                imps[rnd, ns] += x
                imps[rnd, ew] -= x
        for ns, ew in pairing:
            vp[ns] += _vp(imps[rnd, ns], scale)
            vp[ew] += _vp(imps[rnd, ew], scale)

        def counted(n: int = rnd) -> dict[str, Any] | None:
            now: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
            return now if now["complete"] == list(range(1, 2 * n + 1)) else None
        doc = wait_for(counted, 30, f"round {rnd}'s results")
    return vp, imps, pairings, doc


def test_a_swiss_pairs_is_paired_and_ranked_by_vps_as_worked_by_hand(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        bad = http.post("/api/tournaments", json={
            "tournament": f"{T}-bad", "tables": 3, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "swiss_pairs", "boards_per_round": 2, "rounds": 3}})
        assert bad.status_code == 400, bad.text  # matchpoints: a Swiss pairs is in IMPs
        assert bad.json()["field"] == "movement.scoring", bad.text
        vp, imps, pairings, doc = play_swiss_pairs(http, T)
        # round 2 sent again (a retry) keeps the seating it started with: paired again from
        # the VPs now (every round in) it would seat other pairs at its tables
        assert _pairing({p: round(v, 2) for p, v in vp.items()},
                        {frozenset(m) for m in pairings[1]}) != pairings[2]
        again = http.post(f"/api/tournaments/{T}/rounds", json={"round": 2})
        assert again.status_code == 202, again.text
        after = http.get(f"/api/tournaments/{T}/results").json()
        assert (after["rankings"], after["vp_rounds"]) == (doc["rankings"], doc["vp_rounds"])
    met = {frozenset(m) for pairing in pairings.values() for m in pairing}
    assert doc["movement"]["kind"] == "swiss_pairs" and doc["movement"]["imps_to_vp"] is True
    assert abs(sum(vp.values()) - 180) < 0.05  # nine matches of 20 (each to two decimals)
    assert len(met) == 9  # no pair met another twice
    got = {r["entrant"]: r["vp"] for r in doc["rankings"]}
    assert got == {p: round(v, 2) for p, v in vp.items()}
    assert [r["entrant"] for r in doc["rankings"]] == sorted(
        vp, key=lambda p: (-round(vp[p], 2), p))
    assert {(r["round"], r["entrant"]): r["imps"] for r in doc["vp_rounds"]} == {
        k: v for k, v in imps.items()}
