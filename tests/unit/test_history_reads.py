"""`/history` reads in the gateway (api.md), with a fake Kafka: the cache of topics'
records (`services.replay.topic_cache`), the fold kept for every reader and the bound on reads
at once (`services.gateway.tables.history_reads`), a reader's view cut from the shared history
(`services.gateway.http.routes.reading`), and the decoding of a fetch's answer
(`services.replay.kafka_topics`)."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from aiokafka.record.default_records import DefaultRecordBatchBuilder
from hypothesis import given, settings, strategies as st

from services.common.kafka.reader import NoTableError, Record
from services.common.names import table_topic
from services.gateway.gates import Busy, Gate
from services.gateway.http.routes.reading import _as_seen
from services.gateway.tables import history_reads
from services.gateway.tables.history_reads import HistoryReads
from services.gateway.tables.views import board_for, entry_for
from services.gateway.tokens import Grant
from services.replay.history import build_history
from services.replay.kafka_topics import Fetched, OffsetGone, _decode
from services.replay.topic_cache import Lru, TopicCache, size_of
from shared.codec import encode, from_map
from tests.helpers import DEAL, wait_for_async


class FakeTopics:
    """One-partition topics in memory, fetched as `KafkaTopics` fetches them: at most
    `per_fetch` records an answer, and where the topic ends. `hold` (when set) keeps every
    fetch waiting until it is released."""

    def __init__(self, per_fetch: int = 1000) -> None:
        self.topics: dict[str, list[Record]] = {}
        self.per_fetch = per_fetch
        self.asked: list[tuple[str, int]] = []  # (topic, start) of each fetch
        self.hold: asyncio.Event | None = None
        self.in_flight = 0
        self.most_in_flight = 0

    def append(self, topic: str, *values: bytes) -> None:
        log = self.topics.setdefault(topic, [])
        log += [(len(log) + i, value) for i, value in enumerate(values)]

    async def fetch(self, topic: str, start: int) -> Fetched:
        self.asked.append((topic, start))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            if self.hold is not None:
                await self.hold.wait()
            if topic not in self.topics:
                raise NoTableError(f"no topic {topic}")
            log = self.topics[topic]
            if start > len(log):
                raise OffsetGone(f"{topic} has no offset {start}")
            found = log[start:start + self.per_fetch]
            return Fetched(found, start + len(found), len(log))
        finally:
            self.in_flight -= 1


def values(count: int, first: int = 0) -> list[bytes]:
    return [f"record {first + i}".encode() for i in range(count)]


def upto(records: list[Record], until: int | None) -> list[Record]:
    return [r for r in records if until is None or r[0] <= until]


# --- the cache of topics' records -----------------------------------------------------------


async def test_a_read_gives_the_topics_records_up_to_until() -> None:
    source = FakeTopics(per_fetch=7)  # a table read in several answers
    source.append("t", *values(30))
    cache = TopicCache(source, 1 << 20)
    for until in (None, 0, 6, 7, 29, 30, 500):
        assert await cache.read("t", until) == upto(source.topics["t"], until)


async def test_a_read_sees_what_was_appended_before_it_began_and_asks_only_for_that() -> None:
    source = FakeTopics()
    source.append("t", *values(10))
    cache = TopicCache(source, 1 << 20)
    assert len(await cache.read("t")) == 10
    source.append("t", *values(3, 10))
    source.asked.clear()
    assert await cache.read("t") == source.topics["t"]
    assert source.asked == [("t", 10)]  # from where the last read ended


async def test_a_read_up_to_an_offset_held_asks_kafka_nothing() -> None:
    source = FakeTopics()
    source.append("t", *values(10))
    cache = TopicCache(source, 1 << 20)
    await cache.read("t")
    source.asked.clear()
    assert await cache.read("t", until=4) == source.topics["t"][:5]
    assert source.asked == []
    assert await cache.read("t", until=10) == source.topics["t"]  # past the end held: asks
    assert source.asked == [("t", 10)]


async def test_reads_of_one_topic_take_turns_and_of_many_topics_run_at_once() -> None:
    source = FakeTopics()
    for topic in ("a", "b", "c"):
        source.append(topic, *values(5))
    cache = TopicCache(source, 1 << 20)
    source.hold = asyncio.Event()
    reads = [asyncio.create_task(cache.read(topic)) for topic in ("a", "a", "b", "c")]
    # the reads of a, b and c under way; the second a waits
    await wait_for_async(lambda: source.in_flight >= 3, 5, "three reads under way", every=0)
    assert sorted(source.asked) == [("a", 0), ("b", 0), ("c", 0)]
    source.hold.set()
    answers = await asyncio.gather(*reads)
    assert answers == [source.topics[t] for t in ("a", "a", "b", "c")]
    assert sorted(source.asked) == [("a", 0), ("a", 5), ("b", 0), ("c", 0)]
    assert source.most_in_flight == 3
    assert not cache._turns and not cache._waiting  # nothing left behind


async def test_what_is_held_is_bounded_the_least_recently_read_let_go() -> None:
    source = FakeTopics()
    for n in range(20):
        source.append(f"t{n}", *values(10))
    cache = TopicCache(source, 5_000)  # about three topics of ten records
    for n in range(20):
        assert await cache.read(f"t{n}") == source.topics[f"t{n}"]
    assert cache.held.bytes <= 5_000
    assert cache.held.get("t19") is not None and cache.held.get("t0") is None
    source.asked.clear()
    assert await cache.read("t0") == source.topics["t0"]  # read again from its start
    assert source.asked == [("t0", 0)]


async def test_a_missing_topic_is_no_table_and_nothing_is_held() -> None:
    cache = TopicCache(FakeTopics(), 1 << 20)
    with pytest.raises(NoTableError):
        await cache.read("nope")
    assert len(cache.held) == 0 and not cache._turns


async def test_a_topic_made_again_is_read_from_its_start() -> None:
    source = FakeTopics()
    source.append("t", *values(10))
    cache = TopicCache(source, 1 << 20)
    await cache.read("t")
    source.topics["t"] = []
    source.append("t", b"new")
    assert await cache.read("t") == [(0, b"new")]


async def test_a_topic_ending_below_what_is_held_keeps_it() -> None:
    """After a leader change the new leader's high watermark may lag for a moment: what was
    read below the old one stays (it was acknowledged), and nothing is read twice."""

    class Lagging(FakeTopics):
        async def fetch(self, topic: str, start: int) -> Fetched:
            return Fetched([], start, 4)

    source = FakeTopics()
    source.append("t", *values(10))
    cache = TopicCache(source, 1 << 20)
    await cache.read("t")
    cache.source = Lagging()
    assert await cache.read("t") == source.topics["t"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.none() | st.integers(0, 25),
                          st.integers(1, 4)), min_size=1, max_size=12),
       st.integers(1, 5), st.integers(300, 4_000))
def test_every_read_equals_a_read_of_the_whole_topic_now(
        steps: list[tuple[int, int | None, int]], per_fetch: int, max_bytes: int) -> None:
    """Appends and reads (several at once) of two topics, in any order, with any bound on
    what is held: each read gives what a reader of the whole topic would get then."""

    async def play() -> None:
        source = FakeTopics(per_fetch)
        cache = TopicCache(source, max_bytes)
        for appended, until, readers in steps:
            for topic in ("x", "y"):
                source.append(topic, *values(appended))
                expected = upto(source.topics[topic], until)
                answers = await asyncio.gather(*(cache.read(topic, until)
                                                 for _ in range(readers)))
                assert answers == [expected] * readers
            assert cache.held.bytes <= max_bytes
            for topic in ("x", "y"):
                held = cache.held.get(topic)
                assert held is None or held.size == size_of(held.records)

    asyncio.run(play())


def test_the_lru_keeps_its_bound_and_refuses_what_cannot_fit() -> None:
    lru: Lru[str, str] = Lru(10)
    lru.put("a", "A", 4)
    lru.put("b", "B", 4)
    assert lru.get("a") == "A"  # now the most recent
    lru.put("c", "C", 4)  # b, the least recent, goes
    assert (lru.get("a"), lru.get("b"), lru.get("c")) == ("A", None, "C")
    lru.put("big", "X", 11)
    assert lru.get("big") is None and lru.bytes == 8
    lru.put("a", "A2", 2)
    assert lru.get("a") == "A2" and lru.bytes == 6


# --- the bound on reads at once -------------------------------------------------------------


async def test_the_gate_refuses_past_its_limit_and_frees_a_slot_when_a_read_ends() -> None:
    gate = Gate(2, "history reads")
    async with gate.slot(), gate.slot():
        with pytest.raises(Busy, match="2 are under way") as refused:
            async with gate.slot():
                pass
        assert gate.taken == 2 and refused.value.retry_after == 1
    assert gate.taken == 0
    with pytest.raises(RuntimeError):  # a read that fails frees its slot too
        async with gate.slot():
            raise RuntimeError("Kafka away")
    assert gate.taken == 0
    async with gate.slot():
        assert gate.taken == 1


# --- the history, folded once for every reader ----------------------------------------------


def table_records() -> list[bytes]:
    maps: list[dict[str, Any]] = [
        {"type": "board_started", "board": 1, "deal": DEAL},
        {"type": "call", "seat": "N", "call": "1NT", "alert": True,
         "explanation": "15-17", "client_seq": 1, "id": "n-1"},
        {"type": "call", "seat": "E", "call": "P"},
        {"type": "explanation", "seat": "N", "index": 0, "explanation": "may hold a 5-card major"},
        {"type": "call", "seat": "S", "call": "2C", "alert": True, "explanation": "Stayman"},
    ]
    return [encode(from_map(m)) for m in maps]


async def test_a_tables_history_is_folded_once_for_all_its_readers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    folds: list[int] = []

    def counting(table: str, records: list[Record], *args: Any) -> dict[str, Any]:
        folds.append(len(records))
        return build_history(table, records, *args)

    monkeypatch.setattr(history_reads, "build_history", counting)
    source = FakeTopics()
    topic = table_topic("t1")
    source.append(topic, *table_records()[:3])
    reads = HistoryReads(TopicCache(source, 1 << 20), limit=8)
    documents = await asyncio.gather(*(reads.history("t1") for _ in range(4)))
    assert folds == [3] and all(d is documents[0] for d in documents)
    assert documents[0] == build_history("t1", source.topics[topic])
    source.append(topic, *table_records()[3:])  # the topic moved on: folded again
    assert await reads.history("t1") == build_history("t1", source.topics[topic])
    assert await reads.history("t1", until=1) == build_history(
        "t1", source.topics[topic][:2], None, 1)
    assert await reads.history("t1", board=1, states=True) == build_history(
        "t1", source.topics[topic], 1, None, True)
    assert folds == [3, 5, 2, 5]
    with pytest.raises(NoTableError, match="no table t2"):
        await reads.history("t2")


GRANTS = [Grant(None, None, "director"), Grant("t1", None, "operator"),
          Grant("t1", None, "spectator"), *(Grant("t1", seat, "seat") for seat in "NESW")]


async def test_each_reader_sees_his_own_view_and_the_shared_history_is_left_as_it_was(
        ) -> None:
    """The fold is every reader's; each read cuts its reader's view out of it into a new
    document: S never gets N's explanation of his own call, whoever read before him."""
    source = FakeTopics()
    source.append(table_topic("t1"), *table_records())
    reads = HistoryReads(TopicCache(source, 1 << 20), limit=8)
    shared = await reads.history("t1", board=1, states=True)
    pristine = copy.deepcopy(shared)
    for grant in GRANTS * 2:
        seen = _as_seen(grant, shared, 0, 0)
        fresh = build_history("t1", source.topics[table_topic("t1")], 1, None, True)
        assert seen["history"] == [entry_for(grant, e, 0, 0) for e in fresh["history"]]
        assert seen["state"] == board_for(grant, fresh["state"], 0, 0)
        assert shared == pristine
    south = _as_seen(Grant("t1", "S", "seat"), shared, 0, 0)
    assert "15-17" not in str(south) and "5-card major" not in str(south)
    assert "15-17" in str(_as_seen(Grant("t1", "E", "seat"), shared, 0, 0))


# --- a fetch's answer -----------------------------------------------------------------------


def batch(base: int, count: int) -> bytes:
    builder = DefaultRecordBatchBuilder(magic=2, compression_type=0, is_transactional=0,
                                        producer_id=-1, producer_epoch=-1, base_sequence=-1,
                                        batch_size=1 << 20)
    for i in range(count):
        builder.append(i, timestamp=None, key=None, value=f"v{base + i}".encode(), headers=[])
    data = bytearray(builder.build())
    data[0:8] = base.to_bytes(8, "big")  # the batch's first offset
    return bytes(data)


def test_a_fetchs_answer_gives_the_records_from_the_offset_asked_below_the_end() -> None:
    data = batch(0, 4) + batch(4, 4)
    got = _decode(data, 2, 7)  # a batch may begin before the offset asked
    assert got.records == [(i, f"v{i}".encode()) for i in range(2, 7)]
    assert (got.next, got.end) == (7, 7)
    cut = _decode(data[:-5], 0, 8)  # the last batch cut short by the size limit
    assert [offset for offset, _ in cut.records] == [0, 1, 2, 3] and cut.next == 4
    assert _decode(None, 8, 8) == Fetched([], 8, 8)
