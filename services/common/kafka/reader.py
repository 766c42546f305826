"""Reading a table's topic from the start, up to an offset: the table's whole history."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import KafkaError

from services.common.kafka_faults import not_reached
from services.common.names import table_topic

Record = tuple[int, bytes | None]  # offset, value


class NoTableError(LookupError):
    """The table has no topic: it was never created."""


class KafkaUnavailable(RuntimeError):
    """The broker could not be reached or answered with an error; the message says which, in
    one line (`kafka_faults.not_reached` tells them, as for `LogUnavailable`). A reader's own:
    its callers answer it with their own 503s."""

    @classmethod
    def of(cls, bootstrap: str, exc: KafkaError) -> KafkaUnavailable:
        if not_reached(exc):
            return cls(f"Kafka at {bootstrap} is unreachable")
        return cls(f"Kafka at {bootstrap} answered with an error: {exc}")


async def read_partition(consumer: AIOKafkaConsumer, tp: TopicPartition, start: int | None,
                         stop: int | None) -> list[Any]:
    """The records of `tp` from offset `start` (its first when None) up to before `stop` (its
    end when None, and never past it), with a consumer already started: assigned `tp`."""
    consumer.assign([tp])
    if start is None:
        await consumer.seek_to_beginning(tp)
    else:
        consumer.seek(tp, start)
    end = (await consumer.end_offsets([tp]))[tp]
    stop = end if stop is None else min(stop, end)
    records: list[Any] = []
    while await consumer.position(tp) < stop:
        batch = await consumer.getmany(tp, timeout_ms=1000)
        records += [record for record in batch.get(tp, []) if record.offset < stop]
    return records


class TableReader:
    """A consumer to read tables' topics, one read at a time (a read assigns the consumer the
    table's partition): the command line makes one for one read (`read_table`). Not for many
    reads: each read after the first waits for the fetch in flight for the previous table,
    which the broker holds up to `fetch_max_wait_ms` (500 ms) when it has no records; the
    gateway reads with `services.replay.kafka_topics` instead."""

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap
        self.consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                         max_partition_fetch_bytes=16 * 1024 * 1024,
                                         fetch_max_bytes=64 * 1024 * 1024,
                                         request_timeout_ms=10_000)
        self.lock = asyncio.Lock()

    async def start(self) -> None:
        try:
            await self.consumer.start()
        except KafkaError as exc:
            await self.consumer.stop()  # what it opened, and no "Unclosed" warning later
            raise KafkaUnavailable.of(self.bootstrap, exc) from None

    async def stop(self) -> None:
        await self.consumer.stop()

    async def read(self, table: str, until: int | None = None) -> list[Record]:
        """The records of `table`'s topic with offsets up to `until` (all when None)."""
        async with self.lock:
            try:
                return await self._read(table, until)
            except KafkaError as exc:
                raise KafkaUnavailable.of(self.bootstrap, exc) from None

    async def _read(self, table: str, until: int | None) -> list[Record]:
        return await self._read_topic(table_topic(table), until, f"no table {table}")

    async def _read_topic(self, topic: str, until: int | None, missing: str) -> list[Record]:
        consumer = self.consumer
        # The metadata of every topic is known since the consumer started: it is asked again
        # only for a topic that may have been created since.
        if consumer.partitions_for_topic(topic) is None and topic not in await consumer.topics():
            raise NoTableError(f"{missing} (no topic {topic})")
        found = await read_partition(consumer, TopicPartition(topic, 0), None,
                                     None if until is None else until + 1)
        return [(record.offset, record.value) for record in found]


async def read_topics(bootstrap: str, topics: list[str],
                      starts: Mapping[str, int] | None = None) -> dict[str, list[Record]]:
    """The records of many one-partition topics at once (a tournament's tables, for its
    export), with one consumer assigned them all: one fetch carries many tables. Each topic
    from its offset in `starts` (0 when not there): a reader that has folded a table's
    records so far reads only what came since (a topic's records never change), and a topic
    with nothing new is not fetched."""
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                max_partition_fetch_bytes=16 * 1024 * 1024,
                                fetch_max_bytes=64 * 1024 * 1024, request_timeout_ms=30_000)
    found: dict[str, list[Record]] = {topic: [] for topic in topics}
    try:
        await consumer.start()
        tps = [TopicPartition(topic, 0) for topic in topics]
        consumer.assign(tps)
        ends = await consumer.end_offsets(tps)
        first = {tp: (starts or {}).get(tp.topic, 0) for tp in tps}
        for tp in tps:  # a table's topic keeps every event: it starts at 0 (seek_to_beginning
            consumer.seek(tp, first[tp])  # of many partitions at once left some unfetched)
        left = {tp for tp in tps if ends[tp] > first[tp]}
        while left:
            for tp, records in (await consumer.getmany(*left, timeout_ms=1000)).items():
                found[tp.topic] += [(r.offset, r.value) for r in records if r.offset < ends[tp]]
                if records and records[-1].offset + 1 >= ends[tp]:
                    left.discard(tp)
        return found
    except KafkaError as exc:
        raise KafkaUnavailable.of(bootstrap, exc) from None
    finally:
        await consumer.stop()


async def read_table(bootstrap: str, table: str, until: int | None = None) -> list[Record]:
    """The records of `table`'s topic with offsets up to `until` (all when None), in order,
    read with a consumer of its own."""
    reader = TableReader(bootstrap)
    await reader.start()
    try:
        return await reader.read(table, until)
    finally:
        await reader.stop()
