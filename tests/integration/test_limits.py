"""Limits shared by gateway replicas, and `/history` reads at once (docs/api.md, "Limits")."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.helpers import new_table, play_script, run
from tests.stack import Stack, another_gateway

LIMIT = 20  # TABLESERVER_CALLS_PER_SECOND of the test stack (conftest.py)


@pytest.fixture(scope="module")
def second_gateway(stack: Stack) -> Iterator[str]:
    """Another gateway process on the same Kafka and Redis, as a second replica."""
    with another_gateway(stack, stack.gateway_port + 1, "gateway2.log") as url:
        yield url


def test_a_seats_limit_holds_across_two_replicas(stack: Stack, second_gateway: str) -> None:
    """60 calls at once from one seat, half to each of two gateways: together they let
    through what one limit allows (a burst of 20, then 20 a second), not twice that."""
    tokens = new_table(stack, "replicas1")

    async def flood() -> tuple[list[int], float]:
        headers = {"Authorization": f"Bearer {tokens['seats']['N']}"}
        async with httpx.AsyncClient(base_url=stack.url, headers=headers) as one, \
                httpx.AsyncClient(base_url=second_gateway, headers=headers) as two:
            started = time.monotonic()
            answers = await asyncio.gather(*(
                (one if n % 2 else two).post("/api/tables/replicas1/events",
                                             json={"type": "call", "call": "P"})
                for n in range(60)))
            return [a.status_code for a in answers], time.monotonic() - started

    statuses, elapsed = run(flood())
    assert set(statuses) <= {202, 429}
    assert statuses.count(202) <= LIMIT + LIMIT * elapsed + 1, (statuses.count(202), elapsed)


def test_history_reads_are_limited_per_token(stack: Stack) -> None:
    tokens = new_table(stack, "histlimit1")

    async def reads(token: str, count: int) -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=stack.url, timeout=30,
                                     headers={"Authorization": f"Bearer {token}"}) as http:
            return list(await asyncio.gather(*(http.get("/api/tables/histlimit1/history")
                                               for _ in range(count))))

    flood = run(reads(tokens["seats"]["N"], 25))
    refused = [r for r in flood if r.status_code == 429]
    assert refused and all(int(r.headers["Retry-After"]) > 0 for r in refused)
    assert {r.status_code for r in flood} <= {200, 429}
    other = run(reads(tokens["seats"]["E"], 1))
    assert other[0].status_code == 200


def test_concurrent_history_reads_each_get_their_table(stack: Stack) -> None:
    """The gateway reads histories with one Kafka client shared by every read: reads of six
    tables at once each get their own table's events."""
    tables = {f"histpool{i}": new_table(stack, f"histpool{i}") for i in range(6)}
    for i, (table, tokens) in enumerate(tables.items()):
        play_script(stack, table, tokens, ", ".join(["N P", "E P", "S P", "W P"][:1 + i % 4]))

    async def read_all() -> list[httpx.Response]:
        # Each read with its own table's North token: the director's token is shared by the
        # whole session's tests, and its history bucket (2 a second, bursts of 10) may be
        # spent by an earlier test's reads.
        async with httpx.AsyncClient(base_url=stack.url, timeout=30) as http:
            return list(await asyncio.gather(*(
                http.get(f"/api/tables/{t}/history",
                         headers={"Authorization": f"Bearer {tokens['seats']['N']}"})
                for t, tokens in tables.items())))

    answers = run(read_all())
    assert [a.status_code for a in answers] == [200] * 6, [a.text for a in answers]
    documents = [a.json() for a in answers]
    assert [d["table"] for d in documents] == list(tables)
    assert [len(d["history"]) for d in documents] == [2 + i % 4 for i in range(6)]
