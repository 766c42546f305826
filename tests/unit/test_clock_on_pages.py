"""The round's clock on every page (docs/scoring.md, "The clock"; docs/pages.md): the
player's page (`GET /api/play`, its socket) and the tournament's vugraph list carry the last
timed round's clock, read from the tournament's topic (`shared.tournament.clock.clock_view`);
a board withheld from the public keeps the table's clock (Law 16C1 withholds the board, not
the time). A timed round is not a Law: the clock is the Director's timing of the movement."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from services.gateway.http.models import TournamentCreate
from services.gateway.tables.service import Gateway
from services.gateway.tokens import PlayerScope
from services.gateway.tournaments import clock, players, service as tournaments
from shared.table.visibility import withheld
from shared.tournament.clock import clock_of, clock_view
from tests.fakes import MemoryKafka, director_gateway
from tests.helpers import DEALS

ENTRANTS = [{"players": [f"P{n}a", f"P{n}b"]} for n in range(1, 5)]
PLAYER = PlayerScope("eve", 1, 1, 1)


@pytest.fixture
def gw(tmp_path: Path) -> Gateway:
    return director_gateway(tmp_path, MemoryKafka(shards=8))


async def _create(gw: Gateway, minutes: float | None) -> None:
    movement = {"kind": "howell", "boards_per_round": 2, **(
        {"minutes_per_board": minutes} if minutes is not None else {})}
    await tournaments.create(gw, TournamentCreate.model_validate(
        {"tournament": "eve", "tables": 2, "deals": DEALS, "entrants": ENTRANTS,
         "movement": movement}))


async def _until(read: Callable[[], Awaitable[dict[str, Any]]],
                 ok: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """`read()` again until `ok` (the players' moment is read again once `FRESH_S` old)."""
    deadline = time.monotonic() + 5
    while True:
        got = await read()
        if ok(got) or time.monotonic() > deadline:
            return got
        await asyncio.sleep(players.FRESH_S / 2)


def test_the_clock_view_is_its_round_end_and_state_and_held_the_time_it_had() -> None:
    records = [{"type": "round_started", "round": 2, "ts": 1_000, "ends_at": 841_000}]
    assert clock_view(clock_of(records)) == {
        "round": 2, "ends_at": 841_000, "over": False, "held": False, "left": None}
    held = [*records, {"type": "clock_held", "round": 2, "left": 300_000}]
    assert clock_view(clock_of(held)) == {
        "round": 2, "ends_at": 841_000, "over": False, "held": True, "left": 300_000}
    ended = [*records, {"type": "round_ended", "round": 2}]
    assert (clock_view(clock_of(ended)) or {})["over"] is True
    assert clock_view(clock_of([{"type": "round_started", "round": 1, "ts": 5}])) is None


async def test_the_players_page_has_the_rounds_clock_held_and_the_next_rounds(
        gw: Gateway) -> None:
    await _create(gw, minutes=7)
    before = await players.play_view(gw, PLAYER)
    assert before["phase"] == "lobby" and before["clock"] is None
    await tournaments.start_round(gw, "eve", 1, None, None)
    ends = await gw.adapters.store.clock_of("eve")
    seated = await _until(lambda: players.play_view(gw, PLAYER, False),
                          lambda v: v["clock"] is not None)
    assert seated["clock"] == {"round": 1, "ends_at": ends, "over": False, "held": False,
                               "left": None}
    held = await clock.hold(gw, "eve")
    view = await _until(lambda: players.play_view(gw, PLAYER, False),
                        lambda v: v["clock"]["held"])
    assert view["clock"]["held"] and view["clock"]["left"] == held["left_ms"]
    await clock.end_round(gw, "eve")  # round 2 starts: its clock
    view = await _until(lambda: players.play_view(gw, PLAYER, False),
                        lambda v: v["clock"]["round"] == 2)
    assert view["clock"]["round"] == 2 and view["clock"]["ends_at"] == \
        await gw.adapters.store.clock_of("eve")


async def test_the_vugraph_list_has_the_tournaments_clock_and_none_untimed(
        gw: Gateway) -> None:
    await _create(gw, minutes=7)
    await tournaments.start_round(gw, "eve", 1, None, None)
    shown = await _until(lambda: _as_map(players.tournament_clock(gw, "eve")),
                         lambda c: bool(c))
    assert shown == {"round": 1, "ends_at": await gw.adapters.store.clock_of("eve"),
                     "over": False, "held": False, "left": None}


async def test_an_untimed_tournament_shows_no_clock(gw: Gateway) -> None:
    await _create(gw, minutes=None)
    await tournaments.start_round(gw, "eve", 1, None, None)
    view = await _until(lambda: players.play_view(gw, PLAYER, False),
                        lambda v: v["round"] == 1 and v["phase"] != "lobby")
    assert view["round"] == 1 and view["phase"] != "lobby" and view["clock"] is None
    assert await players.tournament_clock(gw, "eve") is None


async def _as_map(clock_read: Awaitable[dict[str, Any] | None]) -> dict[str, Any]:
    return await clock_read or {}


def test_a_withheld_board_keeps_the_rounds_clock() -> None:
    """Law 16C1 withholds the board's deal, calls and play from the public; the round's time
    left tells nothing of them, so the vugraph of that table still shows it."""
    board: Any = {"board": 3, "dealer": "S", "vulnerability": "EW", "ruleset": "wbf",
                  "deal": "N:AKQ.x.x.x", "clock": {"round": 2, "ends_at": 9, "over": False,
                                                   "held": False}}
    seen = withheld(board)
    assert seen.get("clock") == board["clock"] and "deal" not in seen
