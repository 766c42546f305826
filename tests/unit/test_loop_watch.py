"""The loop's watch: a held loop is reported with the stack that held it, a loop that beats
on time is not, and a hold by the cycle collector says so (services/common/loop_watch.py)."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

import pytest

from services.common.loop_watch import BEAT_S, Collections, LoopWatch


def _holds_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # the callback that holds the loop: what the watch must name


async def _report_of(watch: LoopWatch, hold: Callable[[], object]) -> str:
    """The watch's one report of the loop held by `hold()`, run once the beat runs."""
    beating = asyncio.create_task(watch.run())
    try:
        await asyncio.sleep(3 * BEAT_S)  # the beat running
        hold()
        async with asyncio.timeout(5):
            while not watch.reports:
                await asyncio.sleep(BEAT_S)
    finally:
        beating.cancel()
        await asyncio.gather(beating, return_exceptions=True)
    [report] = watch.reports
    return report


@pytest.mark.asyncio
async def test_a_held_loop_is_reported_with_the_function_that_held_it() -> None:
    report = await _report_of(LoopWatch(held_ms=100), lambda: _holds_the_loop(0.4))
    assert "cycle collector" not in report
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


@pytest.mark.asyncio
async def test_a_hold_by_the_cycle_collector_is_told_as_its() -> None:
    heap = [[] for _ in range(3_000_000)]  # containers the collector walks: 0.2–0.5 s of it
    report = await _report_of(LoopWatch(held_ms=30), lambda: gc.collect(2))
    del heap
    first = report.splitlines()[0]
    assert "the cycle collector ran" in first
    assert "generation 2 ×1;" in first
    assert " objects freed)" in first
    collector_ms = int(first.split("the cycle collector ran ")[1].split(" ms")[0])
    held_ms = int(first.split("the loop held ")[1].split(" ms")[0])
    assert 0 < collector_ms <= held_ms


def test_the_collectors_runs_are_timed_and_told_only_within_their_span() -> None:
    runs = Collections()
    gc.callbacks.append(runs)
    try:
        before = time.monotonic()
        gc.collect(1)
        after = time.monotonic()
    finally:
        gc.callbacks.remove(runs)
    assert [gen for _, _, gen, _ in runs.runs] == [1]
    assert "generation 1 ×1" in runs.within(before, after)
    assert runs.within(after + 1, after + 2) == ""
