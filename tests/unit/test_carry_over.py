"""A multi-session event's totals carried over (docs/scoring.md, `shared.tournament.carry_over`):
at matchpoints 100 × Σ MP / Σ top over the sessions (the percentages weighted by the tops
played: the matchpoints summed where the tops are equal), at IMPs the IMPs summed, ties
sharing their place; a pair is the same pair by its name. The examples are worked by hand
below."""

from __future__ import annotations

from typing import Any

import pytest

from shared.scores.vocabulary import Scoring
from shared.tournament.carry_over import Session, carried, check_continues
from shared.tournament.entrants import MovementKind, movement_of
from shared.tournament.errors import TournamentError

pytestmark = pytest.mark.unit


def _doc(scoring: str, lines: list[tuple[str, float, float | None, int]]) -> dict[str, Any]:
    """A session's results: each pair's name, points, top and boards (entrant numbers in the
    order given, as a session's own)."""
    return {"scoring": scoring,
            "entrants": [{"number": i, "name": name} for i, (name, *_) in
                         enumerate(lines, start=1)],
            "rankings": [{"entrant": i, "rank": 0, "points": points, "top": top,
                          "percent": None if not top else round(100 * points / top, 4),
                          "boards": boards}
                         for i, (_, points, top, boards) in enumerate(lines, start=1)]}


# Session 1: 24 boards, top 10 a board (240 a pair): Ann 150 (62.5 %), Bea 120 (50 %),
# Cy 90 (37.5 %). Session 2: 26 boards, top 12 a board (312): Ann 117 (37.5 %), Bea 195
# (62.5 %), Cy 156 (50 %), the pairs numbered otherwise (Cy 1, Ann 2, Bea 3).
# By hand: Ann (150 + 117) / (240 + 312) = 267 / 552 = 48.3696 %, Bea 315 / 552 = 57.0652 %,
# Cy 246 / 552 = 44.5652 %: Bea first, Ann second, Cy third (the plain mean of the
# percentages, Ann 50, Bea 56.25, Cy 43.75, would weigh the short session as the long one).
ONE = _doc("matchpoints", [("Ann", 150, 240, 24), ("Bea", 120, 240, 24), ("Cy", 90, 240, 24)])
TWO = _doc("matchpoints", [("Cy", 156, 312, 26), ("Ann", 117, 312, 26), ("Bea", 195, 312, 26)])


def test_matchpoints_carry_over_as_total_points_over_total_tops() -> None:
    got = carried([Session("Session 1", ONE), Session("Session 2", TWO)])
    assert got["sessions"] == ["Session 1", "Session 2"] and got["carried"] == "percent"
    rows = {r["name"]: r for r in got["overall"]}
    assert {n: (r["rank"], r["percent"]) for n, r in rows.items()} == {
        "Bea": (1, 57.0652), "Ann": (2, 48.3696), "Cy": (3, 44.5652)}
    assert rows["Ann"]["points"] == 267 and rows["Ann"]["top"] == 552
    assert rows["Ann"]["boards"] == 50 and rows["Ann"]["entrant"] == 2
    assert [s["points"] for s in rows["Ann"]["sessions"]] == [150, 117]
    assert [r["name"] for r in got["overall"]] == ["Bea", "Ann", "Cy"]


def test_equal_tops_sum_the_matchpoints_and_ties_share_the_place() -> None:
    """Equal tops: the totals are the matchpoints summed; equal totals share first place."""
    a = _doc("matchpoints", [("Ann", 60, 100, 10), ("Bea", 40, 100, 10)])
    b = _doc("matchpoints", [("Ann", 40, 100, 10), ("Bea", 60, 100, 10)])
    got = carried([Session("1", a), Session("2", b)])
    assert {r["name"]: (r["rank"], r["points"], r["percent"]) for r in got["overall"]} == {
        "Ann": (1, 100, 50.0), "Bea": (1, 100, 50.0)}


def test_imps_are_summed_and_a_missed_session_carries_what_was_played() -> None:
    a = _doc("cross_imps", [("Ann", 12.5, None, 10), ("Bea", -12.5, None, 10)])
    b = _doc("cross_imps", [("Bea", 20.0, None, 10), ("Cy", -20.0, None, 10)])
    got = carried([Session("1", a), Session("2", b)])
    assert got["carried"] == "imps"
    assert {r["name"]: (r["rank"], r["points"]) for r in got["overall"]} == {
        "Ann": (1, 12.5), "Bea": (2, 7.5), "Cy": (3, -20.0)}
    ann = next(r for r in got["overall"] if r["name"] == "Ann")
    assert ann["sessions"][1] is None and ann["entrant"] is None


def test_a_session_continues_only_a_pairs_session_scored_the_same_way() -> None:
    deals = [1, 2, 3]
    mp = movement_of(MovementKind.MITCHELL, 1, None, Scoring.MATCHPOINTS, 6, 3, deals)
    imps = movement_of(MovementKind.MITCHELL, 1, None, Scoring.CROSS_IMPS, 6, 3, deals)
    check_continues(mp, mp, "s1")
    for previous, movement in ((imps, mp), (None, mp), (mp, None)):
        with pytest.raises(TournamentError) as caught:
            check_continues(previous, movement, "s1")
        assert caught.value.field == "continues"
