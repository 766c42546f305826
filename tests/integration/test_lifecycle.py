"""Table topics with a lifecycle (closed tables), on the real stack: a director closes a
tournament; its tables' events are archived and their topics deleted; every history (with
`until`, `states`), PBN and LIN, the tournament's export and `tableserver replay` read the same
afterwards. A close killed after any of its steps finishes when it is sent again."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from redis.asyncio import Redis

from services.common.kafka.reader import Record, read_topics
from services.common.names import ARCHIVE, TABLE_PREFIX, table_topic, tournament_topic
from services.common.store import RedisStore
from services.gateway.tables.closing import Archiver, close_tables
from services.gateway.tables.table_registry import TableRegistry
from services.gateway.tables.topic_admin import KafkaTopicAdmin
from services.replay.kafka_topics import KafkaTopics
from tests.helpers import DEALS, GATEWAY_PORT, run, wait_for
from tests.stack import Stack, another_gateway

CONTRACT = [("N", {"type": "call", "call": "1S"}), ("E", {"type": "call", "call": "1H"}),
            ("S", {"type": "option", "accept": False}), ("E", {"type": "call", "call": "2H"}),
            ("S", {"type": "call", "call": "2S"}), ("W", {"type": "call", "call": "P"}),
            ("N", {"type": "call", "call": "4S"}), ("E", {"type": "call", "call": "P"}),
            ("S", {"type": "call", "call": "P"}), ("W", {"type": "call", "call": "P"}),
            ("E", {"type": "opening_lead", "card": "HK"}),
            ("N", {"type": "result_recorded", "tricks": 10}),  # agreed by both defenders
            ("E", {"type": "claim_response", "accept": True}),  # (Laws 79A, 69A)
            ("W", {"type": "claim_response", "accept": True})]


def _post(http: Any, token: str, table: str, body: dict[str, Any], status: int = 202) -> Any:
    response = http.post(f"/api/tables/{table}/events", json=body,
                         headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == status, response.text
    return response


def _passes(http: Any, seats: dict[str, str], table: str, dealer: str) -> None:
    order = "NESW" * 2
    for seat in order[order.index(dealer):][:4]:
        _post(http, seats[seat], table, {"type": "call", "call": "P"})


def _state(stack: Stack, table: str) -> dict[str, Any]:
    with stack.client(stack.director) as http:
        found: dict[str, Any] = http.get(f"/api/tables/{table}/state").json()
    return found


def _topics(stack: Stack) -> set[str]:
    async def listed() -> set[str]:
        admin = AIOKafkaAdminClient(bootstrap_servers=stack.bootstrap)
        await admin.start()
        try:
            return set(await admin.list_topics())
        finally:
            await admin.close()
    found: set[str] = run(listed())
    return found


def _reads(stack: Stack, table: str) -> dict[str, Any]:
    """Everything a reader gets of a table: its history (whole, a board with its states, up
    to an offset), its PBN and LIN."""
    with stack.client(stack.director) as http:
        def get(**params: Any) -> Any:
            response = http.get(f"/api/tables/{table}/history", params=params)
            for _ in range(30):  # the director's reads are limited too: as told, again
                if response.status_code != 429:
                    break
                time.sleep(float(response.headers["Retry-After"]))
                response = http.get(f"/api/tables/{table}/history", params=params)
            assert response.status_code == 200, response.text
            return response.json() if params.get("format", "json") == "json" else response.text
        return {"whole": get(), "board1": get(board=1, states="true"), "until3": get(until=3),
                "pbn": get(format="pbn"), "lin": get(format="lin", board=1)}


def _cli_replay(stack: Stack, table: str) -> Any:
    done = subprocess.run([sys.executable, "-m", "services.cli.main", "replay", table],
                          env=stack.env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_closed_tournament_is_archived_its_topics_deleted_and_reads_the_same(
        stack: Stack) -> None:
    t = "life"
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": 4, "deals": DEALS, "site": "online",
            "date": "2026.11.25"}, timeout=60).json()
        assert http.post(f"/api/tournaments/{t}/rounds",
                         json={"round": 1, "boards": [1, 2]}).status_code == 202
    tables = [line["table"] for line in made["tables"]]
    seats = {line["table"]: line["seats"] for line in made["tables"]}
    wait_for(lambda: all(_state(stack, x)["version"] is not None for x in tables), 60,
             "board 1 at every table")
    with stack.client() as http:
        for table in tables:  # board 1: a contract with an irregularity at the first table
            if table == tables[0]:
                for seat, body in CONTRACT:
                    _post(http, seats[table][seat], table, body)
            else:
                _passes(http, seats[table], table, "N")
        for table in tables[:-1]:  # board 2 (East deals); the last table stays in its auction
            _passes(http, seats[table], table, "E")
        _post(http, seats[tables[-1]]["E"], tables[-1], {"type": "call", "call": "P"})
    wait_for(lambda: _state(stack, tables[-1])["board"]["board"] == 2
             and len(_state(stack, tables[-1])["board"]["calls"]) == 1, 30, "the last call")

    with stack.client(stack.director) as http:
        refused = http.post(f"/api/tournaments/{t}/close")
        assert refused.status_code == 409 and refused.json()["field"] == "force", refused.text
        assert tables[-1] in refused.json()["error"]
    assert {table_topic(x) for x in tables} <= _topics(stack)  # nothing closed
    with stack.client() as http:  # the board goes on, and ends
        for seat in "SWN":
            _post(http, seats[tables[-1]][seat], tables[-1], {"type": "call", "call": "P"})
    wait_for(lambda: len(_state(stack, tables[-1])["board"]["calls"]) == 4, 30, "board 2 over")

    before = {x: _reads(stack, x) for x in tables}
    assert before[tables[0]]["whole"]["history"][-1]["event"]["type"] == "call"
    assert any(e["alerts"] for e in before[tables[0]]["whole"]["history"])  # Law 27's
    cli_before = _cli_replay(stack, tables[0])
    with stack.client(stack.director) as http:
        exported = {form: http.get(f"/api/tournaments/{t}/export", params={"format": form}).text
                    for form in ("pbn", "json")}
        closed = http.post(f"/api/tournaments/{t}/close")
        assert closed.status_code == 200, closed.text
        done = closed.json()
        assert done["closed"] == sorted(tables)
        assert done["events"] == sum(len(before[x]["whole"]["history"]) for x in tables)
        assert set(done["steps_s"]) == {"checked", "closed", "fenced", "folded", "archived",
                                        "marked", "deleted", "tournament closed",
                                        "tournament fenced", "tournament archived",
                                        "tournament marked", "tournament deleted"}
        assert done["tournament"] == t and done["tournament_events"] == 2  # created, round 1

    topics = _topics(stack)
    assert ARCHIVE in topics
    assert not {x for x in topics if x.startswith(TABLE_PREFIX + t)}  # every topic gone
    assert tournament_topic(t) not in topics
    assert {x: _reads(stack, x) for x in tables} == before
    assert _cli_replay(stack, tables[0]) == cli_before
    with stack.client(stack.director) as http:
        for form in ("pbn", "json"):
            again = http.get(f"/api/tournaments/{t}/export", params={"format": form})
            assert again.status_code == 200 and again.text == exported[form]
        # closed: no more events, from a seat or the director; the close again is harmless
        seat = http.post(f"/api/tables/{tables[0]}/events", json={"type": "call", "call": "P"},
                         headers={"Authorization": f"Bearer {seats[tables[0]]['N']}"})
        assert seat.status_code == 409 and "closed" in seat.json()["error"], seat.text
        board = http.post(f"/api/tables/{tables[0]}/boards", json={"board": 3})
        assert board.status_code == 409, board.text
        round_ = http.post(f"/api/tournaments/{t}/rounds", json={"round": 2, "boards": [3]})
        assert round_.status_code == 409 and round_.json()["field"] == "round", round_.text
        made_again = http.post("/api/tables", json={"table": tables[0]})
        assert made_again.status_code == 409 and made_again.json()["field"] == "table"
        again = http.post(f"/api/tournaments/{t}/close")
        assert again.status_code == 200 and again.json()["closed"] == sorted(tables)
    assert {x: _reads(stack, x) for x in tables} == before
    # the processor let the tables go: a table made after them is folded as ever
    with stack.client(stack.director) as http:
        assert http.post("/api/tables", json={"table": "life-after"}).status_code == 201
        assert http.post("/api/tables/life-after/boards",
                         json={"board": 1}).status_code == 202
    wait_for(lambda: _state(stack, "life-after")["version"] is not None, 30, "a new table")


class Killed(BaseException):
    """The archiver's process dies here: nothing after this step runs."""


