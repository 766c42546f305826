"""Redis's return, with fakes (operations.md): after an outage, every table is written again
promptly, in a bounded time, however long Redis was away. (It waited up to 2 s, the longest of
growing pauses, for the next attempt; on the real stack, with redis-py's own retries and their
backoff, the states were back 0.5 to 6.5 s after Redis answered.) The same on the real stack:
tests/integration/test_faults.py."""

from __future__ import annotations

import asyncio

import pytest

from tests.fakes import FlakyStore, MemoryKafka
from tests.unit.test_worker_loop import SHARDS, caught_up, play, running, until, worker

BOUND_S = 1.5  # measured: about 0.2 s (the pause between two questions while Redis is away)


@pytest.fixture
def kafka() -> MemoryKafka:
    return MemoryKafka(SHARDS)


async def test_redis_back_after_a_long_outage_every_state_is_written_within_the_bound(
        kafka: MemoryKafka) -> None:
    store = FlakyStore()
    tables = [f"t{n}" for n in range(6)]  # in both shards
    for table in tables:
        kafka.register(table)
    async with running(worker(kafka, store)) as loop:
        for table in tables:
            play(kafka, table, "N 1S")
        await until(lambda: all(caught_up(kafka, store, t)() for t in tables), "all folded")
        store.down = True
        for table in tables:
            play(kafka, table, "E 1H")  # folded while Redis is away
        await until(lambda: store.refused >= 5, "Redis asked again and again", 10)
        refused = store.refused
        await until(lambda: store.refused > refused, "Redis asked once more", 10)
        store.lose()  # it comes back empty, just after a question it did not answer
        store.down = False
        back = asyncio.get_running_loop().time()
        await until(lambda: all(caught_up(kafka, store, t)() for t in tables),
                    "every state written again", 10)
        recovery = asyncio.get_running_loop().time() - back
        print(f"\nevery state written again {recovery:.2f} s after Redis answered")
        assert recovery <= BOUND_S
        assert set(store.tables) == set(tables) and store.alive == {0, 1}
        assert loop.task is not None and not loop.task.done()
