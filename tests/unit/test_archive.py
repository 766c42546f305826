"""A closed table's archive (services/common/archive.py): its records packed in chunks, read
back exactly, checked by count and checksum; and the processor letting an archived table go
(services/processor/shard.py). No Kafka."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

import pytest
from aiokafka import TopicPartition

from services.common import archive
from services.common.kafka.reader import Record
from services.common.names import REGISTRY, table_topic
from services.gateway.tables.closing import in_play
from services.processor.shard import ShardRunner
from shared.codec import encode, from_map
from tests.fakes import MemoryFetcher, MemoryKafka, MemoryShardLog
from tests.script import log


def _records(count: int, size: int = 40) -> list[Record]:
    return [(n, bytes([n % 251]) * size) for n in range(count)]


def _stored(table: str, records: list[Record], first: int = 7
            ) -> tuple[dict[int, bytes], archive.Pointer]:
    """The chunks as an archive topic would hold them from offset `first`, and the pointer."""
    chunks = archive.pack(table, records)
    topic = {first + n: value for n, value in enumerate(chunks)}
    end = records[-1][0] + 1 if records else 0
    return topic, archive.pointer(list(topic), records, end)


def _fetcher(topic: dict[int, bytes]) -> Callable[[int], Awaitable[list[Record]]]:
    async def fetch(offset: int) -> list[Record]:
        found: list[Record] = [(at, v) for at, v in sorted(topic.items()) if at >= offset]
        return found[:2]
    return fetch


async def test_records_read_back_from_their_chunks_are_the_records() -> None:
    records = [*_records(30), (30, None), (31, b"")]
    topic, where = _stored("t1", records)
    assert len(topic) == 1 and where["count"] == 32 and where["end"] == 32
    assert await archive.read_archive(_fetcher(topic), "t1", where) == records
    assert await archive.read_archive(_fetcher(topic), "t1", where, until=4) == records[:5]


async def test_a_long_table_is_split_into_chunks_kept_in_order() -> None:
    records = _records(3000, size=500)  # 1.5 MB of values
    topic, where = _stored("t1", records)
    assert len(topic) == -(-3000 * 516 // archive.CHUNK_BYTES)
    assert all(len(value) < archive.CHUNK_BYTES + 1024 for value in topic.values())
    assert await archive.read_archive(_fetcher(topic), "t1", where) == records


async def test_a_changed_missing_or_foreign_chunk_is_refused() -> None:
    records = _records(10)
    topic, where = _stored("t1", records)
    other, _ = _stored("t2", records)
    with pytest.raises(archive.ArchiveError, match="another record"):
        await archive.read_archive(_fetcher(other), "t1", where)
    changed, _ = _stored("t1", [*records[:9], (9, b"changed")])
    with pytest.raises(archive.ArchiveError, match="checksum"):
        await archive.read_archive(_fetcher(changed), "t1", where)
    with pytest.raises(archive.ArchiveError, match="no record at offset 7"):
        await archive.read_archive(_fetcher({8: topic[7]}), "t1", where)
    with pytest.raises(archive.ArchiveError, match="unreadable"):
        await archive.read_archive(_fetcher({7: b"\xc1"}), "t1", where)


def test_the_checksum_covers_offsets_and_values() -> None:
    records = _records(5)
    assert archive.checksum(records) != archive.checksum([(n + 1, v) for n, v in records])
    assert archive.checksum(records) != archive.checksum([*records[:4], (4, b"x")])
    assert archive.checksum([(0, b"ab"), (1, b"c")]) != archive.checksum([(0, b"a"),
                                                                          (1, b"bc")])


def _log(script: str) -> list[Record]:
    return [(n, encode(from_map(e))) for n, e in enumerate(log(script))]


def test_a_board_in_play_is_told_from_one_over() -> None:
    assert in_play("t", _log("N 1S, E P"))
    assert not in_play("t", _log("N P, E P, S P, W P"))
    assert not in_play("t", [])


async def test_the_processor_lets_an_archived_table_go_and_never_takes_it_back() -> None:
    kafka = MemoryKafka(4)
    fetcher = MemoryFetcher(kafka)
    runner = ShardRunner(1, fetcher, MemoryShardLog(kafka, 1))
    await runner.prepare()
    meta = {"table": "t1", "ruleset": "duplicate", "created": 1}
    runner.add_table(meta)
    tp = TopicPartition(table_topic("t1"), 0)
    fetcher.fetch_from(tp, 0)
    runner.add_table({**meta, "closed": 2})  # closed, still folded until archived
    assert "t1" in runner.tables
    runner.add_table({**meta, "closed": 2, "archive": {"offsets": [0]}})
    assert "t1" not in runner.tables and tp not in fetcher.positions
    runner.add_table(meta)  # an older record delivered late: it stays gone
    assert "t1" not in runner.tables
    records, _ = runner.everything()
    assert records["t1"]["archive"] == {"offsets": [0]}  # Redis gets its record again


async def test_a_worker_starting_after_a_close_never_reads_the_closed_tables_topic() -> None:
    kafka = MemoryKafka(4)
    for table, more in (("t1", {}), ("t2", {"closed": 2, "archive": {"offsets": [3]}})):
        kafka.append(REGISTRY, table.encode(), json.dumps(
            {"table": table, "ruleset": "duplicate", "created": 1, **more}).encode(), 1)
    runner = ShardRunner(1, MemoryFetcher(kafka), MemoryShardLog(kafka, 1))
    await runner.prepare()
    assert list(runner.tables) == ["t1"] and list(runner.archived) == ["t2"]
    assert runner.table_partitions() == [TopicPartition(table_topic("t1"), 0)]


def test_a_closed_tables_topic_gone_is_information_not_an_error() -> None:
    from services.common.log_repeats import GONE, GoneTables

    def record(topic: str) -> logging.LogRecord:
        return logging.LogRecord("aiokafka.cluster", logging.ERROR, "", 0, GONE, (topic,), None)
    gone, other = record(table_topic("t1")), record("tableserver.alerts")
    assert GoneTables().filter(gone) and GoneTables().filter(other)
    assert (gone.levelno, gone.levelname) == (logging.INFO, "INFO")
    assert other.levelno == logging.ERROR
