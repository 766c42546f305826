"""Kafka's faults leave its adapters as ours (`LogUnavailable`, services/common/kafka_faults.py),
their cause chained, told "not reached" (retry as is) from an error Kafka answered: the
appends, the topics' admin, the group offsets, the alerts' feed and the processor's fetcher and
shard log, each given a client that fails as aiokafka's does when Kafka is away (or refuses),
with no network; and a seat's event sent while Kafka is away, in process: a 503 with
Retry-After, nothing acknowledged."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import pytest
from aiokafka import AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import (
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    MessageSizeTooLargeError,
    NodeNotReadyError,
    NotEnoughReplicasError,
    ProducerFenced,
    RequestTimedOutError,
    TopicAuthorizationFailedError,
)

from services.common.errors import LOG_DOWN, LOG_RETRY_S, LogUnavailable, Unavailable
from services.common.kafka import admin as topics
from services.common.kafka.group_offsets import GroupOffsets
from services.common.kafka.produce import append
from services.common.kafka_faults import log_faults, told, unreachable
from services.common.names import LIVE, table_topic
from services.common.settings import Settings
from services.gateway.app import create_app
from services.gateway.feeds.alert_feed import AlertFeed
from services.gateway.ports import TopicsUnavailable
from services.gateway.tables.service import Gateway
from services.gateway.tables.topic_admin import KafkaTopicAdmin
from services.gateway.tokens import Role, sign
from services.processor.fetch_session import TableFetcher
from services.processor.kafka_shard_log import KafkaShardLog
from services.processor.ports import Fenced
from tests.fakes import MemoryKafka, gateway_adapters

pytestmark = pytest.mark.unit

AWAY = KafkaConnectionError("Unable to bootstrap from [('127.0.0.1', 9092)]")
# aiokafka's errors: Kafka not reached or late (True), or an answer of Kafka's (False)
ERRORS: list[tuple[KafkaError, bool]] = [
    (AWAY, True), (KafkaTimeoutError(), True), (RequestTimedOutError(), True),
    (NodeNotReadyError("node 1"), True), (MessageSizeTooLargeError("fenced"), False),
    (NotEnoughReplicasError(), False), (TopicAuthorizationFailedError(), False)]


@pytest.mark.parametrize(("fault", "reached_not"), ERRORS,
                         ids=[type(fault).__name__ for fault, _ in ERRORS])
def test_each_of_aiokafkas_errors_leaves_as_ours_cause_chained(fault: KafkaError,
                                                              reached_not: bool) -> None:
    with pytest.raises(LogUnavailable) as caught, log_faults():
        raise fault
    assert caught.value.__cause__ is fault
    assert isinstance(caught.value, Unavailable)  # a 503, a socket's 1011, a retry
    assert (caught.value.reason, caught.value.retry_after) == (LOG_DOWN, LOG_RETRY_S)
    assert unreachable(caught.value) is reached_not
    assert told(caught.value) is fault  # what a log line shows: Kafka's own error


def test_a_fault_outside_kafka_passes_untouched() -> None:
    timeout = TimeoutError()
    assert told(timeout) is timeout
    with pytest.raises(ValueError), log_faults():
        raise ValueError("not Kafka's")


class Producer:
    """A producer whose appends raise `fault`, or never answer (`fault` None)."""

    def __init__(self, fault: KafkaError | None) -> None:
        self.fault, self.sent = fault, 0

    async def send_and_wait(self, *args: Any, **kwargs: Any) -> Any:
        self.sent += 1
        if self.fault is None:
            await asyncio.Event().wait()  # the broker never answers
        raise cast(KafkaError, self.fault)


@pytest.mark.parametrize(("fault", "reached_not"), [(AWAY, True), (None, True),
                                                    (MessageSizeTooLargeError(), False)])
async def test_an_append_kafka_fails_is_ours_with_what_was_not_done(
        fault: KafkaError | None, reached_not: bool) -> None:
    producer = Producer(fault)
    with pytest.raises(LogUnavailable) as caught:
        await append(cast(AIOKafkaProducer, producer), "t", b"v", timeout_s=0.01,
                     doing="acknowledge the event")
    assert producer.sent == 1
    assert caught.value.reason.startswith("Kafka did not acknowledge the event")
    assert caught.value.retry_after == 1
    assert caught.value.__cause__ is fault or isinstance(caught.value.__cause__, TimeoutError)
    assert unreachable(caught.value) is reached_not


class AwayAdmin:
    """Kafka's admin client, every request of which raises `fault`."""

    def __init__(self, fault: KafkaError = AWAY) -> None:
        self.fault, self.calls = fault, 0

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        async def request(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            raise self.fault
        return request


ADMIN_CALLS: dict[str, Callable[[AIOKafkaAdminClient], Awaitable[object]]] = {
    "ensure_core_topics": lambda a: topics.ensure_core_topics(a, 1, 1),
    "create_table_topic": lambda a: topics.create_table_topic(a, "t1", 1),
    "create_tournament_topics": lambda a: topics.create_tournament_topics(a, "cup", ["t1"], 1),
    "fence_topics": lambda a: topics.fence_topics(a, ["t"]),
    "delete_topics": lambda a: topics.delete_topics(a, ["t"]),
    "leaders_elected": lambda a: topics.leaders_elected(a, ["t"]),
}


@pytest.mark.parametrize("call", sorted(ADMIN_CALLS))
async def test_the_topics_admin_raises_ours_when_kafka_is_away(call: str) -> None:
    admin = AwayAdmin()
    with pytest.raises(LogUnavailable) as caught:
        await ADMIN_CALLS[call](cast(AIOKafkaAdminClient, admin))
    assert admin.calls == 1
    assert caught.value.__cause__ is AWAY and unreachable(caught.value)


async def test_an_error_code_the_controller_answers_is_ours_and_not_unreachable() -> None:
    class Refusing:
        async def create_topics(self, new: list[Any], timeout_ms: int) -> Any:
            return SimpleNamespace(topic_errors=[(n.name, 29, "denied") for n in new])

    with pytest.raises(LogUnavailable) as caught:
        await topics.create_tournament_topics(cast(AIOKafkaAdminClient, Refusing()), "cup",
                                              ["t1"], 1)
    assert isinstance(caught.value.__cause__, TopicAuthorizationFailedError)
    assert not unreachable(caught.value)


async def test_the_gateways_topic_admin_answers_as_before() -> None:
    """Unchanged: `TopicsUnavailable` naming what was not done and Kafka's error, retry 1."""
    with pytest.raises(TopicsUnavailable) as caught:
        await KafkaTopicAdmin(cast(AIOKafkaAdminClient, AwayAdmin()), 1).create_table("t1")
    assert caught.value.reason == (f"Kafka did not create the table's topic ({AWAY!r}); retry "
                                   "(doing it twice is harmless)")
    assert caught.value.retry_after == 1
    with pytest.raises(TopicsUnavailable):
        await KafkaTopicAdmin(cast(AIOKafkaAdminClient, AwayAdmin()), 1).existing()


class AwayClient:
    """aiokafka's client with a broker known (node 0) that does not answer."""

    def __init__(self) -> None:
        self.cluster = SimpleNamespace(leader_for_partition=lambda tp: 0, brokers=lambda: [])
        self.sent = 0

    async def send(self, *args: Any, **kwargs: Any) -> Any:
        self.sent += 1
        raise AWAY

    async def bootstrap(self) -> None:
        self.sent += 1
        raise AWAY


async def test_the_fetchers_ends_and_the_group_offsets_raise_ours() -> None:
    fetcher = TableFetcher("unused:9092")
    fetcher._client = cast(Any, AwayClient())
    with pytest.raises(LogUnavailable) as caught:
        await fetcher.end_offsets([TopicPartition(LIVE, 0)])
    assert caught.value.__cause__ is AWAY and fetcher._client.sent == 1
    offsets = GroupOffsets("unused:9092", "group")
    offsets._client = cast(Any, AwayClient())
    with pytest.raises(LogUnavailable) as caught:
        await offsets.commit({TopicPartition(LIVE, 0): 1})
    assert caught.value.__cause__ is AWAY


class Transactional:
    """A transactional producer whose first send raises `fault`."""

    def __init__(self, fault: KafkaError) -> None:
        self.fault = fault

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield

    async def send(self, *args: Any, **kwargs: Any) -> asyncio.Future[None]:
        raise self.fault


async def test_the_shard_logs_commit_raises_ours_and_a_fence_stays_fenced() -> None:
    """A broker away is ours (the worker restarts the shard); a newer owner's fence is still
    `Fenced`, told inside the adapter."""
    log = KafkaShardLog("unused:9092", shard=0)
    log.producer = cast(Any, Transactional(AWAY))
    with pytest.raises(LogUnavailable) as caught:
        await log.commit([], {"t": 1})
    assert caught.value.__cause__ is AWAY
    log.producer = cast(Any, Transactional(ProducerFenced()))
    with pytest.raises(Fenced):
        await log.commit([], {"t": 1})


class AwayConsumer:
    """A consumer that cannot start (no broker); its stop is counted."""

    def __init__(self) -> None:
        self.stopped = 0

    async def start(self) -> None:
        raise AWAY

    async def stop(self) -> None:
        self.stopped += 1


async def test_the_alerts_feed_that_cannot_start_raises_ours_and_lets_its_consumer_go() -> None:
    feed = AlertFeed("unused:9092")
    await feed.consumer.stop()  # its own, never started: closed, then replaced
    consumer = feed.consumer = cast(Any, AwayConsumer())
    with pytest.raises(LogUnavailable) as caught:
        await feed.start()
    assert caught.value.__cause__ is AWAY
    assert consumer.stopped == 1


async def test_a_seats_event_with_kafka_away_is_a_503_with_retry_after_nothing_acked(
        tmp_path: Path) -> None:
    """In process, the producer in memory and Kafka away: the seat is told to retry (503,
    Retry-After), nothing is in the table's topic, and the gateway's readiness has heard so;
    its probe append raises ours too."""
    kafka = MemoryKafka(shards=8)
    adapters = gateway_adapters(kafka)
    app = create_app(Settings(TABLESERVER_SIGNING_KEY="k" * 32,
                              TABLESERVER_DIRECTOR_TOKEN="d" * 32, TABLESERVER_DATA=tmp_path),
                     adapters)
    await adapters.store.remember_tables({"t1": {"table": "t1", "ruleset": "duplicate",
                                                 "created": 1}})
    gw = cast(Gateway, app.app.state.gateway)  # type: ignore[attr-defined]
    token = sign(gw.signing_key, "t1", "N", Role.SEAT, expires=2**40)
    kafka.down = True
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://gw") as client:
        answer = await client.post("/api/tables/t1/events", headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            content=json.dumps({"type": "call", "call": "1C", "client_seq": 1}))
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == "1"
    assert answer.json()["error"].startswith("Kafka did not acknowledge the event")
    assert kafka.refused >= 1 and kafka.records(table_topic("t1")) == []
    assert gw.appends.last is not None and gw.appends.last[0] is False
    with pytest.raises(LogUnavailable) as caught:
        await gw.probe_append()
    assert isinstance(caught.value.__cause__, KafkaConnectionError)
