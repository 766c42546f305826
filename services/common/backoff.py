"""The pauses between a failing thing's attempts: one helper for every retry loop of the
services (a runner that cannot start, a fetch or a read that failed, a reader that lost
Redis).

A `Backoff` gives its steps in turn, then its last step for ever; `reset` after a success
starts it again from the first. `Backoff.doubling(first, most)` doubles from `first` up to
`most`; `Backoff.constant(pause)` is the same pause every time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence


class Backoff:
    def __init__(self, steps: Sequence[float]) -> None:
        if not steps or any(step < 0 for step in steps):
            raise ValueError(f"a backoff needs pauses of 0 s or more, not {list(steps)}")
        self.steps = tuple(steps)
        self.failures = 0  # attempts failed since the start, or the last `reset`

    @classmethod
    def doubling(cls, first: float, most: float) -> Backoff:
        """`first`, twice that, and so on, each at most `most` (then `most` for ever)."""
        if first <= 0 or most < first:
            raise ValueError(f"a doubling backoff from {first} s up to {most} s")
        steps = [first]
        while steps[-1] < most:
            steps.append(min(2 * steps[-1], most))
        return cls(steps)

    @classmethod
    def constant(cls, pause: float) -> Backoff:
        return cls((pause,))

    @property
    def fresh(self) -> bool:
        """No attempt has failed since the start or the last `reset` (the time to log)."""
        return self.failures == 0

    def next(self) -> float:
        """The pause to make after this failure; the next one is the next step."""
        pause = self.steps[min(self.failures, len(self.steps) - 1)]
        self.failures += 1
        return pause

    def reset(self) -> None:
        """An attempt succeeded: the next failure pauses the first step again."""
        self.failures = 0

    async def wait(self) -> float:
        """Sleep the next pause; returns it."""
        pause = self.next()
        await asyncio.sleep(pause)
        return pause
