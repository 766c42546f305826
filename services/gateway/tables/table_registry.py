"""The real `Registry` (services/gateway/ports.py): tables' records in Redis's hash and the
registry topic (`services.common.registry`), Redis's and Kafka's errors (ours, from their
adapters: `StoreUnavailable`, `LogUnavailable`) translated into `RegistryUnavailable`
(tests/fakes.py's `MemoryRegistry` is held to the same contract: tests/topic_admin_contract.py)."""

from __future__ import annotations

from collections.abc import Mapping

from aiokafka import AIOKafkaProducer

from services.common import registry
from services.common.errors import StoreUnavailable, Unavailable
from services.common.redis_connect import AnyRedis
from services.gateway.ports import RegistryUnavailable
from services.gateway.refusals import REDIS_DOWN


class TableRegistry:
    def __init__(self, redis: AnyRedis, producer: AIOKafkaProducer, shards: int) -> None:
        self.redis, self.producer, self.shards = redis, producer, shards

    async def claim(self, records: Mapping[str, registry.TableRecord]
                    ) -> dict[str, registry.TableRecord]:
        try:
            return await registry.claim(self.redis, records)
        except (StoreUnavailable, OSError) as exc:
            raise RegistryUnavailable(REDIS_DOWN, retry_after=2) from exc

    async def register(self, records: Mapping[str, registry.TableRecord],
                       timeout_s: float | None = None, doing: str = "register the tables",
                       then: str = "retry") -> None:
        try:
            await registry.register(self.producer, records, self.shards, timeout_s, doing, then)
        except Unavailable as exc:  # `LogUnavailable`: the appends' (`produce`)
            raise RegistryUnavailable(exc.reason, exc.retry_after or 1) from exc
        except TimeoutError as exc:
            raise RegistryUnavailable(f"Kafka did not {doing} ({exc!r}); {then}",
                                      retry_after=1) from exc
