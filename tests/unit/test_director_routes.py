"""The director's routes in process, over HTTP (httpx's ASGI transport on the app that
`create_app` makes, as uvicorn serves it), on the fakes of the gateway's ports (tests/fakes.py):
tables created, found and closed; tournaments created, closed and filled with robots; robots
asked for; Kafka or Redis away answered 503 with Retry-After. The same routes on the real stack:
tests/integration/test_tournaments.py, test_lifecycle.py, test_robots.py."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from services.common.names import HANDLED, ROBOTS, table_topic, tournament_topic
from services.gateway.refusals import REDIS_DOWN
from shared.codec import encode, from_map
from tests.fakes import FlakyStore, MemoryKafka, director_client, director_gateway
from tests.helpers import DEALS
from tests.script import log


@pytest.fixture
def kafka() -> MemoryKafka:
    return MemoryKafka(shards=8)


@pytest.fixture
def store() -> FlakyStore:
    return FlakyStore()


@pytest.fixture
async def http(tmp_path: Path, kafka: MemoryKafka, store: FlakyStore
               ) -> AsyncIterator[httpx.AsyncClient]:
    """The director's client of the gateway's app on the fakes."""
    async with director_client(director_gateway(tmp_path, kafka, store)) as client:
        yield client


def refusal(answer: httpx.Response) -> tuple[int, str | None, str | None]:
    """An answer's status, the field at fault and its Retry-After."""
    return answer.status_code, answer.json().get("field"), answer.headers.get("retry-after")


async def test_a_table_is_created_found_again_and_listed(http: httpx.AsyncClient,
                                                         kafka: MemoryKafka) -> None:
    made = await http.post("/api/tables", json={"table": "t1"})
    assert made.status_code == 201, made.text
    assert (made.json()["ruleset"], sorted(made.json()["seats"])) == (
        "duplicate", ["E", "N", "S", "W"])
    assert table_topic("t1") in {tp.topic for tp in kafka.partitions}
    again = await http.post("/api/tables", json={"table": "t1"})
    assert again.status_code == 201, again.text
    other = await http.post("/api/tables", json={"table": "t1", "ruleset": "rubber"})
    assert refusal(other) == (409, "ruleset", None)
    listed = await http.get("/api/tables")
    assert listed.json() == {"tables": [{"table": "t1", "ruleset": "duplicate",
                                         "tournament": None}]}


async def test_a_table_made_with_kafka_away_is_a_503_to_retry(
        http: httpx.AsyncClient, kafka: MemoryKafka) -> None:
    kafka.down = True
    refused = await http.post("/api/tables", json={"table": "t1"})
    assert refusal(refused) == (503, None, "1")
    assert refused.json()["error"] == ("Kafka did not create the table in time; retry "
                                       "(creating a table twice is harmless)")
    kafka.down = False
    assert (await http.post("/api/tables", json={"table": "t1"})).status_code == 201


async def test_a_table_made_with_redis_away_is_redis_own_503(
        http: httpx.AsyncClient, store: FlakyStore) -> None:
    store.down = True
    refused = await http.post("/api/tables", json={"table": "t1"})
    assert refusal(refused) == (503, None, "2")
    assert refused.json()["error"] == REDIS_DOWN


async def test_a_closed_table_is_never_made_again(http: httpx.AsyncClient,
                                                  kafka: MemoryKafka) -> None:
    await http.post("/api/tables", json={"table": "t1"})
    closed = await http.post("/api/tables/t1/close")
    assert closed.status_code == 200, closed.text
    assert (closed.json()["closed"], closed.json()["events"]) == (["t1"], 0)
    assert table_topic("t1") not in {tp.topic for tp in kafka.partitions}
    assert (await http.post("/api/tables/t1/close")).status_code == 200  # again: nothing
    assert refusal(await http.post("/api/tables", json={"table": "t1"})) == (409, "table", None)


TOURNAMENT = {"tournament": "spring", "tables": 2, "deals": DEALS,
              "players": {"spring-1": {"N": "Ann", "S": "Bob"}}}


