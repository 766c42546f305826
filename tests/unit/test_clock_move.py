"""The move after a round's clock ends (services/gateway/tournaments/clock.py, play_watch.py,
round_timing.py; docs/performance.md, "The evening"): the players' watcher holds its reads
while the gateway ends the round and starts the next, so that the players' pages see the move
and never every table's round over (a page between rounds computes the whole field's
results, at the very moment of the move); the unfinished boards are scored (Law 12C2) only
once the players' sockets were woken with the new round; one tournament's end waits not for
another's; each step of the end is timed in the log.

On the in-memory Kafka and Redis; `processed` stands in for the processor, folding each event
into its table's overview line as it is appended."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from services.common.names import tournament_topic
from services.gateway.http.models import TournamentCreate
from services.gateway.refusals import Refused
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Bound, Grant, PlayerScope, Role
from services.gateway.tournaments import (
    clock,
    log as tournament_log,
    play_watch,
    players,
    service as tournaments,
)
from shared.tournament.player_seats import Phase
from shared.vocabulary import TableStatus
from tests.fakes import MemoryKafka, director_gateway
from tests.helpers import DEALS

pytestmark = pytest.mark.asyncio
ENTRANTS = [{"players": [f"P{n}a", f"P{n}b"]} for n in range(1, 5)]
PLAYER = PlayerScope("eve", 1, 1, 1)


@pytest.fixture
def gw(tmp_path: Path) -> Gateway:
    return director_gateway(tmp_path, MemoryKafka(shards=8))


def processed(gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each table's round start and end folded into its overview line as it is appended, a
    moment later (the processor's fold)."""
    append_all = gw.append_all

    async def folded(table: str, events: list[dict[str, Any]]) -> list[int]:
        offsets = await append_all(table, events)
        line = gw.adapters.store.lines.setdefault(table, {})  # type: ignore[attr-defined]
        for event in events:
            if event["type"] == "round_started":
                line.update(round=event["round"], status=TableStatus.AUCTION)
            elif event["type"] == "round_ended":
                line.update(status=TableStatus.DONE)
        await asyncio.sleep(0.002)
        return offsets

    monkeypatch.setattr(gw, "append_all", folded)


