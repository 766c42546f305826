"""Python's cycle collector, told what is long-lived.

A service allocates at start-up most of what it keeps (modules, the web framework or faust,
Kafka and Redis clients, the tables' states). CPython's collector walks all of it in every
full collection: measured under 500 calls/s, 50–240 ms during which the event loop answers no
call, several times a minute. `settle()` freezes what exists (`gc.freeze`: the collector no
longer walks it; it is still freed as usual when its count falls to zero). The young
generation keeps its threshold: raised to 10,000, each of its collections took 5–11 ms.

What a gateway keeps grows after start-up: a busy evening's 2,000 sockets are 450,000 objects
(63,000 of them the coroutines of their handlers' awaits), and each of the collector's own full
collections walked them all: 1.0–2.5 s, every few seconds, the loop answering nothing (one
made a round's clock a second late). `run` takes the full collections into the process's
hands: the collector's own are off (its young collections run as ever), and every `SETTLE_S`
what survived since the last settle is collected and frozen, a walk of those alone. An object
frozen that later dies in a reference cycle is freed only by a walk of the frozen too:
`sweep`, every `SWEEP_S`, and once a round's start is past after each round's end
(`sweep_in`, from `services.gateway.tournaments.clock`: a sweep of 1.2 s at the start held the
substitutes a second past their time), none inside a `paused` block.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterator

SETTLE_S = 5.0  # the survivors since the last settle collected and frozen this often
SWEEP_S = 600.0  # everything collected, the frozen too, at least this often
NEVER = 2**31 - 1  # a threshold the collector's count of young collections never reaches

_held = 0  # the `paused` blocks under way
_was_enabled = False  # whether the collector ran before the first of them
_last_sweep = 0.0  # time.monotonic() of the last `sweep`
_sweep_at: float | None = None  # time.monotonic() a `sweep_in` asked for the next one


def settle() -> None:
    """Collect once, then freeze everything alive now out of later collections."""
    gc.collect()
    gc.freeze()


def sweep() -> None:
    """Everything collected, the frozen too (what died in a reference cycle since it was
    frozen is freed only so), then frozen again: a walk of the whole heap."""
    global _last_sweep, _sweep_at
    gc.unfreeze()
    settle()
    _last_sweep, _sweep_at = time.monotonic(), None


def sweep_in(delay_s: float) -> None:
    """A `sweep` by `run`'s first turn `delay_s` from now (or sooner, if one is due sooner):
    the garbage of what just ended freed once the rush after it is past."""
    global _sweep_at
    at = time.monotonic() + delay_s
    _sweep_at = at if _sweep_at is None else min(_sweep_at, at)


def tick(sweep_s: float = SWEEP_S) -> None:
    """One of `run`'s turns: nothing inside a `paused` block; else a `sweep` when the last was
    `sweep_s` ago or one asked for (`sweep_in`) is due, or a `settle`."""
    if _held:
        return
    now = time.monotonic()
    if now - _last_sweep >= sweep_s or (_sweep_at is not None and now >= _sweep_at):
        sweep()
    else:
        settle()


async def run(settle_s: float = SETTLE_S, sweep_s: float = SWEEP_S) -> None:
    """The process's full collections at its own times, for as long as it runs: the
    collector's own off; every `settle_s` a `settle` (what survived since the last one), or
    a `sweep` when the last was `sweep_s` ago; none while a `paused` block is under way."""
    global _last_sweep
    first, second, third = gc.get_threshold()
    gc.set_threshold(first, second, NEVER)
    _last_sweep = time.monotonic()
    try:
        while True:
            await asyncio.sleep(settle_s)
            tick(sweep_s)
    finally:
        gc.set_threshold(first, second, third)


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The cycle collector off for the block (no full collection in its midst), on again
    after the last such block ends, as it was before the first (the memory it would have
    freed meanwhile is freed then: refcounts free the rest as usual)."""
    global _held, _was_enabled
    if _held == 0:
        _was_enabled = gc.isenabled()
        gc.disable()
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if _held == 0 and _was_enabled:
            gc.enable()
