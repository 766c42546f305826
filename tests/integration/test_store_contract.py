"""The state store's contract (services/common/store.py), held against Redis and against the
in-memory store that fast tests use instead: both must behave the same."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from services.common.cluster_lines import ClusterLines
from services.common.names import robot_key
from services.common.redis_connect import AnyRedis, Lines
from services.common.redis_lines import RedisLines
from services.common.store import RedisStore, StateStore, StateWrite
from tests.fakes import MemoryStore
from tests.stack import Stack


@pytest.fixture(params=["memory", "redis", "redis-lines", "cluster", "cluster-lines"])
async def store(request: pytest.FixtureRequest, stack: Stack) -> AsyncIterator[StateStore]:
    """The fake; Redis through redis-py alone; Redis with the states' writes and reads on the
    pipelined connection (`RedisLines`), as the services run it; a Redis Cluster of three
    primaries the same two ways (`RedisCluster`, `ClusterLines`)."""
    if request.param == "memory":
        yield MemoryStore()
        return
    lines: Lines | None
    if request.param.startswith("cluster"):
        url = request.getfixturevalue("redis_cluster_nodes").url
        redis: AnyRedis = RedisCluster.from_url(url)
        lines = ClusterLines(url) if request.param == "cluster-lines" else None
    else:
        redis = Redis(port=stack.redis_port)
        lines = RedisLines(f"redis://127.0.0.1:{stack.redis_port}/0") \
            if request.param == "redis-lines" else None
    yield RedisStore(redis, lines)
    if lines is not None:
        await lines.aclose()
    await redis.aclose()


def _name() -> str:
    return f"contract-{uuid.uuid4().hex[:12]}"  # the Redis store is shared with other tests


async def test_a_state_is_read_back_at_its_version(store: StateStore) -> None:
    table = _name()
    assert await store.read_state(table) is None
    await store.write_batch([StateWrite(table, 3, {"board": 1, "calls": []})])
    assert await store.read_state(table) == (3, {"board": 1, "calls": []})


async def test_an_older_version_never_replaces_a_newer_one(store: StateStore) -> None:
    """Versions are offsets: a writer that lags (an old owner finishing after a takeover)
    cannot move a table's state backwards, and what it did not write is not in the feed."""
    table = _name()
    await store.write_batch([StateWrite(table, 5, {"v": 5})])
    await store.write_batch([StateWrite(table, 4, {"v": 4}), StateWrite(table, 5, {"v": "again"})])
    await store.write_batch([StateWrite(table, 7, {"v": 7})])
    assert await store.read_state(table) == (7, {"v": 7})
    assert await store.feed_versions(table) == [5, 7]


async def test_a_tournaments_overview_is_its_tables_lines_as_last_written(
        store: StateStore) -> None:
    """A tournament's table writes its overview line with its state, and only then: an older
    state does not bring back an older line; a table without a line (none yet, or outside a
    tournament) is not in the overview."""
    table, loose, waiting = _name(), _name(), _name()
    other = f"{table}-b"
    tables = [table, other, loose, waiting]
    assert await store.overview(tables) == {}
    await store.write_batch([StateWrite(table, 3, {"v": 3}, {"board": 1}),
                             StateWrite(other, 1, {"v": 1}, {"board": 7}),
                             StateWrite(loose, 1, {"v": 1})])
    await store.write_batch([StateWrite(table, 2, {"v": 2}, {"board": 0})])
    assert await store.overview(tables) == {table: {"board": 1}, other: {"board": 7}}
    await store.write_batch([StateWrite(table, 4, {"v": 4}, {"board": 2})])
    assert await store.overview(tables) == {table: {"board": 2}, other: {"board": 7}}
    assert await store.read_state(table) == (4, {"v": 4})


async def _robot_at(store: StateStore, table: str, seat: str, present: dict[str, Any]
                    ) -> None:
    """A robot's presence at a seat, as its host writes it (`services.robots.presence`)."""
    if isinstance(store, MemoryStore):
        store.robots.setdefault(table, {})[seat] = present
    else:
        assert isinstance(store, RedisStore)
        await store.redis.set(robot_key(table, seat), json.dumps(present))


async def test_the_robots_present_at_tables_are_read_together(store: StateStore) -> None:
    """A tournament's overview asks every seat of its tables at once (8,000 keys for 2,000
    tables): each table's seats a robot's host has written; a table with none is left out."""
    tables = [_name() for _ in range(3)]
    present: dict[str, Any] = {"label": "GIB", "connected": True, "since": 1}
    await _robot_at(store, tables[0], "N", present)
    await _robot_at(store, tables[2], "W", {**present, "connected": False})
    assert await store.robots_present(tables) == {
        tables[0]: {"N": present}, tables[2]: {"W": {**present, "connected": False}}}
    assert await store.robots_present([]) == {}


