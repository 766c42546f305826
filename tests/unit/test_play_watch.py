"""The players' sockets wait on one watcher a tournament (services/gateway/tournaments/
play_watch.py), which reads through `FreshReads`: an unchanged read is the same object, so the
sockets wake only when what their views are made of changed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from services.gateway.tokens import PlayerScope
from services.gateway.tournaments import play_watch, players
from services.gateway.tournaments.fresh_reads import FreshReads

pytestmark = pytest.mark.asyncio


class Owner:
    """A gateway as the reads key it (weakly)."""


@dataclass(frozen=True)
class Value:
    n: int


async def until(condition: Callable[[], bool]) -> None:
    async def polled() -> None:
        while not condition():
            await asyncio.sleep(0.001)
    await asyncio.wait_for(polled(), 10)


async def test_a_read_equal_to_the_last_gives_the_last_object_and_a_change_a_new_one() -> None:
    reads = FreshReads[Value](0.0)
    owner, found = Owner(), [Value(1), Value(1), Value(2)]

    async def read() -> Value:
        return found.pop(0)

    first = await reads.get(owner, "t", read)
    again = await reads.get(owner, "t", read)
    changed = await reads.get(owner, "t", read)
    assert again is first and again is not None
    assert changed == Value(2) and changed is not first


async def test_a_failed_read_is_read_again_and_a_forgotten_one_too() -> None:
    reads = FreshReads[Value](3600.0)
    owner, calls = Owner(), []

    async def read() -> Value:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("down")
        return Value(len(calls))

    with pytest.raises(OSError):
        await reads.get(owner, "t", read)
    assert await reads.get(owner, "t", read) == Value(2)
    assert await reads.get(owner, "t", read) == Value(2)  # kept: an hour fresh
    reads.forget(owner, "t")
    assert await reads.get(owner, "t", read) == Value(3)


async def test_the_sockets_wake_only_when_the_moment_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    moments = [object()]
    reads: list[object] = []

    async def moment(gw: Any, tournament: str) -> object:
        reads.append(moments[-1])
        return moments[-1]

    monkeypatch.setattr(players, "moment", moment)
    monkeypatch.setattr(players, "FRESH_S", 0.001)
    gw: Any = Owner()
    player = PlayerScope("t", 1, 1, 1)
    async with play_watch.listening(gw, player) as watch, \
            play_watch.listening(gw, PlayerScope("t", 2, 1, 1)) as same:
        assert same is watch
        first = watch.next_change()
        await asyncio.wait_for(first, 10)  # the first read is a change
        unchanged = watch.next_change()
        before = len(reads)
        await until(lambda: len(reads) >= before + 20)  # twenty reads of the same moment
        assert not unchanged.done()
        moments.append(object())
        await asyncio.wait_for(unchanged, 10)
        task = watch.task
    assert task is not None
    await asyncio.wait({task}, timeout=10)
    assert task.done()  # no socket listens: the watcher is gone
    assert play_watch._watches.get(gw, {}) == {}


async def test_a_failing_read_wakes_the_sockets_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    async def moment(gw: Any, tournament: str) -> object:
        calls.append(1)
        raise OSError("Redis is unreachable")

    monkeypatch.setattr(players, "moment", moment)
    monkeypatch.setattr(players, "FRESH_S", 0.001)
    gw: Any = Owner()
    async with play_watch.listening(gw, PlayerScope("t", 1, 1, 1)) as watch:
        await asyncio.wait_for(watch.next_change(), 10)
        again = watch.next_change()
        await until(lambda: len(calls) >= 10)
        assert not again.done()  # the same failure is no change


@dataclass(frozen=True)
class Folded:
    """A moment of the fakes: its round, and whether every table of it shows it."""

    round: int
    everywhere: bool


async def test_a_move_wakes_the_sockets_once_when_every_table_shows_the_new_round(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After a round's end on the clock the watcher reads every `QUICK_S` as the processor
    folds each table's start: reads that find only some tables moved wake no socket (each
    wake is a view computed for every player); the read that finds them all wakes them."""
    before, after = Folded(1, True), [Folded(2, False), Folded(2, False), Folded(2, True)]
    reads: list[Folded] = []

    async def moment(gw: Any, tournament: str) -> object:
        if watch.held or not watch.awaited:
            return before
        reads.append(after.pop(0) if len(after) > 1 else after[0])
        return reads[-1]

    monkeypatch.setattr(players, "moment", moment)
    monkeypatch.setattr(play_watch, "_shows",
                        lambda stamp, number: stamp[-1].round >= number and stamp[-1].everywhere)
    gw: Any = Owner()
    async with play_watch.listening(gw, PlayerScope("t", 1, 1, 1)) as watch:
        await asyncio.wait_for(watch.next_change(), 10)  # round 1's moment
        woken = watch.generation
        async with play_watch.moving(gw, "t", 2):
            pass
        await until(lambda: watch.stamp == (Folded(2, True),))
        assert reads[:3] == [Folded(2, False), Folded(2, False), Folded(2, True)]
        assert watch.generation == woken + 1
