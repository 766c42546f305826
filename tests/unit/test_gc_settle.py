"""services.common.gc_settle: what is alive after start-up leaves the collector's walks, and
the full collections run at the process's own times."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from services.common import gc_settle
from services.common.gc_settle import paused, settle


@pytest.fixture
def unfrozen() -> Iterator[None]:
    """A sweep first, so that no sweep is due (one a round's end asked for in another test
    of this process, `sweep_in`; or the last one long ago); the frozen let go after."""
    gc_settle.sweep()
    yield
    gc.unfreeze()


def test_settle_freezes_what_is_alive(unfrozen: None) -> None:
    kept = [{"table": f"t{i}"} for i in range(1000)]  # long-lived containers
    settle()
    assert gc.get_freeze_count() >= len(kept)
    walked = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    assert not walked & {id(d) for d in kept}  # no generation holds them: frozen


def test_paused_holds_the_collector_off_until_the_last_block_ends() -> None:
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        with paused():  # another tournament's move beside it
            pass
        assert not gc.isenabled()  # the first still under way
    assert gc.isenabled()


def test_paused_leaves_a_collector_that_was_off_off() -> None:
    gc.disable()
    try:
        with paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


class Kept:
    """Objects of a type of their own, made after a settle: the next one's to freeze."""


def _walked(kept: list[Kept]) -> bool:
    """Whether any of `kept` is in a generation the collector walks (not frozen)."""
    ids = {id(k) for k in kept}
    return any(id(o) in ids for generation in range(3) for o in gc.get_objects(generation))


def test_a_tick_freezes_the_new_survivors_and_none_inside_a_paused_block(unfrozen: None) -> None:
    settle()
    kept = [Kept() for _ in range(100)]
    with paused():
        gc_settle.tick(sweep_s=3600)
        assert _walked(kept)  # a round's move under way: no walk, no freeze
    gc_settle.tick(sweep_s=3600)
    assert not _walked(kept)


def test_a_tick_sweeps_the_frozen_when_the_last_sweep_is_old(unfrozen: None) -> None:
    settle()
    dead = [Kept()]
    dead.append(dead)  # type: ignore[arg-type]  # a cycle, frozen while alive
    settle()
    assert not _walked(dead[:1])
    probe = weakref.ref(dead[0])
    del dead
    gc_settle.tick(sweep_s=3600)  # a settle: the frozen cycle is not walked, not freed
    assert probe() is not None
    gc_settle.tick(sweep_s=0)  # a sweep: the frozen walked too
    assert probe() is None


def test_a_sweep_asked_for_comes_at_the_first_tick_past_its_time(unfrozen: None) -> None:
    """A round's end asks for a sweep once the next round's start is past (`sweep_in`): the
    ticks before that time only settle; the first after it sweeps the frozen too."""
    settle()
    dead = [Kept()]
    dead.append(dead)  # type: ignore[arg-type]
    settle()
    probe = weakref.ref(dead[0])
    del dead
    gc_settle.sweep_in(3600)
    gc_settle.tick(sweep_s=7200)
    assert probe() is not None  # not yet its time
    gc_settle.sweep_in(0)  # a sooner one asked for: the sooner stands
    gc_settle.tick(sweep_s=7200)
    assert probe() is None


async def test_run_takes_the_full_collections_and_gives_them_back(unfrozen: None) -> None:
    before = gc.get_threshold()
    kept = [Kept() for _ in range(100)]
    running = asyncio.create_task(gc_settle.run(settle_s=0.01, sweep_s=3600))
    try:
        async with asyncio.timeout(5):
            while _walked(kept):  # frozen by one of its settles
                await asyncio.sleep(0.01)
        assert gc.get_threshold() == (*before[:2], gc_settle.NEVER)  # the collector's own off
    finally:
        running.cancel()
        await asyncio.gather(running, return_exceptions=True)
    assert gc.get_threshold() == before
