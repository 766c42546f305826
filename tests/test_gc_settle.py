"""services.gc_settle: start-up objects leave the collector's walks; young collections are rarer."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from services.gc_settle import YOUNG_THRESHOLD, settle


@pytest.fixture
def restored_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_settle_freezes_what_is_alive_and_raises_the_young_threshold(restored_gc: None) -> None:
    kept = [{"table": f"t{i}"} for i in range(1000)]  # long-lived containers
    settle()
    assert gc.get_freeze_count() >= len(kept)
    walked = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    assert not walked & {id(d) for d in kept}  # no generation holds them: frozen
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
