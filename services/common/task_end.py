"""A long-lived task ended for good, even when a cancellation is lost on the way.

On Python 3.11 a cancellation can be swallowed: `asyncio.wait_for` (and the timeouts the Redis
client wraps its reads in) returns the inner result when that result and the cancellation
arrive together, and the cancelled task carries on (fixed in 3.12). A gateway's rounds' clock,
a loop of Redis reads five times a second, met that race at stop: cancelled once, it ran on, and
the gateway never stopped (its stacks, asked for with SIGUSR1, showed the clock task
"cancelling" and still looping: services/common/stack_dump.py). So the task is cancelled again
until it is done.
"""

from __future__ import annotations

import asyncio

AGAIN_S = 0.5  # how long one cancellation is given before the next


async def cancel_until_done(task: asyncio.Task[object] | asyncio.Task[None]) -> None:
    """`task` cancelled, again every `AGAIN_S` while it runs on; its end (a result, an
    exception, the cancellation) not raised here."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=AGAIN_S)
    if not task.cancelled():
        task.exception()  # told already (its supervisor); retrieved, so never logged again
