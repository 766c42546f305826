"""Kafka's faults translated where Kafka is met: any of aiokafka's errors (`KafkaError`: a
broker not reached, a request timed out, an error answered) leaves a Kafka adapter as ours,
`services.common.errors.LogUnavailable`, its cause chained. The adapters (the producer's
appends, the readers, the topics' admin, the alerts' feed, the processor's fetcher, shard log
and offsets) translate with `log_faults` around their calls, `translating` on a function or
`translated` on a class; an adapter that must tell one of aiokafka's errors from another (a
topic that exists already, a producer fenced, an offset out of range) does so inside itself.
Nothing else imports `aiokafka.errors` (tests/unit/test_house.py holds it)."""

from __future__ import annotations

import contextlib

from aiokafka.errors import (
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    NoBrokersAvailable,
    NodeNotReadyError,
    RequestTimedOutError,
)

from services.common.errors import LOG_DOWN, LogUnavailable
from services.common.fault_translation import FaultTranslator

# Kafka not reached, or no answer in time (asyncio's own time-out among them): the same
# request may succeed as it is once Kafka is back; any other error is an answer of Kafka's.
NOT_REACHED: tuple[type[BaseException], ...] = (
    KafkaConnectionError, KafkaTimeoutError, NoBrokersAvailable, NodeNotReadyError,
    RequestTimedOutError, TimeoutError)


KAFKA_FAULTS = FaultTranslator(KafkaError, LogUnavailable)
translated = KAFKA_FAULTS.translated
translating = KAFKA_FAULTS.translating


def log_faults(reason: str = LOG_DOWN) -> contextlib.AbstractContextManager[None]:
    """Runs its block; any error of aiokafka's raised in it leaves as `LogUnavailable`
    (`reason`)."""
    return KAFKA_FAULTS.faults(lambda: LogUnavailable(reason))


def not_reached(exc: BaseException | None) -> bool:
    """Whether `exc` (one of aiokafka's, or a time-out) says Kafka was not reached or did not
    answer in time."""
    return isinstance(exc, NOT_REACHED)


def told(exc: BaseException) -> BaseException:
    """What a log line shows of a fault: Kafka's own error for ours (its cause), else `exc`."""
    return exc.__cause__ if isinstance(exc, LogUnavailable) and exc.__cause__ else exc


def unreachable(exc: LogUnavailable) -> bool:
    """Whether Kafka was not reached or did not answer in time (retry as is), else it answered
    an error (a record too large, a topic unknown, a producer fenced…)."""
    return not_reached(exc.__cause__)