async def timed_round_one(gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    await tournaments.create(gw, TournamentCreate.model_validate(
        {"tournament": "eve", "tables": 2, "deals": DEALS, "entrants": ENTRANTS,
         "movement": {"kind": "howell", "boards_per_round": 2, "minutes_per_board": 7}}))
    processed(gw, monkeypatch)
    await tournaments.start_round(gw, "eve", 1, None, None)
    await gw.adapters.store.set_clock("eve", 0)  # its time is up
    monkeypatch.setattr(players, "FRESH_S", 0.001)  # the watcher reads all the time
    monkeypatch.setattr(players._moments, "every_s", 0.001)  # and reads anew each time


async def until(condition: Callable[[], bool]) -> None:
    async def polled() -> None:
        while not condition():
            await asyncio.sleep(0.001)
    await asyncio.wait_for(polled(), 10)


async def phases_seen(watch: play_watch.Watch, seen: list[tuple[Phase, int]]) -> None:
    """Where the player is at each wake of the sockets, as his page would show it."""
    while True:
        await watch.next_change()
        now = watch.stamp[-1] if watch.stamp else None
        if isinstance(now, players.Moment):
            found = players.where_of(now, PLAYER)
            seen.append((found.phase, found.round))


async def test_the_players_see_the_move_never_every_table_over(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """The round's end on the clock (Law 12C2's end of the round's play) and the next round's
    start reach the players' sockets as one move: seated in round 1, then seated in round 2,
    never between rounds with every table of round 1 over."""
    await timed_round_one(gw, monkeypatch)
    seen: list[tuple[Phase, int]] = []
    async with play_watch.listening(gw, PLAYER) as watch:
        follower = asyncio.ensure_future(phases_seen(watch, seen))
        await until(lambda: (Phase.SEATED, 1) in seen)
        await clock.on_due(gw, "eve")
        await until(lambda: (Phase.SEATED, 2) in seen)
        follower.cancel()
    assert (Phase.BETWEEN, 2) not in seen and (Phase.BETWEEN, 1) not in seen, seen
    assert seen[-1] == (Phase.SEATED, 2)


async def test_the_unfinished_boards_are_scored_once_the_players_were_woken_with_the_move(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """Law 12C2's scores of the round's unfinished boards wait for the players' move: when
    they are scored, the players' sockets were woken with round 2 started at every table."""
    await timed_round_one(gw, monkeypatch)
    shown_then: list[bool] = []
    score = clock.score_unfinished

    async def scoring(*args: Any) -> dict[str, Any]:
        shown_then.append(play_watch._shows(watch.stamp, 2))
        return await score(*args)

    monkeypatch.setattr(clock, "score_unfinished", scoring)
    async with play_watch.listening(gw, PLAYER) as watch:
        await until(lambda: watch.stamp is not None)
        await clock.on_due(gw, "eve")
    assert shown_then == [True]
    scored = [r for r in await clock.round_records(gw, "eve") if r["type"] == "score_given"]
    assert len(scored) == 4  # 2 boards × 2 tables, by rule


async def test_the_rounds_unfinished_boards_scores_are_appended_in_one_round_trip(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """Law 12C2's scores of a round's unfinished boards go to the tournament's topic at once:
    appended one at a time, the evening's 250 tables took 10–20 s after the move."""
    await timed_round_one(gw, monkeypatch)
    batches: list[int] = []
    append_all = tournament_log.append_all

    async def counted(producer: Any, topic: str, values: list[bytes], **given: Any
                      ) -> list[int]:
        scores = [v for v in values if json.loads(v)["type"] == "score_given"]
        if topic == tournament_topic("eve") and scores:
            batches.append(len(scores))
        return await append_all(producer, topic, values, **given)

    monkeypatch.setattr(tournament_log, "append_all", counted)
    await clock.on_due(gw, "eve")
    assert batches == [4]  # 2 boards × 2 tables, by rule, in one append


async def test_one_tournaments_end_waits_not_for_anothers(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two clocks due at once: the second tournament's round ends while the first's end is
    still under way (its scores, say)."""
    ended: list[str] = []
    first_may_end = asyncio.Event()

    async def end_round(_: Gateway, tournament: str) -> dict[str, Any]:
        if tournament == "slow":
            await first_may_end.wait()
        ended.append(tournament)
        return {}

    monkeypatch.setattr(clock, "end_round", end_round)
    await gw.adapters.store.set_clock("slow", 0)
    await gw.adapters.store.set_clock("quick", 1)
    running = asyncio.ensure_future(clock.run_clock(gw))
    try:
        await until(lambda: "quick" in ended)
        assert ended == ["quick"]
        first_may_end.set()
        await until(lambda: "slow" in ended)
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)


async def test_a_round_ends_steps_are_timed_in_one_log_line(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
        ) -> None:
    await timed_round_one(gw, monkeypatch)
    with caplog.at_level(logging.INFO, logger="tableserver.clock"):
        await clock.on_due(gw, "eve")
    lines = [r.getMessage() for r in caplog.records if "the round's end of eve" in
             r.getMessage()]
    assert len(lines) == 1
    for step in ("round_ended and round_started to the tables",
                 "the players' views sent", "unfinished boards scored"):
        assert step in lines[0]



async def test_the_players_move_with_the_record_not_a_fold_later(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """The processor folds each table's `round_started` a while after the clock's end (here
    not before the test ends): the record (round 1 ended, Law 8B1, and round 2 started, each
    acknowledged at every table first) moves the players, their sockets woken seated in round
    2 while no table's line shows it yet; a seat of round 2 may watch its table (the board
    before withheld from it) but not act there until the fold."""
    await timed_round_one(gw, monkeypatch)
    append_all = Gateway.append_all.__get__(gw)
    monkeypatch.setattr(gw, "append_all", append_all)  # appended, never folded
    lines = gw.adapters.store.lines  # type: ignore[attr-defined]
    async with play_watch.listening(gw, PLAYER) as watch:
        await until(lambda: watch.stamp is not None)
        await clock.end_round(gw, "eve")
        assert all(line["round"] == 1 for line in lines.values())  # no fold of round 2
        assert play_watch._shows(watch.stamp, 2)
        now = watch.stamp[-1] if watch.stamp else None
        assert isinstance(now, players.Moment)
        place = players.where_of(now, PLAYER)
        assert place.phase is Phase.SEATED and place.round == 2 and place.place is not None
    table = now.made.tables[place.place.table - 1]
    seat = Grant(table, place.place.seat, Role.SEAT, bound=Bound(
        PLAYER, 2, frozenset(place.place.boards)))
    await players.admit_bound(gw, seat, table, watching=True)
    with pytest.raises(Refused, match="not in play there now"):
        await players.admit_bound(gw, seat, table)  # its call or card waits for the fold


async def test_a_moment_read_again_computes_the_record_anew_only_when_it_grew(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """The watcher reads the moment every tick: its rounds, seatings and entrants are taken
    from the last read while the tournament's record has no new event, the tables' lines
    read anew each time; the clock's end (Law 12C2: round 1 over, round 2 started) is
    recorded and seen at the next read."""
    await timed_round_one(gw, monkeypatch)
    first = await players._read_moment(gw, "eve")
    again = await players._read_moment(gw, "eve")
    assert again.rounds is first.rounds and again.entrants is first.entrants
    assert again.tables == first.tables and again.tables is not first.tables
    await clock.end_round(gw, "eve")
    moved = await players._read_moment(gw, "eve")
    assert moved.rounds is not first.rounds and (first.started, moved.started) == (1, 2)
