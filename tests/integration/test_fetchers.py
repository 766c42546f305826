"""The processor's fetchers on the real broker, a Kafka of their own (port 21092): positions
kept while the partitions fetched change, partitions dropped, a position the broker no longer
has found again, where partitions end (issue 16, point 6)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.records_to_delete import RecordsToDelete
from aiokafka.structs import TopicPartition

from services.processor import consumer_fetcher, fetch_session
from tests.stack import _deploy

pytestmark = pytest.mark.integration

PORT = 21092


@pytest.fixture(scope="module")
def bootstrap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data: Path = tmp_path_factory.mktemp("fetcher-kafka")
    env = {**os.environ, "TABLESERVER_DATA": str(data), "TABLESERVER_KAFKA_PORT": str(PORT)}
    _deploy("kafka/start.sh", env)
    try:
        yield f"127.0.0.1:{PORT}"
    finally:
        _deploy("kafka/stop.sh", env)


@pytest.fixture(params=["session", "consumer"])
async def fetcher(request: pytest.FixtureRequest, bootstrap: str) -> AsyncIterator[Any]:
    module = fetch_session if request.param == "session" else consumer_fetcher
    fetcher = module.TableFetcher(bootstrap)
    await fetcher.start()
    try:
        yield fetcher
    finally:
        await fetcher.stop()


class Topics:
    def __init__(self, bootstrap: str) -> None:
        self.admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
        self.producer = AIOKafkaProducer(bootstrap_servers=bootstrap, acks="all")

    async def __aenter__(self) -> Topics:
        await self.admin.start()
        await self.producer.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.producer.stop()
        await self.admin.close()

    async def create(self, *names: str) -> list[TopicPartition]:
        await self.admin.create_topics([NewTopic(name, 1, 1) for name in names])
        return [TopicPartition(name, 0) for name in names]

    async def append(self, tp: TopicPartition, *values: str) -> None:
        for value in values:
            await self.producer.send_and_wait(tp.topic, value.encode(), partition=tp.partition)


async def fetch_until(fetcher: Any, want: dict[TopicPartition, int], rounds: int = 100
                      ) -> dict[TopicPartition, list[str]]:
    """The values fetched, by partition, until each of `want` has that many (or `rounds`)."""
    got: dict[TopicPartition, list[str]] = {}
    for _ in range(rounds):
        for tp, records in (await fetcher.fetch(0.1)).items():
            got.setdefault(tp, []).extend(record.value.decode() for record in records)
        if all(len(got.get(tp, [])) >= n for tp, n in want.items()):
            break
    return got


def unique(name: str, fetcher: Any) -> str:
    return f"{name}-{type(fetcher).__module__.rsplit('.', 1)[1]}"


async def test_positions_are_kept_while_the_partitions_fetched_change(bootstrap: str,
                                                                      fetcher: Any) -> None:
    async with Topics(bootstrap) as topics:
        a, b, c = await topics.create(*(unique(n, fetcher) for n in ("keep-a", "keep-b",
                                                                     "keep-c")))
        await topics.append(a, "a0", "a1", "a2")
        await topics.append(b, "b0", "b1")
        fetcher.fetch_from(a, 1)
        assert await fetch_until(fetcher, {a: 2}) == {a: ["a1", "a2"]}
        fetcher.fetch_from(b, 0)  # a partition added: `a` goes on from its position
        await topics.append(a, "a3")
        assert await fetch_until(fetcher, {a: 1, b: 2}) == {a: ["a3"], b: ["b0", "b1"]}
        fetcher.drop(b)
        fetcher.fetch_from(c, 0)  # one dropped, one added
        await topics.append(a, "a4")
        await topics.append(b, "b2")
        await topics.append(c, "c0")
        assert await fetch_until(fetcher, {a: 1, c: 1}) == {a: ["a4"], c: ["c0"]}
        assert await fetch_until(fetcher, {}, rounds=3) == {}  # nothing more, `b` dropped
        assert fetcher.positions == {a: 5, c: 1}


async def test_a_partition_dropped_is_fetched_no_more_and_again_from_where_asked(
        bootstrap: str, fetcher: Any) -> None:
    async with Topics(bootstrap) as topics:
        live, table = await topics.create(unique("drop-live", fetcher),
                                          unique("drop-table", fetcher))
        await topics.append(table, "t0", "t1")
        fetcher.fetch_from(live, 0)
        fetcher.fetch_from(table, 0)
        assert await fetch_until(fetcher, {table: 2}) == {table: ["t0", "t1"]}
        fetcher.drop(table)
        await topics.append(table, "t2", "t3")
        await topics.append(live, "l0")
        assert await fetch_until(fetcher, {live: 1}, rounds=10) == {live: ["l0"]}
        fetcher.fetch_from(table, 3)  # again, from a position of our choosing
        await topics.append(table, "t4")
        assert await fetch_until(fetcher, {table: 2}) == {table: ["t3", "t4"]}


async def test_hundreds_of_partitions_dropped_one_by_one_as_at_a_shards_start(
        bootstrap: str, fetcher: Any) -> None:
    """Every table at once, each dropped when read: the last ones still read from their
    positions; the live partition goes on throughout."""
    async with Topics(bootstrap) as topics:
        live, *tables = await topics.create(*(unique(f"many-{n}", fetcher) for n in range(61)))
        for n, tp in enumerate(tables):
            await topics.append(tp, f"{n}-0", f"{n}-1")
        fetcher.track(tp.topic for tp in [live, *tables])
        fetcher.fetch_from(live, 0)
        for tp in tables:
            fetcher.fetch_from(tp, 1)
        read: dict[TopicPartition, list[str]] = {}
        for _ in range(100):
            for tp, records in (await fetcher.fetch(0.1)).items():
                read.setdefault(tp, []).extend(r.value.decode() for r in records)
                if tp != live:
                    fetcher.drop(tp)  # caught up
            if len(read) == len(tables):
                break
        assert read == {tp: [f"{n}-1"] for n, tp in enumerate(tables)}
        await topics.append(live, "l0")
        await topics.append(tables[0], "0-2")  # dropped: not fetched
        assert await fetch_until(fetcher, {live: 1}, rounds=10) == {live: ["l0"]}
        assert await fetch_until(fetcher, {}, rounds=3) == {}


async def test_where_partitions_end(bootstrap: str, fetcher: Any) -> None:
    async with Topics(bootstrap) as topics:
        a, b = await topics.create(unique("ends-a", fetcher), unique("ends-b", fetcher))
        await topics.append(a, "a0", "a1", "a2")
        fetcher.track([a.topic, b.topic])
        ends: dict[TopicPartition, int] = {}
        for _ in range(50):  # (the session fetcher leaves them out until looked up)
            ends = await fetcher.end_offsets([a, b])
            if ends:
                break
            await asyncio.sleep(0.1)
        assert ends == {a: 3, b: 0}
        missing = TopicPartition(unique("ends-missing", fetcher), 0)
        started = time.monotonic()
        assert await fetcher.end_offsets([a, missing]) == {a: 3}  # left out
        assert await fetcher.end_offsets([a, missing]) == {a: 3}
        assert time.monotonic() - started < 1  # not waited for


async def test_a_position_deleted_by_retention_is_read_on_from_the_first_record(
        bootstrap: str, fetcher: Any) -> None:
    """Before, the session fetcher asked for offset 0 again and again (error 1, "out of
    range"); a position past the end reads on from the end."""
    async with Topics(bootstrap) as topics:
        old, ahead = await topics.create(unique("retention", fetcher),
                                         unique("ahead", fetcher))
        await topics.append(old, *(str(n) for n in range(10)))
        await topics.admin.delete_records({old: RecordsToDelete(5)}, timeout_ms=10_000)
        await topics.append(ahead, "0", "1")
        fetcher.fetch_from(old, 0)
        fetcher.fetch_from(ahead, 7)
        assert await fetch_until(fetcher, {old: 5}) == {old: ["5", "6", "7", "8", "9"]}
        await topics.append(ahead, "2")
        assert await fetch_until(fetcher, {ahead: 1}) == {ahead: ["2"]}
