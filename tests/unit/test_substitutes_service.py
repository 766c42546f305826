"""Substitutes as the gateway runs them (services/gateway/tournaments/substitutes.py) on the
in-memory Kafka and Redis: a seat whose player has no open page at his turn for the
Director's time gets a robot (`substitute_seated` at the table, the robot pool asked on
`tableserver.robots`), by one gateway only; once his page is open again and his turn is
over, the robot stands up (docs/operations.md, "Substitutes")."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from services.common.names import ROBOTS, table_topic
from services.gateway.http.models import TournamentCreate
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.seat_presence import pages_of
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import service as tournaments, substitutes
from shared import decode
from shared.table.substitutes import page_key
from tests.fakes import MemoryKafka, MemoryStore, director_gateway
from tests.helpers import DEALS
from tests.unit.test_clock_move import until

T, TABLE = "subu", "subu-1"


@pytest.fixture
def kafka() -> MemoryKafka:
    return MemoryKafka(shards=8)


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


def gateway(tmp_path: Path, kafka: MemoryKafka, store: MemoryStore, name: str) -> Gateway:
    return director_gateway(tmp_path / name, kafka, store)  # gateways sharing Kafka, Redis


async def _made(gw: Gateway) -> None:
    await tournaments.create(gw, TournamentCreate.model_validate(
        {"tournament": T, "tables": [TABLE], "deals": DEALS,
         "players": {TABLE: {"N": "Nia", "E": "Eli", "S": "Sam", "W": "Ann"}}}))


def _line(store: MemoryStore, acting: str, subs: list[str], since_ms: int) -> None:
    """The table's overview line as the processor writes it (the fakes have no processor)."""
    store.lines[TABLE] = {"board": 1, "acting": acting, "substitutes": subs,
                          "last_ts": int(time.time() * 1000) - since_ms}


def _kinds(kafka: MemoryKafka) -> list[str]:
    return [decode(value).TYPE.value for _, value in kafka.records(table_topic(TABLE))
            if value]


def _asked(kafka: MemoryKafka) -> list[list[str]]:
    return [json.loads(value or b"{}")["seats"] for _, value in kafka.records(ROBOTS)]


async def test_a_robot_sits_in_once_after_the_time_and_stands_up_when_he_is_back(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore) -> None:
    one, other = (gateway(tmp_path, kafka, store, n) for n in ("a", "b"))
    await _made(one)
    assert await substitutes.set_after(one, T, 60) == {"tournament": T, "after_s": 60}
    await store.mark_pages("gw-x", [(TABLE, s) for s in "NES"], int(time.time() * 1000))
    _line(store, "W", [], since_ms=59_000)  # not yet
    await substitutes.step_tournament(one, T, 60)
    assert "substitute_seated" not in _kinds(kafka)
    told = (await substitutes.at_tables(one, T))["tables"][TABLE]
    assert told["waiting"] == "waiting for West, not connected"
    _line(store, "W", [], since_ms=61_000)
    await substitutes.step_tournament(one, T, 60)
    await substitutes.step_tournament(other, T, 60)  # the same step: taken by one alone
    assert _kinds(kafka).count("substitute_seated") == 1 and _asked(kafka) == [["W"]]

    _line(store, "W", ["W"], since_ms=1000)  # seated: the robot's turn
    await store.mark_pages("gw-x", [(TABLE, "W")], int(time.time() * 1000))  # he is back
    await substitutes.step_tournament(one, T, 60)
    assert "substitute_left" not in _kinds(kafka)  # the robot finishes the turn it has
    _line(store, "N", ["W"], since_ms=10_000)
    await substitutes.step_tournament(one, T, 60)
    assert _kinds(kafka).count("substitute_left") == 1 and _asked(kafka)[-1] == []
    store.pages.clear()  # he leaves again before the processor folded the stand-up: the
    await substitutes.step_tournament(other, T, 60)  # line still says W, no robot asked
    assert _asked(kafka)[-1] == [] and len(_asked(kafka)) == 2


