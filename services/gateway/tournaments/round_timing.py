"""How long each step of a round's end took (the clock's `end_round`, the next round's
`start_round`), logged as one line a round: where the time between the clock's end and the
players' move goes (docs/performance.md, "The evening"). The Director's `POST …/rounds` and a
tournament's creation are timed the same way, a line each (where a night's set-up goes:
docs/performance.md, "The Funbridge night"). A step outside a timed span is not recorded.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

log = logging.getLogger("tableserver.clock")
SLOW_S = 0.5  # a round's end slower than this is logged as a warning (the move's target: 1 s)
CREATION_SLOW_S = 30.0  # a creation slower than this: a warning (the night's set-up: 30 s)


@dataclass
class Spans:
    """The steps of one round's end, in order: name → seconds."""

    began: float = field(default_factory=time.perf_counter)
    steps: list[tuple[str, float]] = field(default_factory=list)
    _last: float = 0.0

    def mark(self, name: str) -> None:
        """The step `name` ended now (it began at the step before's end)."""
        now = time.perf_counter()
        self.steps.append((name, now - (self._last or self.began)))
        self._last = now

    def total(self) -> float:
        return (self._last or self.began) - self.began

    def seconds(self) -> dict[str, float]:
        """Each step's seconds, to a tenth of a millisecond (a request's `steps_s`)."""
        return {name: round(seconds, 4) for name, seconds in self.steps}

    def words(self) -> str:
        return ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in self.steps)


_current: contextvars.ContextVar[Spans | None] = contextvars.ContextVar(
    "round_spans", default=None)


def mark(name: str) -> None:
    """The step `name` of the round's end in progress ended now (nothing outside one)."""
    spans = _current.get()
    if spans is not None:
        spans.mark(name)


@contextlib.contextmanager
def timed(what: str, slow_s: float = SLOW_S) -> Iterator[Spans]:
    """The round's end (or creation) `what` timed step by step; its line logged at its end
    (a warning when slower than `slow_s`)."""
    spans = Spans()
    token = _current.set(spans)
    try:
        yield spans
    finally:
        _current.reset(token)
        total = spans.total()
        log.log(logging.WARNING if total > slow_s else logging.INFO,
                "%s in %.0f ms (at %.3f): %s", what, total * 1000, time.time(), spans.words())
