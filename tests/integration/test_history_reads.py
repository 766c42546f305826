"""`GET /api/tables/{t}/history` under many readers (api.md): reads at once each get
their table's topic as their reader may see it, a read right after a call shows the call, and
past the gateway's bound on reads at once a read is refused with a retryable 503 at once, while
the reads under way go on. Speed is measured in bench/history_bench.py, not here."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from services.common.kafka.reader import Record, read_topics
from services.common.names import table_topic
from services.gateway.tables.views import board_for, entry_for, think_times_for
from services.gateway.tokens import Grant
from services.replay.history import build_history
from tests.helpers import new_table, play_script, run, state, wait_for
from tests.stack import Stack, another_gateway

SCRIPTS = ["E asks 0, N explains 0 any shape",
           "E P, S 1H!, W P",
           "E asks 0, N explains 0 16+, E 1S, S X",
           "E P, S 1D, W 1H!, N P, E P"]


def topics(stack: Stack, *tables: str) -> dict[str, list[Record]]:
    """The records of each table's topic, read with a consumer of their own."""
    found = run(read_topics(stack.bootstrap, [table_topic(t) for t in tables]))
    return {table: found[table_topic(table)] for table in tables}


def expected(table: str, records: list[Record], grant: Grant, **query: Any) -> dict[str, Any]:
    """The history a replay of the table's `records` gives, as `grant` may see it."""
    until = query.get("until")
    document = think_times_for(grant, build_history(
        table, [r for r in records if until is None or r[0] <= until], query.get("board"),
        until, query.get("states", False)))  # the think times: the Director's alone
    document["history"] = [entry_for(grant, e, 0, 0) for e in document["history"]]
    if document["state"] is not None:
        document["state"] = board_for(grant, document["state"], 0, 0)
    return document


def alerted_table(stack: Stack, table: str, script: str) -> dict[str, Any]:
    """A table where N opens 1C, alerted and explained in his own words (Law 20F: not for
    his partner's eyes), then `script`."""
    tokens = new_table(stack, table)
    with stack.client(tokens["seats"]["N"]) as http:
        posted = http.post(f"/api/tables/{table}/events", json={
            "type": "call", "call": "1C", "alert": True, "explanation": "Precision, 16+"})
        assert posted.status_code == 202, posted.text
    offset = posted.json()["offset"]  # a question about the call waits until it is folded
    wait_for(lambda: state(stack, table, stack.director)["version"] == offset, 10, "folded")
    play_script(stack, table, tokens, script)
    return tokens


def test_every_reader_of_many_tables_at_once_gets_the_topic_as_he_may_see_it(
        stack: Stack) -> None:
    """Ten tables, each read at once by its four seats and its spectators, three of them by the
    director too (the whole history, a board step by step, up to an offset): 69 reads, 50 at
    once (fewer than the gateway takes at once), each equal to a replay of the topic as its
    reader may see it, whoever read the same table before."""
    tables = {f"hread{i}": alerted_table(stack, f"hread{i}", SCRIPTS[i % 4]) for i in range(10)}
    reads: list[tuple[str, Grant, str, dict[str, Any]]] = []
    for table, tokens in tables.items():
        for seat in "NESW":
            reads.append((table, Grant(table, seat, "seat"), tokens["seats"][seat], {}))
        reads.append((table, Grant(table, None, "spectator"), tokens["spectator"],
                      {"board": 1, "states": True}))
        reads.append((table, Grant(table, "S", "seat"), tokens["seats"]["S"], {"until": 2}))
    for table in list(tables)[:3]:  # (a token's limit: 10 reads at once)
        reads += [(table, Grant(None, None, "director"), stack.director, query)
                  for query in ({}, {"until": 1}, {"board": 1, "states": True})]

    async def read_all() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=stack.url, timeout=120,
                                     limits=httpx.Limits(max_connections=50)) as http:
            return list(await asyncio.gather(*(
                http.get(f"/api/tables/{table}/history", params=query,
                         headers={"Authorization": f"Bearer {token}"})
                for table, _, token, query in reads)))

    answers = run(read_all())
    assert [a.status_code for a in answers] == [200] * len(reads), \
        [a.text for a in answers if a.status_code != 200][:3]
    records = topics(stack, *tables)
    for (table, grant, _, query), answer in zip(reads, answers, strict=True):
        assert answer.json() == expected(table, records[table], grant, **query), \
            (table, grant, query)
    south = [a.text for (_, grant, _, _), a in zip(reads, answers, strict=True)
             if grant.seat == "S"]
    assert south and not any("Precision" in text or "any shape" in text for text in south)


