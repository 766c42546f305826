"""Redis's faults translated where Redis is met: any of redis-py's errors (`RedisError`: a
connection refused or lost, a reply later than its timeout, an error reply) leaves a Redis
adapter as ours, `services.common.errors.StoreUnavailable`, its cause chained. The adapters
(the store, the pipelined lines' users, the feeds' readers, the limits, the robots' marks)
translate with `store_faults` around their calls, `translating` on a function or `translated`
on a class; nothing else
imports `redis.exceptions` (tests/unit/test_house.py holds it)."""

from __future__ import annotations

from redis.exceptions import (
    ConnectionError as RedisConnectionError,
    RedisError,
    TimeoutError as RedisTimeoutError,
)

from services.common.errors import StoreUnavailable
from services.common.fault_translation import FaultTranslator

REDIS_FAULTS = FaultTranslator(RedisError, StoreUnavailable)
store_faults = REDIS_FAULTS.faults
translated = REDIS_FAULTS.translated
translating = REDIS_FAULTS.translating


def unreachable(exc: StoreUnavailable) -> bool:
    """Whether Redis was not reached or did not answer in time (else it answered an error)."""
    return isinstance(exc.__cause__, RedisConnectionError | RedisTimeoutError)
