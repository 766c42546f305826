"""The rounds' clock in a gateway (services/gateway/tournaments/clock.py) on the in-memory
Kafka and Redis: a timed round's end on each table and in the clocks; the due clock taken by
one gateway, the round ended at every table and the next started; the Director's extension,
hold and end (docs/scoring.md, "The clock")."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.gateway.http.models import TournamentCreate
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import clock, service as tournaments
from shared import decode, fold
from shared.table.engine import TableState
from tests.fakes import MemoryKafka, director_gateway
from tests.helpers import DEALS

ENTRANTS = [{"players": [f"P{n}a", f"P{n}b"]} for n in range(1, 5)]


@pytest.fixture
def gw(tmp_path: Path) -> Gateway:
    return director_gateway(tmp_path, MemoryKafka(shards=8))


async def _timed(gw: Gateway, minutes: float | None = 7) -> None:
    movement = {"kind": "howell", "boards_per_round": 2, **(
        {"minutes_per_board": minutes} if minutes is not None else {})}
    await tournaments.create(gw, TournamentCreate.model_validate(
        {"tournament": "eve", "tables": 2, "deals": DEALS, "entrants": ENTRANTS,
         "movement": movement}))


async def _folded(gw: Gateway, table: str) -> TableState:
    return fold(decode(value) for _, value in await gw.adapters.reads.table(table) if value)


async def test_a_timed_round_ends_at_its_boards_times_the_minutes_on_every_table(
        gw: Gateway) -> None:
    await _timed(gw, minutes=7)
    await tournaments.start_round(gw, "eve", 1, None, None)
    ends = await gw.adapters.store.clock_of("eve")
    assert ends is not None
    for table in ("eve-1", "eve-2"):
        state = await _folded(gw, table)
        assert state.clock is not None and state.clock.ends_at == ends
    started = (await clock.round_records(gw, "eve"))[-1]
    assert ends - started["ts"] == 2 * 7 * 60_000


async def test_an_untimed_movement_sets_no_clock(gw: Gateway) -> None:
    await _timed(gw, minutes=None)
    await tournaments.start_round(gw, "eve", 1, None, None)
    assert await gw.adapters.store.clock_of("eve") is None
    with pytest.raises(Refused) as refused:
        await clock.extend(gw, "eve", 2)
    assert (refused.value.kind, refused.value.field) == (Kind.CONFLICT, "round")


async def test_a_due_clock_ends_the_round_everywhere_and_starts_the_next_once(
        gw: Gateway) -> None:
    await _timed(gw)
    await tournaments.start_round(gw, "eve", 1, None, None)
    await gw.adapters.store.set_clock("eve", 0)  # its time is up
    await clock.on_due(gw, "eve")
    await clock.on_due(gw, "eve")  # a second gateway, too late: nothing more
    records = await clock.round_records(gw, "eve")
    kinds = [(r["type"], r.get("round")) for r in records if r["type"] != "created"]
    assert [k for k in kinds if k[0] != "score_given"][-3:] == [
        ("round_started", 1), ("round_ended", 1), ("round_started", 2)]
    scored = [r for r in records if r["type"] == "score_given"]  # Law 12C2, by rule
    assert len(scored) == 4 and {r["rule"] for r in scored} == {"unfinished"}  # 2 boards × 2
    # the players move before round 1's unfinished boards are scored: they wait not for it
    assert kinds.index(("round_ended", 1)) < kinds.index(("round_started", 2)) < kinds.index(
        ("score_given", 1))
    for table in ("eve-1", "eve-2"):
        state = await _folded(gw, table)
        assert state.round == 2 and state.clock is not None and not state.clock.over
        assert state.board is not None and state.earlier  # round 1's first board left
    assert (await gw.adapters.store.clock_of("eve") or 0) > 0


async def test_a_swiss_is_scored_before_its_next_round_is_paired(gw: Gateway) -> None:
    """A Swiss pairs a round by the results so far: the round before's unfinished boards
    are scored (Law 12C2, by rule) before the next round's `round_started`."""
    teams = [{"players": [f"T{n}{s}" for s in "abcd"]} for n in range(1, 5)]
    await tournaments.create(gw, TournamentCreate.model_validate(
        {"tournament": "swi", "tables": 4, "deals": DEALS, "entrants": teams,
         "movement": {"kind": "swiss", "boards_per_round": 2, "rounds": 2,
                      "minutes_per_board": 7}}))
    await tournaments.start_round(gw, "swi", 1, None, None)
    await gw.adapters.store.set_clock("swi", 0)
    await clock.on_due(gw, "swi")
    kinds = [(r["type"], r.get("round")) for r in await clock.round_records(gw, "swi")]
    assert ("score_given", 1) in kinds and ("round_started", 2) in kinds
    assert kinds.index(("score_given", 1)) < kinds.index(("round_started", 2))


async def test_the_last_rounds_end_starts_nothing_and_stops_the_clock(gw: Gateway) -> None:
    await _timed(gw)
    for number in (1, 2, 3):
        if number == 1:
            await tournaments.start_round(gw, "eve", 1, None, None)
        else:
            await clock.end_round(gw, "eve")
    done = await clock.end_round(gw, "eve")
    assert done == {"round": 3, "ended": True, "next": None}
    assert await gw.adapters.store.clock_of("eve") is None


async def test_the_director_extends_holds_and_lets_go_the_clock(gw: Gateway) -> None:
    await _timed(gw)
    await tournaments.start_round(gw, "eve", 1, None, None)
    ends = await gw.adapters.store.clock_of("eve")
    assert ends is not None
    moved = await clock.extend(gw, "eve", 2)
    assert moved["ends_at"] == ends + 120_000 == await gw.adapters.store.clock_of("eve")
    held = await clock.hold(gw, "eve")
    assert held["held"] and await gw.adapters.store.clock_of("eve") is None
    state = await _folded(gw, "eve-1")
    assert state.clock is not None and state.clock.held
    again = await clock.extend(gw, "eve", 0)
    assert await gw.adapters.store.clock_of("eve") == again["ends_at"]
    assert not (await _folded(gw, "eve-1")).clock.held  # type: ignore[union-attr]
