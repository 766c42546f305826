"""Closing tables and tournaments in process (services/gateway/tables/closing.py,
tournament_close.py), on the fakes of the gateway's ports (tests/fakes.py, held to the real
adapters' contracts): the steps' outcomes, a board in play refused, a close cut short by Kafka
sent again, and closes cut short finished as a gateway starts. The same on the real stack:
tests/integration/test_lifecycle.py and test_tournament_archive.py."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from services.common import registry
from services.common.errors import Unavailable
from services.common.kafka.reader import Record
from services.common.names import ALERTS, REGISTRY, ROBOTS, table_topic, tournament_topic
from services.common.store import StateWrite
from services.gateway.http.models import TournamentCreate
from services.gateway.ports import TopicShape
from services.gateway.refusals import Kind, Refused
from services.gateway.tables import closing, table_logs
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import (
    close as tournament_close,
    log as tournament_log,
    service as tournaments,
)
from tests.fakes import MemoryKafka, MemoryStore, director_gateway
from tests.helpers import DEALS
from tests.script import log

PASSED_OUT = "N P, E P, S P, W P"


class Killed(BaseException):
    """The gateway's process dies here: nothing after this step runs."""


@pytest.fixture
def kafka() -> MemoryKafka:
    return MemoryKafka(shards=8)


@pytest.fixture
def gw(tmp_path: Path, kafka: MemoryKafka) -> Gateway:
    return director_gateway(tmp_path, kafka)


async def _table(gw: Gateway, table: str, script: str | None) -> list[Record]:
    """A table made, `script`'s board played at it (none: no board) and folded by the
    processor (its state's version, in the store): its records."""
    await gw.adapters.admin.create_table(table)
    record = registry.new_record(table, "duplicate", created=1)
    await gw.adapters.store.remember_tables({table: record})
    await gw.adapters.registry.register({table: record})
    for event in log(script) if script is not None else []:
        await gw.append(table, event)
    records = await gw.adapters.reads.table(table)
    if records:
        await gw.adapters.store.write_batch([StateWrite(table, records[-1][0], {"v": 1})])
    return records


async def _topics(gw: Gateway) -> set[str]:
    return await gw.adapters.admin.existing()


async def test_a_closed_table_is_archived_marked_and_its_topic_deleted(gw: Gateway) -> None:
    before = await _table(gw, "t", PASSED_OUT)
    done = await closing.close(gw, {"t": await gw.fresh_meta("t")}, force=False)
    assert len(before) == 5  # the board started, four passes
    assert (done["closed"], done["events"]) == (["t"], 5)
    assert list(done["steps_s"]) == ["checked", "closed", "fenced", "folded", "archived",
                                     "marked", "deleted"]
    assert table_topic("t") not in await _topics(gw)
    meta = await gw.fresh_meta("t")
    assert meta["archive"]["count"] == 5 and "closed" in meta
    assert await gw.adapters.reads.registered("t") == meta  # the registry's copy too
    assert await table_logs.table_log(gw, "t") == before  # read from the archive, the same
    with pytest.raises(Refused) as refused:
        await gw.open_meta("t")
    assert refused.value.kind == Kind.CONFLICT


async def test_a_board_in_play_is_refused_and_nothing_is_closed(gw: Gateway,
                                                                kafka: MemoryKafka) -> None:
    await _table(gw, "t", "N 1S, E P")
    with pytest.raises(Refused) as refused:
        await closing.close(gw, {"t": await gw.fresh_meta("t")}, force=False)
    assert (refused.value.kind, refused.value.field) == (Kind.CONFLICT, "force")
    assert "a board is in play at t" in refused.value.reason
    assert "closed" not in await gw.fresh_meta("t")
    assert await gw.adapters.admin.describe([table_topic("t")]) == {
        table_topic("t"): TopicShape(1, fenced=False)}
    done = await closing.close(gw, {"t": await gw.fresh_meta("t")}, force=True)
    assert done["events"] == 3 and table_topic("t") not in await _topics(gw)


async def test_a_close_cut_short_by_kafka_is_a_503_and_finishes_when_sent_again(
        gw: Gateway, kafka: MemoryKafka) -> None:
    """Kafka away after the table's record says `closed` in Redis: a 503 with Retry-After;
    the director sends it again and it goes on from there (the board in play was checked
    before)."""
    before = await _table(gw, "t", PASSED_OUT)
    kafka.down = True
    with pytest.raises(Unavailable) as refused:
        await closing.close(gw, {"t": await gw.fresh_meta("t")}, force=False)
    assert refused.value.retry_after == 1 and "record the tables' close" in refused.value.reason
    assert "closed" in await gw.fresh_meta("t")
    kafka.down = False
    assert table_topic("t") in await _topics(gw)
    done = await closing.close(gw, {"t": await gw.fresh_meta("t")}, force=False)
    assert done["events"] == len(before)
    assert await table_logs.table_log(gw, "t") == before


async def test_a_closed_tables_robots_stand_up(gw: Gateway, kafka: MemoryKafka) -> None:
    await _table(gw, "t", None)
    gw.adapters.alerts.robots["t"] = ["E", "W"]
    await closing.close(gw, {"t": await gw.fresh_meta("t")}, force=False)
    assert gw.adapters.alerts.robots["t"] == []
    assert kafka.records(ROBOTS)[-1][0] == b"t"


async def _tournament(gw: Gateway, name: str = "spring") -> None:
    made, created = await tournaments.create(gw, TournamentCreate(
        tournament=name, tables=2, deals=DEALS, players={f"{name}-1": {"N": "Ann"}}))
    assert created and made.tables == (f"{name}-1", f"{name}-2")