async def test_a_substitute_recorded_without_its_robot_gets_it_once_the_line_settles(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore) -> None:
    """A fault between `substitute_seated` and the pool's request: the next look asks."""
    gw = gateway(tmp_path, kafka, store, "a")
    await _made(gw)
    _line(store, "W", ["W"], since_ms=1000)  # just seated: the request may be on its way
    await substitutes.step_tournament(gw, T, 60)
    assert _asked(kafka) == []
    _line(store, "W", ["W"], since_ms=6000)
    await substitutes.step_tournament(gw, T, 60)
    assert _asked(kafka) == [["W"]]


async def test_the_director_ends_a_substitution_and_is_refused_where_none_sits(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore) -> None:
    gw = gateway(tmp_path, kafka, store, "a")
    await _made(gw)
    _line(store, "N", [], since_ms=0)
    with pytest.raises(Refused) as refused:
        await substitutes.end(gw, T, TABLE, "W")
    assert (refused.value.kind, refused.value.field) == (Kind.CONFLICT, "seat")
    with pytest.raises(Refused) as missing:
        await substitutes.end(gw, T, "other", "W")
    assert missing.value.kind is Kind.NOT_FOUND
    _line(store, "N", ["W"], since_ms=0)
    assert (await substitutes.end(gw, T, TABLE, "W"))["substitute"] is False
    assert _kinds(kafka)[-1] == "substitute_left"


async def test_a_seat_the_director_gave_our_robots_gets_no_substitute(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore) -> None:
    gw = gateway(tmp_path, kafka, store, "a")
    await _made(gw)
    gw.adapters.alerts.robots[TABLE] = ["W"]
    _line(store, "W", [], since_ms=600_000)
    await substitutes.step_tournament(gw, T, 60)
    assert "substitute_seated" not in _kinds(kafka)


async def test_no_robot_sits_in_for_a_player_whose_page_this_gateway_holds_though_marked_late(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore) -> None:
    """A gateway whose loop runs late marks its pages late (their marks go stale in Redis):
    a player whose page it holds open is not taken for gone by its own looks."""
    gw = gateway(tmp_path, kafka, store, "a")
    await _made(gw)
    stale = int(time.time() * 1000) - 120_000
    await store.mark_pages("gw-x", [(TABLE, s) for s in "NESW"], stale)
    await pages_of(gw).opened(TABLE, "W")  # his socket is open here
    _line(store, "W", [], since_ms=61_000)
    await substitutes.step_tournament(gw, T, 60)
    assert "substitute_seated" not in _kinds(kafka)
    told = (await substitutes.at_tables(gw, T))["tables"][TABLE]
    assert told["waiting"] is None and told["connected"]["W"] is True
    await pages_of(gw).closed(TABLE, "W")  # closed: his mark gone
    await store.mark_pages("gw-x", [(TABLE, "W")], stale)  # another gateway's stale one
    await substitutes.step_tournament(gw, T, 60)
    assert _kinds(kafka).count("substitute_seated") == 1


async def test_the_round_befores_page_at_the_seat_does_not_put_off_the_new_players_robot(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore) -> None:
    """Round 2 at the table, West's new player never came: the page of round 1's West, still
    open while he moves on (marked fresh, and held by this gateway), counts for round 1 only,
    and the robot sits in the Director's time after the turn began."""
    gw = gateway(tmp_path, kafka, store, "a")
    await _made(gw)
    round_one = page_key("W", 1)  # his page's name, as the seat's feed names it
    await store.mark_pages("gw-x", [(TABLE, round_one)], int(time.time() * 1000))
    await pages_of(gw).opened(TABLE, round_one)  # his socket is open here
    _line(store, "W", [], since_ms=61_000)
    store.lines[TABLE]["round"] = 2
    await substitutes.step_tournament(gw, T, 60)
    assert _kinds(kafka).count("substitute_seated") == 1
    told = (await substitutes.at_tables(gw, T))["tables"][TABLE]
    assert told["connected"]["W"] is False


