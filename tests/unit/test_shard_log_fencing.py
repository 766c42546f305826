"""`KafkaShardLog.commit` says `Fenced` however aiokafka learns that a newer owner opened the
shard's log (the contract test on the real broker failed once under load with
IllegalOperation: the fence was learned between two sends of one transaction)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiokafka.errors import IllegalOperation, ProducerFenced

from services.processor.kafka_shard_log import KafkaShardLog
from services.processor.ports import Fenced


class FencedBetweenSends:
    """A transactional producer whose second send finds its transaction gone, as aiokafka's
    does once its background sender learned of the fence."""

    def __init__(self, error: Exception) -> None:
        self.error, self.sent = error, 0

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        yield

    async def send(self, *args: object, **kwargs: object) -> asyncio.Future[None]:
        self.sent += 1
        if self.sent > 1:
            raise self.error
        delivered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        delivered.set_result(None)
        return delivered


@pytest.mark.parametrize("error", [
    IllegalOperation("Can't send messages while not in transaction"), ProducerFenced()])
async def test_a_fence_learned_between_sends_is_fenced(error: Exception) -> None:
    log = KafkaShardLog("unused:9092", shard=0)
    log.producer = FencedBetweenSends(error)  # type: ignore[assignment]
    with pytest.raises(Fenced):
        await log.commit([("t:1:0:0", {"kind": "x", "table": "t"})], {"t": 1})
