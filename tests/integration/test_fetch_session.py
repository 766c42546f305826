"""The processor's session fetcher (services/processor/fetch_session.py) on the real broker:
a Kafka cluster of its own, three nodes (ports 21092-21097), so that a leader can move
(performance.md). A session is opened by a full fetch and fetched incrementally after; a
partition dropped is forgotten; the broker's session errors (70, 71) are recovered from with a
full fetch; a partition whose leader moved is fetched from its new leader; a position the
broker no longer has is found again; positions are kept while the partitions fetched change;
and where partitions end is told, those not known yet left out."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.records_to_delete import RecordsToDelete
from aiokafka.errors import NotLeaderForPartitionError
from aiokafka.structs import TopicPartition

from services.common.kafka.admin import leaders_elected
from services.processor import fetch_session
from services.processor.fetch_session import TableFetcher, _SessionFetch
from tests.helpers import wait_for, wait_for_async
from tests.stack import _deploy, kafka_pidfile

SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))  # as conftest.py's
KAFKA_PORT = 21092 + SHIFT  # three nodes: 21092-21097, with the shift


class Cluster:
    """Kafka's three nodes (KRaft, three voters), started by the deploy scripts; a node is
    stopped and started again at will."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.env = {**os.environ, "TABLESERVER_DATA": str(data),
                    "TABLESERVER_KAFKA_PORT": str(KAFKA_PORT), "TABLESERVER_KAFKA_BROKERS": "3"}
        self.bootstrap = f"127.0.0.1:{KAFKA_PORT}"

    def start(self) -> None:
        """Start the nodes not running; returns once every broker is registered."""
        _deploy("kafka/start.sh", self.env)

    def stop(self, node: int) -> None:
        """A controlled shutdown (SIGTERM): the broker hands its partitions' leadership over
        first."""
        pid = int(kafka_pidfile(self.data, node).read_text())
        os.kill(pid, signal.SIGTERM)
        wait_for(lambda: _gone(pid), 60, f"Kafka node {node} stopped")

    def stop_all(self) -> None:
        _deploy("kafka/stop.sh", self.env)


def _gone(pid: int) -> bool:
    """The process has exited (a zombie until init reaps it)."""
    try:
        return "zombie" in Path(f"/proc/{pid}/status").read_text().lower()
    except FileNotFoundError:
        return True


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("fetch-session-kafka"))
    try:
        running.start()
        yield running
    finally:
        running.stop_all()


@pytest.fixture
async def fetcher(cluster: Cluster) -> AsyncIterator[TableFetcher]:
    fetcher = TableFetcher(cluster.bootstrap)
    await fetcher.start()
    try:
        yield fetcher
    finally:
        await fetcher.stop()


@pytest.fixture
async def topics(cluster: Cluster) -> AsyncIterator[Topics]:
    async with Topics(cluster.bootstrap) as made:
        yield made


class Topics:
    """Topics made for a test, and records appended to them."""

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

    async def create(self, *names: str, replicas: list[int] | None = None
                     ) -> list[TopicPartition]:
        """One-partition topics, on the brokers `replicas` (its first the leader) or where
        Kafka puts them."""
        await self.admin.create_topics([
            NewTopic(name, -1, -1, replica_assignments={0: replicas}) if replicas
            else NewTopic(name, 1, 1) for name in names])
        await leaders_elected(self.admin, list(names))  # (a deletion at once found none)
        return [TopicPartition(name, 0) for name in names]

    async def delete_before(self, tp: TopicPartition, offset: int) -> None:
        """The records of `tp` before `offset` deleted. The admin asks a broker's metadata
        for the partition's leader, and a new topic reaches each broker's metadata a moment
        after its leader is elected (`leaders_elected` asked another one): until then the
        admin raises NotLeaderForPartitionError before sending anything, so it asks again."""
        deadline = time.monotonic() + 30
        while True:
            try:
                await self.admin.delete_records({tp: RecordsToDelete(offset)}, timeout_ms=10_000)
                return
            except NotLeaderForPartitionError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)  # the poll's interval

    async def append(self, tp: TopicPartition, *values: str) -> None:
        for value in values:
            await self.producer.send_and_wait(tp.topic, value.encode(), partition=tp.partition)


@dataclass
class Sent:
    node: int
    session: int
    epoch: int
    named: set[TopicPartition]  # the partitions the request names (with their offsets)
    forgotten: set[TopicPartition]
    response: Any


