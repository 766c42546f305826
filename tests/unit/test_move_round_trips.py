"""The produce round trips of a round's end on the clock (services/gateway/tournaments/clock.py,
service.py `start_round`; docs/performance.md, "The evening"): each table's events of the move
(`round_ended`, `players_named`, `round_started`) sent together and acknowledged together, in
their order, and the tournament topic's two records (the end, then the next round) likewise;
a Kafka that does not acknowledge them is a retryable `Unavailable` (the clock tries again).

On the in-memory Kafka and Redis, behind a broker that acknowledges what was sent in waves: a
record waits for the next wave, so a table's events sent one after another's acknowledgement
take one wave each."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from services.common.errors import Unavailable
from services.common.names import table_topic, tournament_topic
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import clock, play_watch
from shared.codec import decode, to_map
from tests.fakes import MemoryKafka, director_gateway
from tests.unit.test_clock_move import timed_round_one

pytestmark = pytest.mark.asyncio


class WaveBroker:
    """The producer in front of the memory one: a record is appended when sent and
    acknowledged at the broker's next wave, with every record sent before it; `trips` counts
    the waves each topic's records waited for. `down`: nothing is ever acknowledged."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.pending: list[tuple[str, asyncio.Future[Any], Any]] = []
        self.trips: Counter[str] = Counter()
        self.down = False
        self.task = asyncio.ensure_future(self._waves())

    async def send(self, topic: str, value: bytes, key: bytes | None = None,
                   partition: int | None = None) -> asyncio.Future[Any]:
        appended = await self.inner.send_and_wait(topic, value, key, partition)
        delivery: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending.append((topic, delivery, appended))
        return delivery

    async def send_and_wait(self, topic: str, value: bytes, key: bytes | None = None,
                            partition: int | None = None) -> Any:
        return await (await self.send(topic, value, key, partition))

    async def _waves(self) -> None:
        while True:
            await asyncio.sleep(0.002)
            if self.down or not self.pending:
                continue
            wave, self.pending = self.pending, []
            self.trips.update({topic for topic, _, _ in wave})
            for _, delivery, appended in wave:
                delivery.set_result(appended)


@pytest.fixture
def gw(tmp_path: Path) -> Gateway:
    return director_gateway(tmp_path, MemoryKafka(shards=8))


async def broker_of(gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> WaveBroker:
    await timed_round_one(gw, monkeypatch)
    broker = WaveBroker(gw.adapters.producer)
    monkeypatch.setattr(gw.adapters, "producer", broker)
    return broker


def types_at(gw: Gateway, topic: str) -> list[str]:
    kafka: MemoryKafka = gw.adapters.reads.kafka  # type: ignore[attr-defined]
    return [to_map(decode(value))["type"] for _, value in kafka.records(topic)]


async def test_each_tables_move_is_one_round_trip_in_order(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock's end of round 1 (Law 12C2's end of its play) and round 2's start: each
    table's `round_ended`, `players_named` and `round_started` in one wave, in that order;
    the tournament's `round_ended` and `round_started` records in one wave, in that order."""
    broker = await broker_of(gw, monkeypatch)
    moved = play_watch.moved
    at_move: Counter[str] = Counter()

    async def counted(*args: Any) -> bool:  # the trips of the move, before the scores'
        at_move.update(broker.trips)
        return await moved(*args)

    monkeypatch.setattr(play_watch, "moved", counted)
    try:
        await clock.end_round(gw, "eve")
    finally:
        broker.task.cancel()
    for table in ("eve-1", "eve-2"):
        assert at_move[table_topic(table)] == 1, at_move
        assert types_at(gw, table_topic(table))[-3:] == [
            "round_ended", "players_named", "round_started"]
    assert at_move[tournament_topic("eve")] == 1, at_move
    kafka: MemoryKafka = gw.adapters.reads.kafka  # type: ignore[attr-defined]
    records = [(r["type"], r.get("round")) for r in
               (json.loads(v) for _, v in kafka.records(tournament_topic("eve")))]
    at = records.index(("round_ended", 1))
    assert records[at:at + 2] == [("round_ended", 1), ("round_started", 2)]


async def test_a_move_kafka_does_not_acknowledge_is_a_retryable_error(
        gw: Gateway, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kafka takes the records but never acknowledges them: the round's end is `Unavailable`
    with a retry (the clock puts itself back, `on_due`), not a hang."""
    broker = await broker_of(gw, monkeypatch)
    broker.down = True
    monkeypatch.setattr(gw, "settings", gw.settings.model_copy(
        update={"produce_timeout_s": 0.05}))
    try:
        with pytest.raises(Unavailable) as caught:
            await clock.end_round(gw, "eve")
    finally:
        broker.task.cancel()
    assert caught.value.retry_after == 1
    assert "Kafka did not acknowledge the event in time" in str(caught.value)
