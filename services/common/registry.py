"""The table registry: the one module that reads and writes tables' records.

A table's record (`TableRecord`: `table`, `ruleset`, `created`, and `tournament` for a
tournament's table) is kept twice: in the registry topic (`tableserver.tables`, compacted, in
the partition of the table's shard: the processor's and the record that lasts) and in a Redis
hash (`tableserver:tables`: the gateways' copy, which a Redis that lost its data lacks until a
worker or a gateway writes it again). Everything else asks here: the gateway (a table created,
a tournament's tables, a record looked up), the importer (`tableserver import`), the processor
(a shard's tables, a table registered, Redis written again after a loss, through
`services.common.store.RedisStore`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, cast

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaError

from services.common.kafka.admin import create_table_topic
from services.common.kafka.produce import acknowledged, send
from services.common.kafka.reader import KafkaUnavailable, read_partition
from services.common.names import REGISTRY, TABLES_SET, shard_of
from services.common.redis_connect import AnyRedis
from services.common.redis_faults import translating

TableRecord = dict[str, Any]  # "table", "ruleset", "created" (ms), and "tournament" if any


def new_record(table: str, ruleset: str, tournament: str | None = None,
               created: int | None = None) -> TableRecord:
    """A table's record as it is made (created now unless `created` is given)."""
    record: TableRecord = {"table": table, "ruleset": ruleset,
                           "created": int(time.time() * 1000) if created is None else created}
    if tournament is not None:
        record["tournament"] = tournament
    return record


def parse(value: bytes | str) -> TableRecord:
    """A record as the registry topic or Redis holds it (orjson: a tournament's 2,000
    records, read every second for the public's boards, were 5 % of the gateway's loop
    with the stdlib's parser)."""
    return dict(orjson.loads(value))


def _dump(record: TableRecord) -> str:
    return json.dumps(record)


# --- the registry topic ------------------------------------------------------------------------

async def register(producer: AIOKafkaProducer, records: Mapping[str, TableRecord], shards: int,
                   timeout_s: float | None = None, doing: str = "register the tables",
                   then: str = "retry") -> None:
    """The records appended to the registry topic (each in its table's shard), all sent at
    once; `Unavailable` when Kafka does not acknowledge them (within `timeout_s` if given).
    A table registered again is harmless: the processor knows it."""
    sent = [await send(producer, REGISTRY, _dump(record).encode(), key=table.encode(),
                       partition=shard_of(table, shards), doing=doing, then=then)
            for table, record in records.items()]
    await acknowledged(sent, timeout_s, doing=doing, then=then)


async def registered(bootstrap: str, table: str, shards: int) -> TableRecord | None:
    """`table`'s record in the registry topic (compacted: the last record of each table), or
    None when it was never registered. The registry is the tables' record; Redis holds a copy
    that a restart without persistence loses."""
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                                request_timeout_ms=10_000)
    try:
        await consumer.start()
        tp = TopicPartition(REGISTRY, shard_of(table, shards))
        mine = [record.value for record in await read_partition(consumer, tp, None, None)
                if record.key == table.encode() and record.value]
        return parse(mine[-1]) if mine else None
    except KafkaError as exc:
        raise KafkaUnavailable.of(bootstrap, exc) from None
    finally:
        await consumer.stop()


async def shard_records(read: Callable[[str], Awaitable[Mapping[str, bytes]]]
                        ) -> dict[str, TableRecord]:
    """A shard's tables' records, with `read(topic)`: the latest value of each key in the
    shard's partition of a topic (the processor's `ShardLog.read`)."""
    return {table: parse(value) for table, value in (await read(REGISTRY)).items()}


def shards_in(partitions: Iterable[Any]) -> set[int]:
    """The shards among assigned partitions (objects with `topic` and `partition`): the
    registry's partitions are the shards."""
    return {tp.partition for tp in partitions if tp.topic == REGISTRY}


# --- Redis's copy ------------------------------------------------------------------------------

@translating  # Redis's errors leave as `StoreUnavailable`, as below
async def claim(redis: AnyRedis, records: Mapping[str, TableRecord]) -> dict[str, TableRecord]:
    """Each record written to Redis unless its table has one there: the records that stand
    (those found, and the new ones), in one round trip (then one more for those found)."""
    tables = list(records)
    async with redis.pipeline(transaction=False) as pipe:
        for table in tables:
            pipe.hsetnx(TABLES_SET, table, _dump(records[table]))
        fresh = await pipe.execute()
    standing = dict(records)
    taken = [t for t, new in zip(tables, fresh, strict=True) if not new]
    if taken:
        existing = await redis.hmget(TABLES_SET, taken)
        for table, raw in zip(taken, existing, strict=True):
            if raw:  # (gone since: ours stands)
                standing[table] = parse(raw)
    return standing


@translating
async def remember(redis: AnyRedis, records: Mapping[str, TableRecord]) -> None:
    """The records written to Redis (again), whatever is there."""
    if records:
        await redis.hset(TABLES_SET, mapping={t: _dump(r) for t, r in records.items()})


@translating
async def record_of(redis: AnyRedis, table: str) -> TableRecord | None:
    raw = await redis.hget(TABLES_SET, table)
    return None if raw is None else parse(raw)


@translating
async def records_of(redis: AnyRedis, tables: list[str]) -> dict[str, TableRecord]:
    """The records Redis has of `tables` (table → record), in one `HMGET`."""
    if not tables:
        return {}
    found = cast(list[bytes | None], await redis.hmget(TABLES_SET, tables))
    return {table: parse(raw) for table, raw in zip(tables, found, strict=True) if raw}


@translating
async def all_records(redis: AnyRedis) -> dict[str, TableRecord]:
    """Every table's record Redis has (table → record)."""
    found = cast(dict[bytes, bytes], await redis.hgetall(TABLES_SET))
    return {table.decode(): parse(raw) for table, raw in found.items()}


# --- a table made ------------------------------------------------------------------------------

async def create_table(admin: AIOKafkaAdminClient, producer: AIOKafkaProducer, redis: AnyRedis,
                       table: str, ruleset: str, replication: int, shards: int
                       ) -> TableRecord:
    """Create `table`, or find it: its topic, its record in Redis (for the gateway) and in the
    registry (for the processor). A table that exists keeps its record; registering it again
    is harmless (the processor knows it). Used by the gateway and by `tableserver import`."""
    await create_table_topic(admin, table, replication)
    record = (await claim(redis, {table: new_record(table, ruleset)}))[table]
    await register(producer, {table: record}, shards, doing="register the table")
    return record