class Spy:
    """The fetch requests a fetcher sends and the answers it gets."""

    def __init__(self, fetcher: TableFetcher) -> None:
        self.sent: list[Sent] = []
        send = fetcher.client.send

        async def spying(node: int, request: Any, **kwargs: Any) -> Any:
            response = await send(node, request, **kwargs)
            if isinstance(request, _SessionFetch):
                *_, session, epoch, topics, forgotten = request.args
                self.sent.append(Sent(
                    node, session, epoch,
                    {TopicPartition(t, p[0]) for t, parts in topics for p in parts},
                    {TopicPartition(t, p) for t, parts in forgotten for p in parts}, response))
            return response

        fetcher.client.send = spying


async def fetch_until(fetcher: TableFetcher, want: dict[TopicPartition, int],
                      rounds: int = 100) -> dict[TopicPartition, list[str]]:
    """The values fetched, by partition, until each of `want` has that many (or `rounds`)."""
    got: dict[TopicPartition, list[str]] = {}
    for _ in range(rounds):
        for tp, records in (await fetcher.fetch(0.1)).items():
            got.setdefault(tp, []).extend(
                record.value.decode() for record in records if record.value is not None)
        if all(len(got.get(tp, [])) >= n for tp, n in want.items()):
            break
    return got


async def two_tables_read(fetcher: TableFetcher, topics: Topics, name: str
                          ) -> tuple[TopicPartition, TopicPartition, Spy]:
    """Two topics on broker 1, a record each, fetched; the spy set on before."""
    a, b = await topics.create(f"{name}-a", f"{name}-b", replicas=[1])
    await topics.append(a, "a0")
    await topics.append(b, "b0")
    spy = Spy(fetcher)
    fetcher.fetch_from(a, 0)
    fetcher.fetch_from(b, 0)
    assert await fetch_until(fetcher, {a: 1, b: 1}) == {a: ["a0"], b: ["b0"]}
    return a, b, spy


async def test_a_session_is_opened_by_a_full_fetch_and_then_only_news_are_sent(
        fetcher: TableFetcher, topics: Topics) -> None:
    a, b, spy = await two_tables_read(fetcher, topics, "incremental")
    opening = spy.sent[0]
    assert (opening.session, opening.epoch, opening.named) == (0, 0, {a, b})  # full
    session = opening.response.session_id
    assert session != 0  # the broker opened one
    spy.sent.clear()
    for _ in range(3):
        await fetcher.fetch(0.3)  # nothing new
    await topics.append(a, "a1")
    assert await fetch_until(fetcher, {a: 1}) == {a: ["a1"]}
    await fetcher.fetch(0.3)  # the request after it
    assert {sent.session for sent in spy.sent} == {session}
    assert [sent.response.error_code for sent in spy.sent] == [0] * len(spy.sent)
    epochs = [sent.epoch for sent in spy.sent]
    assert epochs == list(range(epochs[0], epochs[0] + len(epochs)))  # one after the other
    assert spy.sent[0].named == {a, b}  # both moved past their first record
    assert set() in [sent.named for sent in spy.sent[1:]]  # nothing moved: nothing named
    assert all(sent.named <= {a} for sent in spy.sent[1:])
    assert spy.sent[-1].named == {a}  # moved past a1
    assert not any(sent.forgotten for sent in spy.sent)


async def test_a_partition_dropped_is_forgotten_then_fetched_again_from_where_asked(
        fetcher: TableFetcher, topics: Topics) -> None:
    a, b, spy = await two_tables_read(fetcher, topics, "forgotten")
    session = spy.sent[-1].response.session_id
    spy.sent.clear()
    fetcher.drop(b)
    await topics.append(b, "b1", "b2")
    await topics.append(a, "a1")
    assert await fetch_until(fetcher, {a: 1}) == {a: ["a1"]}
    assert await fetch_until(fetcher, {}, rounds=3) == {}  # b1, b2: not fetched
    assert [sent.forgotten for sent in spy.sent if sent.forgotten] == [{b}]  # once
    assert spy.sent[0].forgotten == {b} and b not in spy.sent[0].named
    assert {sent.session for sent in spy.sent} == {session}  # the same session
    node = fetcher.client.cluster.leader_for_partition(a)
    assert set(fetcher.sessions[node].sent or {}) == {a}
    fetcher.fetch_from(b, 2)  # again, from a position of our choosing
    assert await fetch_until(fetcher, {b: 1}) == {b: ["b2"]}


