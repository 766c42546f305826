"""The players' views at a round's end on the clock (services/gateway/http/routes/players.py
`_send_views`, services/gateway/tournaments/play_watch.py `moved`; docs/performance.md, "The
evening"): each socket computes its player's view once a change, and the round's unfinished
boards (Law 12C2) are scored only once every woken socket sent its view of the move, so that
the scoring does not compete with the views.

On the in-memory Kafka and Redis, the sockets' frames sent to a page that takes its time."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from services.gateway.http.routes import players as player_routes
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import clock, entry_links, play_watch
from tests.fakes import MemoryKafka, director_gateway
from tests.unit.test_clock_move import PLAYER, timed_round_one, until

pytestmark = pytest.mark.asyncio


class SlowPage:
    """A player's socket whose frames take `delay_s` each to go out; the views it sent."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s = delay_s
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(self.delay_s)
        self.sent.append(json.loads(text))


@pytest.fixture
def gw(tmp_path: Path) -> Gateway:
    return director_gateway(tmp_path, MemoryKafka(shards=8))


def seated_in(page: SlowPage, number: int) -> bool:
    return any(v["phase"] == "seated" and v["round"] == number for v in page.sent)


@contextlib.asynccontextmanager
async def sending_views(gw: Gateway, page: SlowPage) -> AsyncIterator[None]:
    """The player's socket sending his views to `page`, from his round 1 seat on."""
    listener: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    async with play_watch.listening(gw, PLAYER) as watch:
        views = asyncio.ensure_future(player_routes._send_views(
            page, gw, PLAYER, watch, listener, asyncio.Lock()))  # type: ignore[arg-type]
        try:
            await until(lambda: seated_in(page, 1))
            yield
        finally:
            listener.set_result(None)
            views.cancel()


async def test_the_unfinished_boards_are_scored_once_the_sockets_sent_the_move(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """Law 12C2's scores of round 1's unfinished boards wait until the player's socket sent
    his page round 2's seat (its frame slow to go out), not only until it was woken."""
    await timed_round_one(gw, monkeypatch)
    page = SlowPage(0.1)
    sent_then: list[bool] = []
    score = clock.score_unfinished

    async def scoring(*args: Any) -> dict[str, Any]:
        sent_then.append(seated_in(page, 2))
        return await score(*args)

    monkeypatch.setattr(clock, "score_unfinished", scoring)
    async with sending_views(gw, page):
        await clock.end_round(gw, "eve")
    assert sent_then == [True]


async def test_a_socket_computes_its_players_view_once_a_change(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move (Law 12C2's end of round 1, round 2 started) wakes the socket once; it
    computes its player's view once for it, not once to compare and again to send."""
    await timed_round_one(gw, monkeypatch)
    page = SlowPage(0.0)
    computed: list[bool] = []  # each view computed: whether the page had round 2 then
    view_of = entry_links.play_view

    async def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        computed.append(seated_in(page, 2))
        return await view_of(*args, **kwargs)

    monkeypatch.setattr(entry_links, "play_view", counted)
    async with sending_views(gw, page):
        before = len(computed)  # the views of round 1
        await clock.end_round(gw, "eve")
        await until(lambda: seated_in(page, 2))
    assert computed[before:].count(False) == 1, computed  # the move's, computed once


async def test_the_read_and_the_move_run_without_the_cycle_collector_and_the_scores_with_it(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """No full collection in the midst of the move (its pauses held every view behind them):
    the collector is off from the tournament's read until the players' sockets sent their
    views, on again for the unfinished boards' scores (Law 12C2)."""
    await timed_round_one(gw, monkeypatch)
    collecting: dict[str, bool] = {}
    moved, score, read = play_watch.moved, clock.score_unfinished, clock.round_records

    async def reading(*args: Any) -> list[dict[str, Any]]:
        collecting["read"] = gc.isenabled()
        return await read(*args)

    async def moving(*args: Any) -> bool:
        collecting["move"] = gc.isenabled()
        return await moved(*args)

    async def scoring(*args: Any) -> dict[str, Any]:
        collecting["scores"] = gc.isenabled()
        return await score(*args)

    monkeypatch.setattr(play_watch, "moved", moving)
    monkeypatch.setattr(clock, "score_unfinished", scoring)
    monkeypatch.setattr(clock, "round_records", reading)
    async with sending_views(gw, SlowPage(0.0)):
        await clock.end_round(gw, "eve")
    assert collecting == {"read": False, "move": False, "scores": True}
    assert gc.isenabled()
