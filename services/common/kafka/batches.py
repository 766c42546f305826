"""Decoding a fetch's answer: the record batches Kafka sends for one partition, as records.

One decoder for the processor's session fetcher (`services.processor.fetch_session`: the hot
path) and the history reader (`services.replay.kafka_topics`). It keeps the records from the
offset asked on (a batch may begin before it) and below `end` when one is given (where the
partition ended when it was read), leaves out control batches (transaction markers) as a
consumer does, and stops at a batch cut short by the size limit (fetched again from there);
it answers the offset to fetch next. Measured (bench/decode_bench.py, docs/performance-log.md):
twice the records a second of the fetcher's own decoder before, mostly by `Record`, a slotted
dataclass that is not frozen (a frozen one costs three times as much to make: 512 ns against
172 ns); a path taking a batch wholly in range without a test per record was slower for
batches of one record (a live copy's usual batch) and no faster for others, so there is none.
The history reader has its pairs (offset, value) made at once (`make`): a `Record` made and
then turned into a pair halved its rate for batches of 10 records or more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from aiokafka.record.memory_records import MemoryRecords


@dataclass(slots=True)
class Record:
    """A record as a fetch gives it (not frozen, for speed: nothing changes one)."""

    offset: int
    key: bytes | None
    value: bytes | None


T = TypeVar("T")


@overload
def decode(data: bytes | None, start: int, end: int | None = None) -> tuple[list[Record], int]:
    ...


@overload
def decode(data: bytes | None, start: int, end: int | None,
           make: Callable[[int, bytes | None, bytes | None], T]) -> tuple[list[T], int]: ...


def decode(data: bytes | None, start: int, end: int | None = None,
           make: Callable[[int, bytes | None, bytes | None], Any] = Record
           ) -> tuple[list[Any], int]:
    """The records of `data` (a partition's record batches) from offset `start` on, below
    `end` if given, each made by `make(offset, key, value)` (a `Record` unless told); and the
    offset to fetch next (at least `start`, at most `end`)."""
    records: list[Any] = []
    position = start
    if not data:
        return records, position
    append, record_of = records.append, make
    batches = MemoryRecords(data)
    while batches.has_next():
        batch = batches.next_batch()
        if batch is None:  # a batch cut short by the size limit: fetched again from there
            break
        following = batch.next_offset
        if not batch.is_control_batch:
            for r in batch:
                offset = r.offset
                if offset >= start and (end is None or offset < end):
                    append(record_of(offset, r.key, r.value))
        if end is not None and following > end:
            following = end
        if following > position:
            position = following
    return records, position
