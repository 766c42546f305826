"""The records of one-partition topics as last read, kept for the next read.

A topic only grows: its records below the offset where it ended when read never change (a
table's topic keeps every event). So a topic's records can be kept by that offset exactly: the
next read of the topic asks only for what came after (one request, most often answered with
nothing new), and a read up to an offset already held (`until`) asks Kafka nothing. A read
still asks Kafka where the topic ends now, after it began, so a reader sees every event that
was acknowledged before its read (a seat reading right after its call sees the call).

Reads of one topic take turns (the second fetches only what the first did not bring); reads of
different topics run at once. What is held is bounded in bytes, the least recently read topics
let go first. Only raw records are held here, the same for every reader; what a reader may see
of them is decided later, per reader.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from services.common.kafka.reader import KafkaUnavailable, Record
from services.replay.kafka_topics import Fetched, OffsetGone

K = TypeVar("K")
V = TypeVar("V")
RECORD_OVERHEAD = 128  # bytes a held record costs besides its value (its objects), roughly


class TopicSource(Protocol):
    """Where records come from: `services.replay.kafka_topics.KafkaTopics`, or a fake."""

    async def fetch(self, topic: str, start: int) -> Fetched: ...


class Lru(Generic[K, V]):
    """Values by key, at most `max_bytes` of them by the sizes given; the least recently used
    let go first. A value larger than the whole bound is not kept."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is None:
            return None
        self._items.move_to_end(key)
        return found[0]

    def put(self, key: K, value: V, size: int) -> None:
        self.pop(key)
        if size > self.max_bytes:
            return
        self._items[key] = (value, size)
        self.bytes += size
        while self.bytes > self.max_bytes:
            _, (_, freed) = self._items.popitem(last=False)
            self.bytes -= freed

    def pop(self, key: K) -> None:
        found = self._items.pop(key, None)
        if found is not None:
            self.bytes -= found[1]


@dataclass(frozen=True)
class Held:
    """A topic's records below `end`: every one of them (never changed once held), and what
    they cost to hold (`size_of`)."""

    records: list[Record]
    end: int
    size: int

    def upto(self, until: int | None) -> list[Record]:
        """The records with offsets up to `until` (all when None): a new list."""
        if until is None:
            return list(self.records)
        return self.records[:bisect.bisect_right(self.records, until, key=lambda r: r[0])]


def size_of(records: list[Record]) -> int:
    return sum(len(value or b"") + RECORD_OVERHEAD for _, value in records)


class TopicCache:
    def __init__(self, source: TopicSource, max_bytes: int) -> None:
        self.source = source
        self.held: Lru[str, Held] = Lru(max_bytes)
        self._turns: dict[str, asyncio.Lock] = {}
        self._waiting: Counter[str] = Counter()

    async def read(self, topic: str, until: int | None = None) -> list[Record]:
        """The records of `topic` with offsets up to `until` (all when None), as a reader from
        the topic's start would find them now. `NoTableError` when there is no such topic,
        `KafkaUnavailable` when Kafka does not answer."""
        held = self.held.get(topic)
        if held is not None and until is not None and until < held.end:
            return held.upto(until)  # all there, and never to change
        async with self._turn(topic):
            held = self.held.get(topic)
            try:
                held = await self._catch_up(topic, held)
            except OffsetGone:
                if held is None:
                    raise
                self.held.pop(topic)  # a topic made again since: read from its start
                held = await self._catch_up(topic, None)
            self.held.put(topic, held, held.size)
        return held.upto(until)

    async def _catch_up(self, topic: str, held: Held | None) -> Held:
        """`held` with what the topic has after it, up to where the topic ended at the first
        request (later records may come too)."""
        position = held.end if held is not None else 0
        new: list[Record] = []
        target: int | None = None
        while target is None or position < target:
            got = await self.source.fetch(topic, position)
            target = got.end if target is None else target
            if got.next <= position and position < got.end:
                raise KafkaUnavailable(f"{topic}: nothing read at offset {position} although "
                                       f"it ends at {got.end}")
            new += got.records
            position = max(position, got.next)
        if held is None:
            return Held(new, position, size_of(new))
        if not new and position == held.end:
            return held  # nothing new: the same records
        return Held(held.records + new, position, held.size + size_of(new))

    @asynccontextmanager
    async def _turn(self, topic: str) -> AsyncIterator[None]:
        """One read of `topic` at a time (the next one finds what this one brought)."""
        lock = self._turns.setdefault(topic, asyncio.Lock())
        self._waiting[topic] += 1
        try:
            async with lock:
                yield
        finally:
            self._waiting[topic] -= 1
            if not self._waiting[topic]:
                del self._waiting[topic], self._turns[topic]
