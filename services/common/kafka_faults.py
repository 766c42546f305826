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
import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, ParamSpec, TypeVar

from aiokafka.errors import (
    KafkaConnectionError,
    KafkaError,
    KafkaTimeoutError,
    NoBrokersAvailable,
    NodeNotReadyError,
    RequestTimedOutError,
)

from services.common.errors import LOG_DOWN, LogUnavailable

C = TypeVar("C", bound=type)
P = ParamSpec("P")
R = TypeVar("R")

# Kafka not reached, or no answer in time (asyncio's own time-out among them): the same
# request may succeed as it is once Kafka is back; any other error is an answer of Kafka's.
NOT_REACHED: tuple[type[BaseException], ...] = (
    KafkaConnectionError, KafkaTimeoutError, NoBrokersAvailable, NodeNotReadyError,
    RequestTimedOutError, TimeoutError)


@contextlib.contextmanager
def log_faults(reason: str = LOG_DOWN) -> Iterator[None]:
    """Runs its block; any error of aiokafka's raised in it leaves as `LogUnavailable`
    (`reason`)."""
    try:
        yield
    except KafkaError as exc:
        raise LogUnavailable(reason) from exc


def translated(cls: C) -> C:
    """`cls` with each of its public coroutine methods raising `LogUnavailable` for Kafka's
    errors (its private ones are called through those)."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, translating(member))
    return cls


def translating(call: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """`call` (a coroutine function or method) raising `LogUnavailable` for Kafka's errors."""
    @functools.wraps(call)
    async def translated_call(*args: P.args, **kwargs: P.kwargs) -> R:
        with log_faults():
            return await call(*args, **kwargs)
    return translated_call


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
