"""Reading Kafka partitions with aiokafka's plain consumer, and where partitions end.

The same interface as `fetch_session.TableFetcher`, on aiokafka's public API only: an
`AIOKafkaConsumer` with a manual assignment (no group, nothing committed) fetches; a second one,
with no assignment, tells where partitions end, on connections of its own (a broker answers a
connection's requests in order: on the fetches' connection the question would wait behind a
fetch waiting for records).

The set of partitions fetched changes often: a shard's live partition always, and table topics
while they are caught up (at a shard's start all of them, then dropped one by one as each
catches up). `assign` replaces the consumer's whole assignment, forgets every position and
cancels the fetch in flight, so changes are gathered and applied at the next `fetch`: a
partition dropped is paused (it stays assigned, nothing is fetched for it), and the assignment
is renewed only when a partition not assigned yet is to be fetched, or when the paused ones
pile up (each costs the consumer's fetch routine a look at every turn); every position is
given again right after.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import Protocol

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import OffsetOutOfRangeError

log = logging.getLogger("tableserver.fetch")

MAX_PAUSED = 16  # partitions dropped but still assigned, at most, before the assignment is renewed
LOOKUP_S = 5.0  # the longest a topic's lookup (its partitions and leaders) is waited for
RETRY_S = 10.0  # a topic whose lookup gave up (no such topic yet) is looked up again after


class Record(Protocol):
    """A record fetched (aiokafka's `ConsumerRecord`, of which the fold reads these)."""

    @property
    def offset(self) -> int: ...

    @property
    def key(self) -> bytes | None: ...

    @property
    def value(self) -> bytes | None: ...


class TableFetcher:
    """Fetches the partitions it is given, each from its position on; and tells where
    partitions end."""

    def __init__(self, bootstrap: str, max_wait_ms: int = 100,
                 partition_max_bytes: int = 1024 * 1024) -> None:
        self.bootstrap = bootstrap
        self.max_wait_ms = max_wait_ms
        self.partition_max_bytes = partition_max_bytes
        self.positions: dict[TopicPartition, int] = {}  # the next offset to read
        self._consumer: AIOKafkaConsumer | None = None  # fetches
        self._offsets: AIOKafkaConsumer | None = None  # asks where partitions end
        self._assigned: set[TopicPartition] = set()  # the consumer's assignment
        self._paused: set[TopicPartition] = set()  # assigned, but dropped
        self._moved: dict[TopicPartition, int] = {}  # positions to give the consumer
        self._changed = False  # positions or partitions changed since the last fetch
        self._topics: set[str] = set()  # tracked
        self._lookups: dict[str, asyncio.Task[None]] = {}  # topics being looked up
        self._awaited: set[str] = set()  # tracked, first looked up: `end_offsets` waits
        self._failed: dict[str, float] = {}  # topic → when its last lookup gave up

    @property
    def consumer(self) -> AIOKafkaConsumer:
        assert self._consumer is not None, "start() first"
        return self._consumer

    @property
    def offsets(self) -> AIOKafkaConsumer:
        assert self._offsets is not None, "start() first"
        return self._offsets

    async def start(self) -> None:
        self._consumer = AIOKafkaConsumer(
            bootstrap_servers=self.bootstrap, group_id=None, enable_auto_commit=False,
            isolation_level="read_uncommitted",  # table topics: idempotent producers
            auto_offset_reset="none",  # out of range: raised, and found again here
            fetch_max_wait_ms=self.max_wait_ms,
            max_partition_fetch_bytes=self.partition_max_bytes,
            check_crcs=False)  # as the session fetcher: the broker checked them on append
        self._offsets = AIOKafkaConsumer(bootstrap_servers=self.bootstrap, group_id=None,
                                         enable_auto_commit=False,
                                         isolation_level="read_uncommitted")
        await self._consumer.start()
        await self._offsets.start()

    async def stop(self) -> None:
        lookups = list(self._lookups.values())
        for task in lookups:
            task.cancel()
        await asyncio.gather(*lookups, return_exceptions=True)
        for consumer in (self._consumer, self._offsets):
            if consumer is not None:
                await consumer.stop()

    def track(self, topics: Iterable[str]) -> None:
        """Look up the partitions of `topics` now: where they end may be asked at any time
        (and `end_offsets` waits for these first lookups)."""
        new = set(topics) - self._topics
        self._topics |= new
        for topic in new:
            self._look_up(topic)
            self._awaited.add(topic)

    def _look_up(self, topic: str) -> None:
        if topic not in self._lookups:
            self._lookups[topic] = asyncio.create_task(self._looking_up(topic))

    async def _looking_up(self, topic: str) -> None:
        """Have the offsets' consumer know `topic`'s partitions and leaders. Its public API
        has no other way than a question about one of them: asked of a partition its metadata
        does not know, it looks up that topic, then asks again. (Asked of many unknown
        partitions at once, it would look them up one topic per round: hence one question per
        topic, all at once, which share the lookups.)"""
        try:
            await asyncio.wait_for(self.offsets.end_offsets([TopicPartition(topic, 0)]),
                                   LOOKUP_S)
        except Exception as exc:  # e.g. no such topic (yet): looked up again later
            log.info("%s: not looked up: %r", topic, exc)
            self._failed[topic] = time.monotonic()
        finally:
            del self._lookups[topic]
            self._awaited.discard(topic)

    def fetch_from(self, tp: TopicPartition, position: int) -> None:
        """Fetch `tp` from `position` on."""
        self.positions[tp] = position
        self._moved[tp] = position
        self._changed = True

    def drop(self, tp: TopicPartition) -> None:
        """Fetch `tp` no more."""
        if self.positions.pop(tp, None) is not None:
            self._moved.pop(tp, None)
            self._changed = True

    def _known(self, tp: TopicPartition) -> bool:
        return tp.partition in (self.offsets.partitions_for_topic(tp.topic) or ())

    async def end_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        """The offset after the last record of each partition; a partition whose topic is
        not known yet is left out (and looked up, in the background: a later question will
        find it), unless its topic was just tracked: then its lookup is waited for."""
        partitions = list(partitions)
        first = {self._lookups[tp.topic] for tp in partitions if tp.topic in self._awaited}
        if first:
            await asyncio.wait(first, timeout=LOOKUP_S)
        known = [tp for tp in partitions if self._known(tp)]
        if len(known) < len(partitions):
            now = time.monotonic()
            for topic in {tp.topic for tp in partitions} - {tp.topic for tp in known}:
                if now - self._failed.get(topic, -RETRY_S) >= RETRY_S:
                    self._look_up(topic)
        if not known:
            return {}
        ends: dict[TopicPartition, int] = await self.offsets.end_offsets(known)
        return ends

    async def fetch(self, timeout: float) -> dict[TopicPartition, list[Record]]:
        """The records that arrive within `timeout` seconds (an empty dict if none do)."""
        if self._changed:
            self._apply_changes()
        if not self.positions:
            await asyncio.sleep(timeout)
            return {}
        try:
            batches = await self.consumer.getmany(timeout_ms=round(timeout * 1000))
        except OffsetOutOfRangeError as exc:
            await self._find_again(exc.args[0])
            return {}
        records: dict[TopicPartition, list[Record]] = {}
        for tp, found in batches.items():
            position = self.positions.get(tp)
            if position is None or not found:
                continue
            if found[0].offset < position:  # not expected: the consumer was given `position`
                found = [record for record in found if record.offset >= position]
                if not found:
                    continue
            records[tp] = found
            self.positions[tp] = found[-1].offset + 1
        return records

    def _apply_changes(self) -> None:
        """Give the consumer the partitions and positions changed since the last fetch."""
        self._changed = False
        consumer = self.consumer
        dropped = self._assigned - self.positions.keys()
        if len(dropped) > MAX_PAUSED or not self.positions.keys() <= self._assigned:
            self._assigned = set(self.positions)
            consumer.assign(list(self._assigned))  # every position forgotten: given again
            for tp, position in self.positions.items():
                consumer.seek(tp, position)
            self._paused.clear()
            self._moved.clear()
            return
        for tp in dropped - self._paused:
            consumer.pause(tp)
            self._paused.add(tp)
        for tp, position in self._moved.items():
            if tp in self._paused:
                consumer.resume(tp)
                self._paused.discard(tp)
            consumer.seek(tp, position)
        self._moved.clear()

    async def _find_again(self, out_of_range: dict[TopicPartition, int]) -> None:
        """Positions the broker no longer has (the live copies are kept an hour: a worker
        paused longer asks for deleted records): read on from the partition's first record,
        or from its end if the position was past it. A copy passed over costs nothing: the
        table topics are the record, and a shard's sweep finds what no copy announced."""
        partitions = [tp for tp in out_of_range if tp in self.positions]
        if not partitions:
            return
        starts = await self.offsets.beginning_offsets(partitions)
        ends = await self.offsets.end_offsets(partitions)
        for tp in partitions:
            position = self.positions.get(tp)
            if position is None or tp not in starts or tp not in ends:
                continue
            found = min(max(position, starts[tp]), ends[tp])
            log.warning("%s: offset %d out of range; reading on from %d", tp, position, found)
            self.positions[tp] = found
            self._moved[tp] = found
            self._changed = True