async def test_a_look_says_when_the_next_seat_falls_due(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore) -> None:
    """The next look is timed by the seat due soonest (the wait's start plus the Director's
    time), not left to the next tick."""
    gw = gateway(tmp_path, kafka, store, "a")
    await _made(gw)
    _line(store, "W", [], since_ms=59_000)
    last_ts = store.lines[TABLE]["last_ts"]
    assert await substitutes.step_tournament(gw, T, 60) == last_ts + 60_000
    assert substitutes._pause(last_ts + 60_000, last_ts + 59_700) == pytest.approx(0.3)
    assert substitutes._pause(last_ts + 60_000, last_ts) == substitutes.TICK_S  # far off
    _line(store, "W", ["W"], since_ms=59_000)  # seated: nothing falls due
    assert await substitutes.step_tournament(gw, T, 60) is None


async def test_a_tables_slow_step_holds_no_other_tables_seat_falling_due(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """At a round's start many seats fall due at once: one table's append held (Kafka slow
    to answer) does not hold another table's substitute, due a moment later."""
    gw = gateway(tmp_path, kafka, store, "a")
    other = "subu-2"
    await tournaments.create(gw, TournamentCreate.model_validate(
        {"tournament": T, "tables": [TABLE, other], "deals": DEALS,
         "players": {t: {"N": "Nia", "E": "Eli", "S": "Sam", "W": "Ann"}
                     for t in (TABLE, other)}}))
    await substitutes.set_after(gw, T, 60)
    held, seated = asyncio.Event(), []

    async def sit_in(_: Gateway, table: str, seat: str) -> None:
        seated.append((table, seat))
        if table == TABLE:
            await held.wait()  # its append not answered

    monkeypatch.setattr(substitutes, "sit_in", sit_in)
    now = int(time.time() * 1000)
    store.lines[TABLE] = {"board": 1, "acting": "W", "substitutes": [], "last_ts": now - 61_000}
    store.lines[other] = {"board": 1, "acting": "E", "substitutes": [],
                          "last_ts": now - 59_800}  # due in 0.2 s
    running = asyncio.ensure_future(substitutes.run_substitutes(gw))
    try:
        await until(lambda: (other, "E") in seated)
        assert seated == [(TABLE, "W"), (other, "E")] and not held.is_set()
    finally:
        running.cancel()


async def test_a_tables_slow_stand_up_holds_not_its_next_turns_substitute(
        tmp_path: Path, kafka: MemoryKafka, store: MemoryStore,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's start: the robot sitting in for round 1's East stands up (round 2's East is
    here), its appends held (Kafka slow to answer); North, round 2's first to act, never
    came: his substitute sits in at his time all the same, not once the stand-up is done."""
    gw = gateway(tmp_path, kafka, store, "a")
    await _made(gw)
    await substitutes.set_after(gw, T, 60)
    held, steps = asyncio.Event(), []

    async def stand_up(_: Gateway, table: str, seat: str, turn: str) -> None:
        steps.append(("stand", seat))
        await held.wait()  # its appends not answered

    async def sit_in(_: Gateway, table: str, seat: str) -> None:
        steps.append(("sit", seat))

    monkeypatch.setattr(substitutes, "stand_up", stand_up)
    monkeypatch.setattr(substitutes, "sit_in", sit_in)
    await store.mark_pages("gw-x", [(TABLE, s) for s in "ESW"], int(time.time() * 1000))
    _line(store, "W", ["E"], since_ms=1000)  # East's player back: the robot stands up
    running = asyncio.ensure_future(substitutes.run_substitutes(gw))
    try:
        await until(lambda: ("stand", "E") in steps)
        _line(store, "N", ["E"], since_ms=61_000)  # a new turn: North's, his page never open
        await until(lambda: ("sit", "N") in steps)
        assert not held.is_set()
    finally:
        running.cancel()
