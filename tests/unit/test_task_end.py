"""A long-lived task is ended even when its first cancellation is lost (Python 3.11's
`wait_for` race: services/common/task_end.py)."""

from __future__ import annotations

import asyncio

from services.common.task_end import cancel_until_done
from tests.helpers import run


async def _loses_one_cancellation(ticks: list[int]) -> None:
    """A loop whose await swallows a cancellation once, as a timeout racing its result does."""
    lost = False
    while True:
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            if lost:
                raise
            lost = True  # the race: the inner result won, the cancellation is gone
        ticks.append(1)


def test_a_task_that_lost_its_cancellation_is_cancelled_again_until_it_ends() -> None:
    async def scenario() -> tuple[bool, int]:
        ticks: list[int] = []
        task = asyncio.create_task(_loses_one_cancellation(ticks))
        await asyncio.sleep(0.05)
        await asyncio.wait_for(cancel_until_done(task), 5)
        return task.cancelled(), len(ticks)

    cancelled, ticks = run(scenario())
    assert cancelled and ticks > 0


def test_a_task_that_died_is_ended_without_raising_its_error() -> None:
    async def dies() -> None:
        raise RuntimeError("its supervisor was told")

    async def scenario() -> bool:
        task = asyncio.create_task(dies())
        await asyncio.sleep(0)
        await cancel_until_done(task)
        return task.done() and not task.cancelled()

    assert run(scenario())