@pytest.mark.parametrize(("corrupt", "error"), [("id", 70), ("epoch", 71)])
async def test_a_session_the_broker_does_not_know_is_opened_again_by_a_full_fetch(
        fetcher: TableFetcher, topics: Topics, corrupt: str, error: int) -> None:
    """70: FETCH_SESSION_ID_NOT_FOUND (the broker evicted it, or restarted); 71:
    INVALID_FETCH_SESSION_EPOCH (a request lost). No record lost or read twice."""
    (a,) = await topics.create(f"session-error-{error}", replicas=[1])
    await topics.append(a, "a0")
    spy = Spy(fetcher)
    fetcher.fetch_from(a, 0)
    assert await fetch_until(fetcher, {a: 1}) == {a: ["a0"]}
    assert not fetcher.inflight  # no request under way: the next one uses what we change
    session = fetcher.sessions[1]
    if corrupt == "id":
        session.id += 1
    else:
        session.epoch += 5
    spy.sent.clear()
    await topics.append(a, "a1", "a2")
    assert await fetch_until(fetcher, {a: 2}) == {a: ["a1", "a2"]}
    assert spy.sent[0].response.error_code == error
    full = spy.sent[1]
    assert (full.session, full.epoch, full.named) == (0, 0, {a})
    assert full.response.error_code == 0 and full.response.session_id != 0
    assert all(sent.response.error_code == 0 for sent in spy.sent[1:])


async def test_a_partition_whose_leader_moved_is_fetched_from_its_new_leader(
        cluster: Cluster, fetcher: TableFetcher, topics: Topics) -> None:
    (tp,) = await topics.create("leader-moves", replicas=[2, 1, 3])  # led by broker 2; 1 next
    await topics.append(tp, "0", "1", "2")
    fetcher.fetch_from(tp, 0)
    assert await fetch_until(fetcher, {tp: 3}) == {tp: ["0", "1", "2"]}
    assert fetcher.client.cluster.leader_for_partition(tp) == 2
    assert fetcher.sessions[2].id != 0 and tp in (fetcher.sessions[2].sent or {})
    cluster.stop(2)  # its partitions' leadership handed over to broker 1
    try:
        await topics.append(tp, "3", "4")
        assert await fetch_until(fetcher, {tp: 2}, rounds=300) == {tp: ["3", "4"]}
        assert fetcher.client.cluster.leader_for_partition(tp) == 1
        assert fetcher.positions[tp] == 5
    finally:
        cluster.start()


async def test_a_position_deleted_by_retention_is_read_on_from_the_first_record(
        fetcher: TableFetcher, topics: Topics) -> None:
    """Before, the fetcher asked for offset 0 again and again (error 1, "out of range"); a
    position past the end reads on from the end."""
    old, ahead = await topics.create("retention", "ahead")
    await topics.append(old, *(str(n) for n in range(10)))
    await topics.delete_before(old, 5)
    await topics.append(ahead, "0", "1")
    fetcher.fetch_from(old, 0)
    fetcher.fetch_from(ahead, 7)
    assert await fetch_until(fetcher, {old: 5}) == {old: ["5", "6", "7", "8", "9"]}
    for _ in range(100):  # (the broker's "out of range" for `ahead` may come a fetch later)
        if fetcher.positions[ahead] == 2:
            break
        await fetcher.fetch(0.1)
    assert fetcher.positions[ahead] == 2  # its end
    await topics.append(ahead, "2")
    assert await fetch_until(fetcher, {ahead: 1}) == {ahead: ["2"]}


async def test_positions_are_kept_while_the_partitions_fetched_change(
        fetcher: TableFetcher, topics: Topics) -> None:
    a, b, c = await topics.create("keep-a", "keep-b", "keep-c")
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


async def test_partitions_dropped_one_by_one_as_at_a_shards_start(
        fetcher: TableFetcher, topics: Topics) -> None:
    """Every table at once, each dropped when read: the last ones still read from their
    positions; the live partition goes on throughout."""
    live, *tables = await topics.create(*(f"many-{n}" for n in range(61)))
    for n, tp in enumerate(tables):
        await topics.append(tp, f"{n}-0", f"{n}-1")
    fetcher.track(tp.topic for tp in [live, *tables])
    fetcher.fetch_from(live, 0)
    for tp in tables:
        fetcher.fetch_from(tp, 1)
    read: dict[TopicPartition, list[str]] = {}
    for _ in range(100):
        for tp, records in (await fetcher.fetch(0.1)).items():
            read.setdefault(tp, []).extend(
                record.value.decode() for record in records if record.value is not None)
            if tp != live:
                fetcher.drop(tp)  # caught up
        if len(read) == len(tables):
            break
    assert read == {tp: [f"{n}-1"] for n, tp in enumerate(tables)}
    await topics.append(live, "l0")
    await topics.append(tables[0], "0-2")  # dropped: not fetched
    assert await fetch_until(fetcher, {live: 1}, rounds=10) == {live: ["l0"]}
    assert await fetch_until(fetcher, {}, rounds=3) == {}


