"""The loop's watch: a held loop is reported with the stack that held it, a loop that beats
on time is not (services/common/loop_watch.py)."""

from __future__ import annotations

import asyncio
import time

import pytest

from services.common.loop_watch import BEAT_S, LoopWatch


def _holds_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # the callback that holds the loop: what the watch must name


@pytest.mark.asyncio
async def test_a_held_loop_is_reported_with_the_function_that_held_it() -> None:
    watch = LoopWatch(held_ms=100)
    beating = asyncio.create_task(watch.run())
    try:
        await asyncio.sleep(3 * BEAT_S)  # the beat running
        _holds_the_loop(0.4)
        async with asyncio.timeout(5):
            while not watch.reports:
                await asyncio.sleep(BEAT_S)
    finally:
        beating.cancel()
        await asyncio.gather(beating, return_exceptions=True)
    [report] = watch.reports
    held_ms = int(report.split("the loop held ")[1].split(" ms")[0])
    assert 300 <= held_ms < 2000
    first_stack = report.splitlines()[1]
    assert "_holds_the_loop" in first_stack
    assert "test_loop_watch.py" in first_stack


def test_a_beat_on_time_is_no_hold_and_a_late_one_is_sampled() -> None:
    watch = LoopWatch(held_ms=100)
    now = time.monotonic()
    watch.beat = now
    assert watch.look(now + 0.1) is None  # within the hold and a beat
    held = watch.look(now + 0.2)
    assert held is not None
    assert held.since == now
    assert sum(held.samples.values()) == 1
