"""services.common.gc_settle: what is alive after start-up leaves the collector's walks."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from services.common.gc_settle import paused, settle


@pytest.fixture
def unfrozen() -> Iterator[None]:
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
