"""The public's results as the gateway shares them (docs/scoring.md): every reader that asks while a
computation is under way, or soon after it ended, gets that one; the overview's standings do
not wait for a slow one (the last standings, or none yet)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from services.common.settings import Settings
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import scores as tournament_scores
from shared.tournament.entrants import MovementKind
from shared.tournament.results import results, standings
from shared.tournament.session import Tournament
from tests.unit.test_tournament_results import DIRECTOR, MITCHELL_TABLES, _made
from tests.unit.tournament_fixtures import round_records


class Gated:
    """A stand-in for the computation: counts its calls, answers once let go."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.calls = 0
        self.go = asyncio.Event()
        self.doc = doc

    async def __call__(self, gw: Gateway, made: Tournament, everything: bool
                       ) -> dict[str, Any]:
        self.calls += 1
        await self.go.wait()
        return self.doc


def _doc(made: Tournament) -> dict[str, Any]:
    return results(made, round_records(made), MITCHELL_TABLES, DIRECTOR)


async def test_readers_share_one_computation_and_reuse_it_for_a_while(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    gated = Gated(_doc(made))
    monkeypatch.setattr(tournament_scores, "_compute", gated)
    monkeypatch.setattr(tournament_scores, "PUBLIC_EVERY_S", 3600.0)
    gw = Gateway(Settings(data=tmp_path))
    readers = [asyncio.ensure_future(tournament_scores.results_of(gw, made, False))
               for _ in range(5)]
    gated.go.set()
    docs = await asyncio.gather(*readers)
    assert gated.calls == 1 and all(d is gated.doc for d in docs)
    assert await tournament_scores.results_of(gw, made, False) is gated.doc
    assert gated.calls == 1  # ended within PUBLIC_EVERY_S: reused
    tournament_scores._public[gw][made.tournament, False].done_at = float("-inf")  # long ago
    await tournament_scores.results_of(gw, made, False)
    assert gated.calls == 2
    await tournament_scores.results_of(gw, made, True)  # the director's: never shared
    assert gated.calls == 3


async def test_the_overview_does_not_wait_for_slow_standings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    doc = _doc(made)
    gated = Gated(doc)  # never let go: a computation slower than the overview waits
    monkeypatch.setattr(tournament_scores, "_compute", gated)
    monkeypatch.setattr(tournament_scores, "STANDINGS_WAIT_S", 0.01)
    gw = Gateway(Settings(data=tmp_path))
    assert await tournament_scores.standings_of(gw, made) is None  # none computed yet
    tournament_scores._last.setdefault(gw, {})[made.tournament, True] = ((), doc)
    assert await tournament_scores.standings_of(gw, made) == standings(doc)
    gated.go.set()
    task = tournament_scores._public[gw][made.tournament, True].task
    assert task is not None and await task is doc  # the slow one, once done