async def test_a_tournament_is_created_once_and_closed(http: httpx.AsyncClient,
                                                       kafka: MemoryKafka) -> None:
    made = await http.post("/api/tournaments", json=TOURNAMENT)
    assert made.status_code == 201, made.text
    assert made.json()["created"] is True
    assert [t["table"] for t in made.json()["tables"]] == ["spring-1", "spring-2"]
    again = await http.post("/api/tournaments", json=TOURNAMENT)
    assert (again.status_code, again.json()["created"]) == (201, False)
    conflict = await http.post("/api/tournaments", json={**TOURNAMENT, "tables": 3})
    assert refusal(conflict) == (409, "tournament", None)
    closed = await http.post("/api/tournaments/spring/close")
    assert closed.status_code == 200, closed.text
    assert closed.json()["closed"] == ["spring-1", "spring-2"]
    assert not {tournament_topic("spring"), table_topic("spring-1")} & {
        tp.topic for tp in kafka.partitions}
    late = await http.post("/api/tournaments/spring/rounds", json={"round": 1})
    assert refusal(late) == (409, "round", None)
    export = await http.get("/api/tournaments/spring/export", params={"format": "json"})
    assert export.status_code == 200 and json.loads(export.text)["tournament"]["tournament"] \
        == "spring"


async def test_robots_sit_where_no_person_does(http: httpx.AsyncClient,
                                               kafka: MemoryKafka) -> None:
    """A seat a person holds (a name given at the tournament's creation) is a 409 naming
    `seats`; the tournament's empty seats are filled; each request is on the robots' topic."""
    await http.post("/api/tournaments", json=TOURNAMENT)
    person = await http.post("/api/tables/spring-1/robots", json={"seats": ["N"]})
    assert refusal(person) == (409, "seats", None)
    assert kafka.records(ROBOTS) == []
    seated = await http.post("/api/tables/spring-1/robots", json={"seats": ["E"]})
    assert seated.status_code == 200, seated.text
    assert seated.json()["seats"]["E"]["requested"] is True
    filled = await http.post("/api/tournaments/spring/robots")
    assert filled.json()["tables"] == {"spring-1": ["E", "W"],
                                       "spring-2": ["N", "E", "S", "W"]}
    asked = [json.loads(value or b"{}") for _, value in kafka.records(ROBOTS)]
    assert [(r["table"], r["seats"]) for r in asked] == [
        ("spring-1", ["E"]), ("spring-1", ["E", "W"]), ("spring-2", ["N", "E", "S", "W"])]
    gone = await http.delete("/api/tables/spring-1/robots")
    assert gone.status_code == 200 and json.loads(kafka.records(ROBOTS)[-1][1] or b"")[
        "seats"] == []


async def test_robots_asked_for_with_kafka_away_is_a_503_and_nothing_changes(
        http: httpx.AsyncClient, kafka: MemoryKafka) -> None:
    await http.post("/api/tables", json={"table": "t1"})
    kafka.down = True
    refused = await http.post("/api/tables/t1/robots", json={"seats": ["E"]})
    assert refusal(refused) == (503, None, "1")
    assert refused.json()["error"] == ("Kafka did not acknowledge the request in time; retry "
                                       "(the same request twice is harmless)")
    kafka.down = False
    robots = await http.get("/api/tables/t1/robots")
    assert robots.json()["seats"] == {}


async def test_an_alerts_mark_with_kafka_away_is_a_503(http: httpx.AsyncClient,
                                                       kafka: MemoryKafka,
                                                       store: FlakyStore) -> None:
    """N 1S, E 1H: the insufficient bid raised t:1:2:0 (found by folding the table)."""
    kafka.register("t")
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate", "created": 1}})
    for event in log("N 1S, E 1H"):
        kafka.call("t", encode(from_map(event)))
    kafka.down = True
    refused = await http.post("/api/alerts/t:1:2:0/handled", json={"handled": True})
    assert refusal(refused) == (503, None, "1")
    assert refused.json()["error"] == "Kafka did not acknowledge the mark in time; retry"
    kafka.down = False
    marked = await http.post("/api/alerts/t:1:2:0/handled", json={"handled": True})
    assert marked.status_code == 202, marked.text
    assert kafka.records(HANDLED)[-1][0] == b"t:1:2:0"