async def test_a_tables_record_round_trips(store: StateStore) -> None:
    table = _name()
    assert await store.table_record(table) is None
    meta = {"table": table, "ruleset": "rubber", "created": 1}
    other = {"table": f"{table}-2", "ruleset": "duplicate", "created": 2}
    await store.remember_tables({table: meta, other["table"]: other})
    assert await store.table_record(table) == meta
    assert await store.table_record(f"{table}-2") == other
    listed = await store.table_records()
    assert listed[table] == meta and listed[f"{table}-2"] == other
    assert await store.records_of([f"{table}-2", f"{table}-none", table]) == {
        f"{table}-2": other, table: meta}
    assert await store.records_of([]) == {}


async def test_a_closed_tournaments_record_round_trips(store: StateStore) -> None:
    """Written at the tournament's close, then again with its archive: the last one stands."""
    tournament = _name()
    assert await store.tournament_record(tournament) is None
    closed = {"tournament": tournament, "tables": [f"{tournament}-1"], "closed": 5}
    await store.remember_tournament(tournament, closed)
    assert await store.tournament_record(tournament) == closed
    marked = {**closed, "archive": {"offsets": [3], "count": 2, "end": 2, "sha256": "ab"}}
    await store.remember_tournament(tournament, marked)
    assert await store.tournament_record(tournament) == marked
    assert (await store.tournament_records())[tournament] == marked


async def test_a_tournaments_hand_records_are_kept_board_by_board(store: StateStore) -> None:
    """Each board's record as it is solved, beside those kept before; read back by board."""
    tournament = _name()
    assert await store.hand_records(tournament) == {}
    first = {"board": 1, "par": {"score_ns": 420, "contracts": []}}
    await store.remember_hand_records(tournament, {1: first})
    await store.remember_hand_records(tournament, {2: {"board": 2}})
    assert await store.hand_records(tournament) == {1: first, 2: {"board": 2}}
    await store.remember_hand_records(tournament, {})
    assert await store.hand_records(tournament) == {1: first, 2: {"board": 2}}


async def test_a_shard_is_alive_once_marked(store: StateStore) -> None:
    shard = 10_000 + uuid.uuid4().int % 10_000  # not a shard any worker of the stack runs
    assert await store.is_alive(shard) is False
    await store.mark_alive(shard)
    assert await store.is_alive(shard) is True


async def test_a_reachable_store_answers_a_ping(store: StateStore) -> None:
    """What the processor asks while Redis is away: is it back? (`StoreSync`)"""
    await store.ping()


async def test_a_rounds_clock_is_due_once_its_end_has_come_and_taken_by_one(
        store: StateStore) -> None:
    """The tournament's clock (docs/scoring.md, "The clock"): set, moved, due once its end has
    come, soonest first; of two gateways dropping the same due clock, one is told it did."""
    early, late = _name(), _name()
    await store.set_clock(late, 2_000)
    await store.set_clock(early, 1_000)
    assert await store.clock_of(early) == 1_000
    due = [t for t in await store.clocks_due(1_500) if t in (early, late)]
    assert due == [early]
    await store.set_clock(early, 3_000)  # the Director gave more time
    assert [t for t in await store.clocks_due(2_500) if t in (early, late)] == [late]
    assert not await store.take_clock(late, 1_999)  # not due yet: left running
    assert [await store.take_clock(late, 2_000), await store.take_clock(late, 2_000)] == [
        True, False]
    assert await store.clock_of(late) is None and not await store.drop_clock(late)
    await store.drop_clock(early)


async def test_a_seats_open_pages_are_each_gateways_until_it_unmarks_them(
        store: StateStore) -> None:
    """The substitutes' presence (docs/operations.md, "Substitutes"): each gateway's mark of a
    seat's open page, read back per seat; one gateway's page closing leaves the other's."""
    table, other = _name(), _name()
    await store.mark_pages("gw-a", [(table, "W"), (table, "N")], 1000)
    await store.mark_pages("gw-b", [(table, "W")], 2000)
    found = await store.pages_open([table, other])
    assert {seat: sorted(times) for seat, times in found[table].items()} == {
        "W": [1000, 2000], "N": [1000]}
    assert other not in found
    await store.unmark_page("gw-b", table, "W")
    await store.unmark_page("gw-a", table, "N")
    assert await store.pages_open([table]) == {table: {"W": [1000]}}


async def test_a_step_is_taken_once_and_substitutes_are_set_per_tournament(
        store: StateStore) -> None:
    step, tournament = _name(), _name()
    assert await store.take_once(step, 60_000)
    assert not await store.take_once(step, 60_000)
    await store.set_substitutes(tournament, 60)
    assert (await store.substitutes_after())[tournament] == 60
    await store.set_substitutes(tournament, None)
    assert tournament not in await store.substitutes_after()