def test_a_read_right_after_a_call_shows_the_call(stack: Stack) -> None:
    """What the gateway keeps of a topic never hides what came after it: each call, read back
    at once by its caller (the table read before it each time), is in the history."""
    tokens = new_table(stack, "hfresh")
    for seat, call in zip("NESW", ["1C", "P", "P", "P"], strict=True):
        with stack.client(tokens["seats"][seat]) as http:
            assert http.get("/api/tables/hfresh/history").status_code == 200
            posted = http.post("/api/tables/hfresh/events", json={"type": "call", "call": call})
            assert posted.status_code == 202, posted.text
            document = http.get("/api/tables/hfresh/history").json()
            assert document["version"] == posted.json()["offset"]
            last = document["history"][-1]["event"]
            assert (last["type"], last["seat"], last["call"]) == ("call", seat, call)


@pytest.fixture
def one_read_gateway(stack: Stack) -> Iterator[str]:
    """A gateway that takes one history read at a time (and as many a second from one token
    as a test asks)."""
    narrow = dataclasses.replace(stack, env={**stack.env, "TABLESERVER_HISTORY_READS": "1",
                                             "TABLESERVER_HISTORY_PER_SECOND": "1000"})
    with another_gateway(narrow, stack.gateway_port + 3, "gateway-one-read.log") as url:
        yield url


def test_reads_past_the_bound_are_refused_at_once_with_a_retryable_503(
        stack: Stack, one_read_gateway: str) -> None:
    """With Kafka paused, a read of a table the gateway has not read holds its one slot; other
    reads are refused at once (503, Retry-After), not queued behind it. A read up to an offset
    the gateway holds needs no Kafka. Once Kafka answers, the read under way gets its table."""
    play_script(stack, "hbound1", new_table(stack, "hbound1"), "N 1C, E P, S 1H")
    tokens = new_table(stack, "hbound2")
    play_script(stack, "hbound2", tokens, "N P, E P")
    records = topics(stack, "hbound1", "hbound2")
    director = Grant(None, None, "director")
    whole = expected("hbound1", records["hbound1"], director)
    upto = expected("hbound1", records["hbound1"], director, until=2)
    held: dict[str, httpx.Response | Exception] = {}
    kafka = int(stack.kafka_pidfile().read_text())
    with httpx.Client(base_url=one_read_gateway, timeout=10,
                      headers={"Authorization": f"Bearer {stack.director}"}) as http:
        assert http.get("/api/tables/hbound1/history").json() == whole

        def read_held() -> None:
            try:
                with httpx.Client(base_url=one_read_gateway, timeout=60, headers={
                        "Authorization": f"Bearer {tokens['seats']['N']}"}) as other:
                    held["answer"] = other.get("/api/tables/hbound2/history")
            except Exception as exc:  # reported below
                held["answer"] = exc

        reader = threading.Thread(target=read_held, daemon=True)
        os.kill(kafka, signal.SIGSTOP)
        try:
            held_back = http.get("/api/tables/hbound1/history", params={"until": 2})
            assert held_back.status_code == 200 and held_back.json() == upto
            reader.start()
            refused = wait_for(lambda: (r := http.get("/api/tables/hbound1/history",
                                                      params={"until": 2})).status_code == 503
                               and r, 8, "a read refused while the only slot is taken")
        finally:
            os.kill(kafka, signal.SIGCONT)
        assert int(refused.headers["Retry-After"]) > 0
        assert "too many history reads at once" in refused.json()["error"]
        reader.join(60)
        answer = held["answer"]
        assert isinstance(answer, httpx.Response), answer
        assert answer.status_code == 200, answer.text
        assert answer.json() == expected("hbound2", records["hbound2"],
                                         Grant("hbound2", "N", "seat"))
        assert http.get("/api/tables/hbound1/history").json() == whole  # the slot is free


def test_a_tournament_no_topic_can_be_named_for_is_not_found(stack: Stack) -> None:
    """A name no Kafka topic can have (`%`) is looked up as any missing topic: 404, not a 503
    after the shared client's attempts."""
    with stack.client(stack.director) as http:
        for name in ("%25", "no-such-tournament"):
            response = http.get(f"/api/tournaments/{name}")
            assert response.status_code == 404, response.text