async def test_a_closed_tournament_reads_as_before_and_takes_no_more_rounds(
        gw: Gateway) -> None:
    await _tournament(gw)
    before = await tournament_log.tournament_records(gw, "spring")
    export = await tournaments.export(gw, "spring", "json")
    records = await table_logs.records_of(gw, ["spring-1", "spring-2"])
    done = await tournament_close.close_tournament(gw, "spring", records, force=False)
    assert (done["closed"], done["tournament"], done["tournament_events"]) == (
        ["spring-1", "spring-2"], "spring", 1)
    assert not {tournament_topic("spring"), table_topic("spring-1")} & await _topics(gw)
    assert "archive" in (await gw.adapters.store.tournament_record("spring") or {})
    assert await tournament_log.tournament_records(gw, "spring") == before
    assert await tournaments.export(gw, "spring", "json") == export
    with pytest.raises(Refused) as refused:
        await tournaments.start_round(gw, "spring", 1, None, None)
    assert (refused.value.kind, refused.value.field) == (Kind.CONFLICT, "round")


@pytest.mark.parametrize("step", ["closed", "fenced", "archived", "marked"])
async def test_a_tables_close_cut_short_is_finished_as_a_gateway_starts(
        gw: Gateway, step: str) -> None:
    before = await _table(gw, "t", PASSED_OUT)
    archiver = closing.archiver_of(gw)

    async def die(name: str, _: list[str]) -> None:
        if name == step:
            raise Killed(name)
    archiver.on_step = die
    with pytest.raises(Killed):
        await closing.close_tables(archiver, {"t": await gw.fresh_meta("t")})
    await tournament_close.resume(gw)
    assert table_topic("t") not in await _topics(gw)
    gw.known_tables.clear()
    assert await table_logs.table_log(gw, "t") == before


@pytest.mark.parametrize("step", ["tournament closed", "tournament fenced",
                                  "tournament archived"])
async def test_a_tournaments_close_cut_short_is_finished_as_a_gateway_starts(
        gw: Gateway, step: str) -> None:
    await _tournament(gw, "fall")
    before = await tournament_log.tournament_records(gw, "fall")
    archiver = closing.archiver_of(gw)
    records = await table_logs.records_of(gw, ["fall-1", "fall-2"])
    await closing.close_tables(archiver, records, True, tournament_close.TOURNAMENT_CLOSING)

    async def die(name: str, _: list[str]) -> None:
        if name == step:
            raise Killed(name)
    archiver.on_step = die
    with pytest.raises(Killed):
        await tournament_close.close_topic(archiver, "fall", ["fall-1", "fall-2"])
    assert tournament_topic("fall") in await _topics(gw)
    await tournament_close.resume(gw)
    assert tournament_topic("fall") not in await _topics(gw)
    assert await tournament_log.tournament_records(gw, "fall") == before


async def test_resuming_with_nothing_cut_short_changes_nothing(gw: Gateway,
                                                              kafka: MemoryKafka) -> None:
    await _table(gw, "t", PASSED_OUT)
    registered = sum(len(kafka.records(REGISTRY, p)) for p in range(kafka.shards))
    await tournament_close.resume(gw)
    assert table_topic("t") in await _topics(gw)
    assert sum(len(kafka.records(REGISTRY, p)) for p in range(kafka.shards)) == registered


async def test_a_store_that_lost_a_closed_tables_record_still_reads_its_archive(
        tmp_path: Path, kafka: MemoryKafka) -> None:
    """Redis lost its data after the close: the registry topic's copy says where the archive
    is (the gateway writes it to Redis again)."""
    store = MemoryStore()
    gw = director_gateway(tmp_path, kafka, store)
    before = await _table(gw, "t", PASSED_OUT)
    await closing.close(gw, {"t": await gw.fresh_meta("t")}, force=False)
    store.lose()
    gw.known_tables.clear()
    assert await table_logs.table_log(gw, "t") == before
    assert "archive" in (await store.table_record("t") or {})


async def test_a_close_that_can_never_finish_is_set_aside_the_director_told_and_others_go_on(
        gw: Gateway, kafka: MemoryKafka) -> None:
    """A table closed but never archived, whose topic is gone, cannot be archived: the
    gateway's start sets it aside (its record says `close_lost`) with one alert to the Director,
    and finishes the other closes cut short rather than retrying that one for ever."""
    await _table(gw, "gone", PASSED_OUT)
    await _table(gw, "cut", PASSED_OUT)
    archiver = closing.archiver_of(gw)

    async def die(name: str, _: list[str]) -> None:
        if name == "fenced":
            raise Killed(name)
    archiver.on_step = die
    with pytest.raises(Killed):
        await closing.close_tables(archiver, await table_logs.records_of(gw, ["gone", "cut"]))
    await gw.adapters.admin.delete([table_topic("gone")])  # lost with the broker's data
    await asyncio.wait_for(tournament_close.resume(gw), 5)
    assert table_topic("cut") not in await _topics(gw)  # the other close finished
    records = await gw.adapters.store.table_records()
    assert "close_lost" in records["gone"] and "archive" in records["cut"]
    alerts = [json.loads(v) for _, v in kafka.records(ALERTS, 0)]
    assert [(a["kind"], a["table"]) for a in alerts] == [("close_lost", "gone")]
    await tournament_close.resume(gw)  # told once: a second start finds nothing to do
    assert len(kafka.records(ALERTS, 0)) == 1