@asynccontextmanager
async def archiver_on(stack: Stack, step: str) -> AsyncIterator[tuple[Archiver, Redis]]:
    """A close run here, on the stack's Kafka and Redis, with clients of its own (stopped on
    leaving), killed after `step` (`Killed`); and its Redis client."""
    admin = AIOKafkaAdminClient(bootstrap_servers=stack.bootstrap)
    producer = AIOKafkaProducer(bootstrap_servers=stack.bootstrap, acks="all",
                                enable_idempotence=True)
    redis = Redis(host="127.0.0.1", port=stack.redis_port)
    topics = KafkaTopics(stack.bootstrap)
    await admin.start()
    await producer.start()
    await topics.start()

    async def read(names: list[str]) -> dict[str, list[Record]]:
        return await read_topics(stack.bootstrap, names)

    async def fetch(offset: int) -> list[Record]:
        return (await topics.fetch(ARCHIVE, offset)).records

    async def die(name: str, _names: list[str]) -> None:
        if name == step:
            raise Killed(name)
    try:
        shards = int(stack.env.get("TABLESERVER_SHARDS", "8"))
        archiver = Archiver(KafkaTopicAdmin(admin, 1), producer, RedisStore(redis),
                            TableRegistry(redis, producer, shards), read, fetch)
        archiver.on_step = die
        yield archiver, redis
    finally:
        await topics.stop()
        await producer.stop()
        await admin.close()
        await redis.aclose()


