"""Redis's faults translated where Redis is met: any of redis-py's errors (`RedisError`: a
connection refused or lost, a reply later than its timeout, an error reply) leaves a Redis
adapter as ours, `services.common.errors.StoreUnavailable`, its cause chained. The adapters
(the store, the pipelined lines' users, the feeds' readers, the limits, the robots' marks)
translate with `store_faults` around their calls, `translating` on a function or `translated`
on a class; nothing else
imports `redis.exceptions` (tests/unit/test_house.py holds it)."""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, ParamSpec, TypeVar

from redis.exceptions import (
    ConnectionError as RedisConnectionError,
    RedisError,
    TimeoutError as RedisTimeoutError,
)

from services.common.errors import StoreUnavailable

C = TypeVar("C", bound=type)
P = ParamSpec("P")
R = TypeVar("R")


@contextlib.contextmanager
def store_faults() -> Iterator[None]:
    """Runs its block; any error of redis-py's raised in it leaves as `StoreUnavailable`."""
    try:
        yield
    except RedisError as exc:
        raise StoreUnavailable() from exc


def translated(cls: C) -> C:
    """`cls` with each of its public coroutine methods raising `StoreUnavailable` for Redis's
    errors (its private ones are called through those)."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(member):
            setattr(cls, name, translating(member))
    return cls


def translating(call: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, R]]:
    """`call` (a coroutine function or method) raising `StoreUnavailable` for Redis's errors."""
    @functools.wraps(call)
    async def translated_call(*args: P.args, **kwargs: P.kwargs) -> R:
        with store_faults():
            return await call(*args, **kwargs)
    return translated_call


def unreachable(exc: StoreUnavailable) -> bool:
    """Whether Redis was not reached or did not answer in time (else it answered an error)."""
    return isinstance(exc.__cause__, RedisConnectionError | RedisTimeoutError)
