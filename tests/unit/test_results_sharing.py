"""The public's results as the gateway shares them (docs/scoring.md): every reader that asks while a
computation is under way, or soon after it ended, gets that one; the overview's standings do
not wait for a slow one (the last standings, or none yet)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from services.common.names import table_topic
from services.common.settings import Settings
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import scores as tournament_scores
from shared.codec import encode, from_map
from shared.tournament.entrants import MovementKind
from shared.tournament.results import results, standings
from shared.tournament.session import Tournament
from tests.fakes import MemoryKafka, MemoryReads, MemoryStore, gateway_adapters
from tests.helpers import DEAL
from tests.script import log
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


async def test_each_tables_log_is_read_from_where_the_last_read_left_it(
        tmp_path: Path) -> None:
    """The results (the public's boards ask every second) read each table's topic from the
    first record not yet folded: a table with nothing new is not read again, and what is
    folded is the same as the whole log's."""
    kafka = MemoryKafka(shards=8)
    store, reads = MemoryStore(), MemoryReads(kafka)
    gw = Gateway(Settings(data=tmp_path), gateway_adapters(kafka, store=store, reads=reads))
    tables = ("cup-1", "cup-2")
    for table in tables:
        kafka.register(table)
    await store.remember_tables({t: {"table": t, "tournament": "cup"} for t in tables})
    made = Tournament("cup", "cup", "duplicate", tables, {1: {"board": 1}, 2: {"board": 2}})
    board_1 = [{"type": "board_started", "board": 1, "deal": DEAL},
               *log("N P, E P, S P, W P")[1:]]
    board_2 = [{"type": "board_started", "board": 2, "deal": DEAL},
               *log("N 1S, E P, S P, W P, E leads DA", board=2)[1:]]
    for event in board_1:
        kafka.call("cup-1", encode(from_map(event)))
    first = await tournament_scores.all_results(gw, made)
    for event in board_2:
        kafka.call("cup-1", encode(from_map(event)))
    second = await tournament_scores.all_results(gw, made)
    topic = table_topic("cup-1")
    assert reads.topics_read == [{topic: 0, table_topic("cup-2"): 0},
                                 {topic: len(board_1), table_topic("cup-2"): 0}]
    whole = [(offset, value) for offset, (_, value) in enumerate(kafka.records(topic))]
    assert first == {"cup-1": {1: 0}, "cup-2": {}}
    assert second["cup-1"] == tournament_scores.table_results(whole)
    assert tournament_scores._folded[gw]["cup-1"].state.boards[-1].board == 2
