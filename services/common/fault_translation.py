"""One way to translate a client library's errors into ours where the library is met: a
`FaultTranslator` is given the library's error class and a maker of our error, and offers a
context manager for a block, a decorator for a coroutine function, and a class decorator for
each public coroutine method. `kafka_faults` and `redis_faults` each hold one."""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, ParamSpec, TypeVar

C = TypeVar("C", bound=type)
P = ParamSpec("P")
R = TypeVar("R")


class FaultTranslator:
    """Raises `ours()` from any `theirs` error that leaves a translated block or call, the
    library's error chained as its cause."""

    def __init__(self, theirs: type[Exception], ours: Callable[[], Exception]) -> None:
        self.theirs = theirs
        self.ours = ours

    @contextlib.contextmanager
    def faults(self, ours: Callable[[], Exception] | None = None) -> Iterator[None]:
        """Runs its block; the library's errors leave it as `ours()` (the translator's own
        maker unless another is given)."""
        try:
            yield
        except self.theirs as exc:
            raise (ours or self.ours)() from exc

    def translating(self, call: Callable[P, Awaitable[R]]) -> Callable[P, Coroutine[Any, Any, R]]:
        """`call` (a coroutine function or method) raising ours for the library's errors."""
        @functools.wraps(call)
        async def translated_call(*args: P.args, **kwargs: P.kwargs) -> R:
            with self.faults():
                return await call(*args, **kwargs)
        return translated_call

    def translated(self, cls: C) -> C:
        """`cls` with each of its public coroutine methods raising ours for the library's
        errors (its private ones are called through those)."""
        for name, member in list(vars(cls).items()):
            if not name.startswith("_") and inspect.iscoroutinefunction(member):
                setattr(cls, name, self.translating(member))
        return cls
