"""A tournament created in process (services/gateway/tournaments/service.py) on the fakes of the
gateway's ports (tests/fakes.py): its topics, its tables' records (Redis's copy and the
registry's), its players' names and its creation record; the same request again creates
nothing; conflicts are 409s naming the field; Kafka or Redis away, a 503 to retry that leaves
the creation to be sent again. The same on the real stack: tests/integration/test_tournaments.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from services.common import registry
from services.common.errors import Unavailable
from services.common.kafka.reader import NoTableError
from services.common.names import table_topic, tournament_topic
from services.gateway.http.models import TournamentCreate
from services.gateway.ports import TopicsUnavailable
from services.gateway.refusals import REDIS_DOWN, Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import service as tournaments
from tests.fakes import FlakyStore, MemoryAdmin, MemoryKafka, director_gateway
from tests.helpers import DEALS


@pytest.fixture
def kafka() -> MemoryKafka:
    return MemoryKafka(shards=8)


@pytest.fixture
def store() -> FlakyStore:
    return FlakyStore()


@pytest.fixture
def gw(tmp_path: Path, kafka: MemoryKafka, store: FlakyStore) -> Gateway:
    return director_gateway(tmp_path, kafka, store)


def request(**given: Any) -> TournamentCreate:
    return TournamentCreate(**{"tournament": "spring", "tables": 2, "deals": DEALS,
                               "players": {"spring-1": {"N": "Ann", "S": "Bob"}}, **given})


def events(kafka: MemoryKafka, topic: str) -> list[dict[str, Any]]:
    return [json.loads(value or b"{}") for _, value in kafka.records(topic)]


async def test_a_tournament_is_created_once(gw: Gateway, kafka: MemoryKafka) -> None:
    made, created = await tournaments.create(gw, request())
    assert created and made.tables == ("spring-1", "spring-2")
    topics = await gw.adapters.admin.existing()
    assert {tournament_topic("spring"), table_topic("spring-1"), table_topic("spring-2")} <= topics
    for table in made.tables:
        meta = await gw.fresh_meta(table)
        assert (meta["tournament"], meta["ruleset"]) == ("spring", "duplicate")
        assert await gw.adapters.reads.registered(table) == meta
    assert [e["type"] for e in events(kafka, tournament_topic("spring"))] == [
        "tournament_created"]
    named = [r for _, r in await gw.adapters.reads.table("spring-1")]
    assert len(named) == 1 and b"Ann" in (named[0] or b"")
    assert await gw.adapters.reads.table("spring-2") == []
    gw.tournaments.clear()  # another gateway: it reads the creation from the topic
    again, created = await tournaments.create(gw, request())
    assert not created and again == made
    assert len(kafka.records(tournament_topic("spring"))) == 1
    assert len(await gw.adapters.reads.table("spring-1")) == 1


async def test_another_request_with_the_same_name_is_a_conflict(gw: Gateway) -> None:
    await tournaments.create(gw, request())
    with pytest.raises(Refused) as refused:
        await tournaments.create(gw, request(tables=3))
    assert (refused.value.kind, refused.value.field) == (Kind.CONFLICT, "tournament")


async def test_a_table_that_exists_outside_the_tournament_is_a_conflict(
        gw: Gateway, kafka: MemoryKafka) -> None:
    await gw.adapters.store.remember_tables({"spring-2": registry.new_record(
        "spring-2", "duplicate")})
    with pytest.raises(Refused) as refused:
        await tournaments.create(gw, request())
    assert (refused.value.kind, refused.value.field) == (Kind.CONFLICT, "tables")
    assert "spring-2" in refused.value.reason
    assert await gw.adapters.reads.registered("spring-1") is None  # nothing registered
    assert kafka.records(tournament_topic("spring")) == []
    assert "tournament" not in await gw.fresh_meta("spring-2")


async def test_kafka_away_is_a_503_and_nothing_is_made(gw: Gateway, kafka: MemoryKafka
                                                         ) -> None:
    kafka.down = True
    with pytest.raises(Unavailable) as refused:
        await tournaments.create(gw, request())
    assert refused.value.retry_after == 1 and refused.value.reason.startswith("Kafka did not")
    kafka.down = False
    assert await gw.adapters.store.table_record("spring-1") is None
    with pytest.raises(NoTableError):
        await gw.adapters.reads.table("spring-1")


class TopicsRefused(MemoryAdmin):
    """Kafka's controller does not create topics (in time); the rest of Kafka answers."""

    async def create_tournament(self, tournament: str, tables: list[str]) -> None:
        raise TopicsUnavailable("Kafka did not create the tournament's topics", retry_after=1)


async def test_topics_not_made_is_a_503_and_the_creation_is_sent_again(
        tmp_path: Path, kafka: MemoryKafka) -> None:
    gw = director_gateway(tmp_path, kafka, admin=TopicsRefused(kafka))
    with pytest.raises(Unavailable) as refused:
        await tournaments.create(gw, request())
    assert refused.value.retry_after == 1
    assert refused.value.reason == ("Kafka did not create the tournament in time; retry "
                                    "(doing it twice is harmless)")
    assert await gw.adapters.store.table_record("spring-1") is None
    gw.adapters.admin = MemoryAdmin(kafka)
    _, created = await tournaments.create(gw, request())
    assert created and await gw.adapters.reads.registered("spring-2") is not None


async def test_kafka_away_after_the_claim_is_a_503_and_the_creation_is_sent_again(
        gw: Gateway, kafka: MemoryKafka) -> None:
    """The tables' records claimed in Redis, the registry topic away: sent again, the same
    request finds its own records (they stand) and goes on."""
    await gw.adapters.admin.create_tournament("spring", ["spring-1", "spring-2"])
    claimed = await gw.adapters.registry.claim({t: registry.new_record(
        t, "duplicate", "spring") for t in ("spring-1", "spring-2")})
    kafka.down = True
    with pytest.raises(Unavailable) as refused:
        await tournaments.create(gw, request())
    assert refused.value.retry_after == 1
    kafka.down = False
    made, created = await tournaments.create(gw, request())
    assert created
    assert {t: await gw.adapters.reads.registered(t) for t in made.tables} == claimed


async def test_redis_away_is_redis_own_503(gw: Gateway, store: FlakyStore) -> None:
    store.down = True
    with pytest.raises(Unavailable) as refused:
        await tournaments.create(gw, request())
    assert (refused.value.reason, refused.value.retry_after) == (REDIS_DOWN, 2)
