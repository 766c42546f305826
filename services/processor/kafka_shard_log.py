"""A shard's log on Kafka (`ports.ShardLog`): a transactional producer whose `transactional.id`
is the shard's, and reads of the shard's partitions of the compacted registry and checkpoints
topics. Kafka's errors leave it as ours, `LogUnavailable` (`services.common.kafka_faults`); the
errors that say a newer owner fenced the producer are told inside it, as `Fenced`."""

from __future__ import annotations

import asyncio
import contextlib
import json

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.errors import IllegalOperation, InvalidProducerEpoch, KafkaError, ProducerFenced

from services.common.kafka.reader import read_partition
from services.common.kafka_faults import translated
from services.common.names import ALERTS, CHECKPOINTS
from services.processor.ports import Alerts, Fenced

COMMIT_TIMEOUT_S = 10.0  # a transaction not done by then (the broker gone) is given up
STOP_TIMEOUT_S = 5.0


@translated
class KafkaShardLog:
    def __init__(self, bootstrap: str, shard: int, alerts: str = ALERTS,
                 checkpoints: str = CHECKPOINTS, owner: str = "tableserver-shard") -> None:
        """(Other `alerts`, `checkpoints` topics and `owner` than tableserver's: the contract
        test, beside a running processor.)"""
        self.bootstrap = bootstrap
        self.shard = shard
        self.alerts, self.checkpoints, self.owner = alerts, checkpoints, owner
        self.producer: AIOKafkaProducer | None = None

    async def open(self) -> None:
        self.producer = AIOKafkaProducer(
            bootstrap_servers=self.bootstrap, acks="all", enable_idempotence=True,
            transactional_id=f"{self.owner}-{self.shard}")
        try:
            await self.producer.start()  # init_transactions: fences the previous owner
        except BaseException:
            await self.close()
            raise

    async def read(self, topic: str) -> dict[str, bytes]:
        consumer = AIOKafkaConsumer(bootstrap_servers=self.bootstrap, enable_auto_commit=False,
                                    isolation_level="read_committed", request_timeout_ms=10_000)
        await consumer.start()
        try:
            records = await read_partition(consumer, TopicPartition(topic, self.shard),
                                           None, None)
        finally:
            await consumer.stop()
        return {r.key.decode(): r.value for r in records
                if r.key is not None and r.value is not None}

    async def commit(self, alerts: Alerts, checkpoints: dict[str, int]) -> None:
        """The alerts and checkpoints in one transaction. A producer fenced by a newer owner
        raises `Fenced`, whether the broker says so at once (ProducerFenced, an old epoch) or
        aiokafka learned it in the background between two sends of the transaction: its
        transaction is then in a fatal state and the next send raises IllegalOperation ("not
        in transaction"; seen under load, in the contract test). Either way the shard's log
        must be opened again."""
        producer = self.producer
        assert producer is not None, "open() first"
        try:
            await asyncio.wait_for(self._transaction(producer, alerts, checkpoints),
                                   COMMIT_TIMEOUT_S)
        except (ProducerFenced, InvalidProducerEpoch, IllegalOperation) as exc:
            raise Fenced(f"shard {self.shard}: {exc!r}") from exc

    async def _transaction(self, producer: AIOKafkaProducer, alerts: Alerts,
                           checkpoints: dict[str, int]) -> None:
        deliveries: list[asyncio.Future[object]] = []
        try:
            async with producer.transaction():
                for alert_id, alert in alerts:
                    deliveries.append(await producer.send(
                        self.alerts, key=alert["table"].encode(),
                        value=json.dumps({"id": alert_id, **alert}).encode()))
                for table, offset in checkpoints.items():
                    deliveries.append(await producer.send(
                        self.checkpoints, key=table.encode(), value=str(offset).encode(),
                        partition=self.shard))
        finally:  # a failed transaction fails its records too: that is told once, above
            for delivery in deliveries:
                delivery.add_done_callback(_quiet)

    async def close(self) -> None:
        """Close the producer; one fenced, or whose broker is gone, is let go all the same."""
        if self.producer is not None:
            with contextlib.suppress(KafkaError, TimeoutError):
                await asyncio.wait_for(self.producer.stop(), STOP_TIMEOUT_S)
            self.producer = None


def _quiet(delivery: asyncio.Future[object]) -> None:
    if not delivery.cancelled():
        delivery.exception()
