"""The one backoff of the services' retry loops (`services/common/backoff.py`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from services.common.backoff import Backoff
from services.processor.worker_loop import RETRY_S


def pauses(backoff: Backoff, n: int) -> list[float]:
    return [backoff.next() for _ in range(n)]


def test_the_steps_in_turn_then_the_last_for_ever() -> None:
    backoff = Backoff(RETRY_S)
    assert pauses(backoff, len(RETRY_S) + 3) == [*RETRY_S, RETRY_S[-1], RETRY_S[-1], RETRY_S[-1]]
    assert backoff.failures == len(RETRY_S) + 3


def test_doubling_up_to_its_most() -> None:
    assert pauses(Backoff.doubling(0.1, 1.0), 7) == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0]
    assert pauses(Backoff.doubling(0.1, 2.0), 7) == [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0]
    assert pauses(Backoff.doubling(0.5, 0.5), 3) == [0.5, 0.5, 0.5]


def test_constant() -> None:
    assert pauses(Backoff.constant(1.0), 4) == [1.0] * 4


def test_reset_starts_again_from_the_first_step() -> None:
    backoff = Backoff.doubling(0.1, 2.0)
    assert backoff.fresh
    pauses(backoff, 4)
    assert not backoff.fresh
    backoff.reset()
    assert backoff.fresh
    assert pauses(backoff, 2) == [0.1, 0.2]


@pytest.mark.parametrize("make", [lambda: Backoff(()), lambda: Backoff((0.1, -1.0)),
                                  lambda: Backoff.doubling(0.0, 1.0),
                                  lambda: Backoff.doubling(1.0, 0.5)])
def test_no_backoff_without_pauses_or_with_a_negative_one(make: Callable[[], Backoff]
                                                           ) -> None:
    with pytest.raises(ValueError):
        make()


def test_wait_sleeps_the_next_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []

    async def sleep(pause: float) -> None:
        slept.append(pause)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    backoff = Backoff.doubling(0.25, 1.0)

    async def three() -> list[float]:
        return [await backoff.wait() for _ in range(3)]

    assert asyncio.run(three()) == [0.25, 0.5, 1.0]
    assert slept == [0.25, 0.5, 1.0]