async def test_where_partitions_end_those_not_known_yet_left_out(
        fetcher: TableFetcher, topics: Topics) -> None:
    a, b = await topics.create("ends-a", "ends-b")
    await topics.append(a, "a0", "a1", "a2")
    fetcher.track([a.topic, b.topic])
    async def both() -> dict[TopicPartition, int] | None:
        """Their ends; a partition is left out until its leader is looked up."""
        ends = await fetcher.end_offsets([a, b])
        return ends if len(ends) == 2 else None

    assert await wait_for_async(both, 5, "both partitions' ends") == {a: 3, b: 0}
    missing = TopicPartition("ends-missing", 0)
    started = time.monotonic()
    assert await fetcher.end_offsets([a, missing]) == {a: 3}
    assert await fetcher.end_offsets([a, missing]) == {a: 3}
    assert time.monotonic() - started < 1  # not waited for


async def updater_gone_then_a_new_topic(fetcher: TableFetcher, topics: Topics, name: str
                                        ) -> tuple[Any, TopicPartition, TopicPartition]:
    """A topic read (`<name>-old`, its first record); then the fetcher's client's metadata
    updater cancelled, and a new topic (`<name>-new`) made, a record appended to each, and the
    new one given to the fetcher. Returns (the client, the old topic, the new one)."""
    old, = await topics.create(f"{name}-old")
    await topics.append(old, "o0")
    fetcher.fetch_from(old, 0)
    assert await fetch_until(fetcher, {old: 1}) == {old: ["o0"]}
    client = fetcher.client
    updater = client._sync_task
    updater.cancel()  # the client's metadata updater does not answer
    await asyncio.gather(updater, return_exceptions=True)
    new, = await topics.create(f"{name}-new")
    await topics.append(new, "n0")
    await topics.append(old, "o1")
    fetcher.fetch_from(new, 0)
    return client, old, new


async def test_a_client_whose_metadata_stopped_is_replaced(
        fetcher: TableFetcher, topics: Topics, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The client's metadata stops (its background updater gone, as a worker once showed after
    a broker restart and a pause: its new tables' leaders stayed unknown for minutes): the
    partitions of a topic made since are left out of every fetch until the fetcher replaces
    its client; then they are read, and the partitions it read before go on. (The direct
    look-up, the next test's, is put off here: its broker's answer would find them first.)"""
    monkeypatch.setattr(fetch_session, "RENEW_CLIENT_S", 1.0)
    monkeypatch.setattr(fetch_session, "LOOK_UP_AFTER_S", 3600.0)
    first, old, new = await updater_gone_then_a_new_topic(fetcher, topics, "metadata")
    got = await fetch_until(fetcher, {new: 1, old: 1}, rounds=100)
    assert got == {new: ["n0"], old: ["o1"]}
    assert fetcher.client is not first and "client is replaced" in caplog.text


async def test_leaders_unknown_for_a_second_are_asked_of_a_broker_directly(
        fetcher: TableFetcher, topics: Topics, monkeypatch: pytest.MonkeyPatch) -> None:
    """aiokafka's metadata updater asleep (here gone; aiokafka leaves it asleep for its 5-minute
    period when topics are added while its periodic update is in flight, and a worker that
    took over a paused one's shards found their tables leaderless for 14 s): after
    `LOOK_UP_AFTER_S` the fetcher asks a broker itself, and the new topic is read with the
    same client, long before a client's replacement (put off here)."""
    monkeypatch.setattr(fetch_session, "RENEW_CLIENT_S", 3600.0)
    first, old, new = await updater_gone_then_a_new_topic(fetcher, topics, "asleep")
    got = await fetch_until(fetcher, {new: 1, old: 1}, rounds=100)
    assert got == {new: ["n0"], old: ["o1"]}
    assert fetcher.client is first


async def test_after_a_fetch_that_brought_records_the_next_waits_its_linger_and_brings_them_all(
        cluster: Cluster, topics: Topics) -> None:
    """A worker's fetcher with a linger (`TABLESERVER_FETCH_LINGER_MS`): once a leader's fetch
    brought records, the next one is sent only after the linger, so what was appended
    meanwhile comes in one answer (one fold and one Redis round for all of it). Without the
    linger the fetch is sent at once, and the broker answers with the first record appended."""
    lingering = TableFetcher(cluster.bootstrap, linger_ms=3000)
    await lingering.start()
    try:
        (tp,) = await topics.create("lingering", replicas=[1])
        await topics.append(tp, "first")
        lingering.fetch_from(tp, 0)
        assert await fetch_until(lingering, {tp: 1}) == {tp: ["first"]}  # a busy leader now
        spy = Spy(lingering)
        fetching = asyncio.ensure_future(lingering.fetch(timeout=5))
        await topics.append(tp, "second", "third")  # each acknowledged before the next
        assert spy.sent == []  # still lingering: nothing asked of the broker yet
        got = await fetching
        assert [r.value for r in got[tp]] == [b"second", b"third"]
        assert len(spy.sent) == 1
    finally:
        await lingering.stop()