@pytest.mark.parametrize("step", ["checked", "closed", "fenced", "folded", "archived",
                                  "marked", "deleted"])
def test_a_close_killed_after_any_step_finishes_when_sent_again(stack: Stack, step: str
                                                                ) -> None:
    table = f"kill-{step}"
    seats = _played(stack, table)
    before = _reads(stack, table)
    run(_killed_close(stack, table, step))

    if step not in ("checked", "closed"):  # fenced: Kafka refuses the table's appends, and
        with stack.client() as http:  # the gateway, whose cached record predates the close,
            late = _post(http, seats["N"], table, {"type": "call", "call": "P"}, 409)
        assert "closed" in late.json()["error"]  # reads it again: a clear 409, not a 503
    with stack.client(stack.director) as http:  # the director sends it again
        closed = http.post(f"/api/tables/{table}/close")
        assert closed.status_code == 200, closed.text
        assert closed.json()["events"] == len(before["whole"]["history"])
    assert table_topic(table) not in _topics(stack)
    assert _reads(stack, table) == before
    with stack.client() as http:
        refused = _post(http, seats["N"], table, {"type": "call", "call": "P"}, 409)
        assert "closed" in refused.json()["error"]


async def _killed_close(stack: Stack, table: str, step: str) -> None:
    """The table's close run here, on the stack's Kafka and Redis, killed after `step`."""
    async with archiver_on(stack, step) as (archiver, redis):
        found = await RedisStore(redis).table_record(table)
        assert found is not None
        with pytest.raises(Killed):
            await close_tables(archiver, {table: found})


def _played(stack: Stack, table: str) -> dict[str, str]:
    """A table made, its first board passed out: its seats' tokens."""
    with stack.client(stack.director) as http:
        seats: dict[str, str] = http.post("/api/tables", json={"table": table}).json()["seats"]
        assert http.post(f"/api/tables/{table}/boards", json={"board": 1}).status_code == 202
    wait_for(lambda: _state(stack, table)["version"] is not None, 30, "the board")
    with stack.client() as http:
        _passes(http, seats, table, "N")
    wait_for(lambda: len(_state(stack, table)["board"]["calls"]) == 4, 30, "the passes")
    return seats


def test_a_gateway_that_starts_finishes_the_closes_cut_short(stack: Stack) -> None:
    """No hand needed: a close killed after its archive was written (nothing points at it
    yet), and one killed after its record was pointed at it (its topic still there), are
    finished by the next gateway to start."""
    tables = {"resume-archived": "archived", "resume-marked": "marked"}
    before = {}
    for table, step in tables.items():
        _played(stack, table)
        before[table] = _reads(stack, table)
        run(_killed_close(stack, table, step))
    assert {table_topic(t) for t in tables} <= _topics(stack)
    with another_gateway(stack, GATEWAY_PORT + 95, "resume-gateway.log") as url:
        wait_for(lambda: not {table_topic(t) for t in tables} & _topics(stack), 60,
                 "the closes finished by the new gateway")
        with stack.client(stack.director, url=url) as http:
            listed = {x["table"]: x for x in http.get("/api/tables").json()["tables"]}
            assert set(tables) <= set(listed)
    assert {t: _reads(stack, t) for t in tables} == before


def test_a_closed_tables_robots_stand_up(stack: Stack) -> None:
    """A table the director closes takes no more events: the robots asked for at its seats
    (docs/robots.md) are taken away with it, and the robot pool lets them go."""
    table = "robots-closed"
    _played(stack, table)
    with stack.client(stack.director) as http:
        asked = http.post(f"/api/tables/{table}/robots", json={"seats": ["E", "W"]})
        assert asked.status_code == 200, asked.text
        assert set(asked.json()["seats"]) == {"E", "W"}
        closed = http.post(f"/api/tables/{table}/close")
        assert closed.status_code == 200, closed.text
        seats = http.get(f"/api/tables/{table}/robots")
        assert seats.status_code == 200, seats.text
        assert seats.json()["seats"] == {}
