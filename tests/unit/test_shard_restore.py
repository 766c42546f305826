"""Redis losing its data, or going away, with the in-memory store (services/common/store.py) in
place of Redis: `StoreSync` writes every table of a shard again, once (no Kafka, no Redis)."""

from __future__ import annotations

from typing import Any

from services.common.store import StateWrite
from services.processor.shard import ShardRunner
from services.processor.store_sync import PROBE_S, StoreSync
from shared.codec import encode, from_map
from shared.table.table_run import TableRun
from tests.fakes import FlakyStore, MemoryFetcher, MemoryKafka, MemoryShardLog
from tests.script import log


def _run(table: str, script: str) -> TableRun:
    run = TableRun(table, {"table": table, "ruleset": "duplicate", "created": 1})
    for offset, event in enumerate(log(script)):
        run.apply(offset, encode(from_map(event)))
    return run


def _runner(shard: int) -> ShardRunner:
    kafka = MemoryKafka(4)
    runner = ShardRunner(shard, MemoryFetcher(kafka), MemoryShardLog(kafka, shard))
    runner.tables = {"t1": _run("t1", "N 1S, E 1H"), "t2": _run("t2", "N P")}
    return runner


async def test_a_store_that_lost_its_data_gets_every_table_again() -> None:
    """After the store lost its data (a Redis restart without persistence), each table's
    record and state is written again, once; while the store keeps its mark, nothing is."""
    store = FlakyStore()
    sync = StoreSync(store)
    runners = {3: _runner(3)}
    await sync.tick(runners, now=0.0)
    assert await store.is_alive(3)
    state: Any = await store.read_state("t1")
    assert state is not None and state[0] == 2 and state[1]["pending"]["kind"] == \
        "insufficient_bid"
    assert (await store.table_record("t2") or {})["ruleset"] == "duplicate"
    await store.write_batch([StateWrite("t1", 9, {"later": True})])
    await sync.tick(runners, now=1.0)  # still marked: nothing written again
    assert (await store.read_state("t1") or (0, {}))[0] == 9
    store.lose()
    await sync.tick(runners, now=1.5)  # not yet: checked once a second
    assert await store.read_state("t1") is None
    await sync.tick(runners, now=2.0)
    assert (await store.read_state("t1") or (0, {}))[0] == 2 and await store.is_alive(3)


async def test_states_not_written_while_the_store_was_away_are_written_when_it_is_back() -> None:
    """Redis away without losing its data: the states of that time are not queued, but
    written from the runners' memory when it answers. While it is away it is asked whether it
    is back, in the background (the loop never waits for it), every PROBE_S."""
    store = FlakyStore()
    sync = StoreSync(store)
    runners = {3: _runner(3)}
    await sync.tick(runners, now=0.0)
    store.down = True
    runners[3].tables["t1"] = later = _run("t1", "N 1S, E 1H, S decline, E 2H")  # folded on
    assert later.state.board is not None
    await sync.write([("t1", later.offset, later.state.board.to_dict())], runners)
    assert not sync.reachable and sync.lagging == {3}
    await sync.tick(runners, now=1.0)  # is Redis back? asked, not waited for
    assert sync.probe is not None and not await sync.probe  # no
    await sync.tick(runners, now=1.01)  # the answer: asked again PROBE_S later
    assert sync.probe is None
    store.down = False
    await sync.tick(runners, now=1.01 + PROBE_S / 2)
    assert sync.probe is None and not sync.reachable
    await sync.tick(runners, now=1.01 + PROBE_S)
    assert sync.probe is not None and await sync.probe  # yes
    await sync.tick(runners, now=1.02 + PROBE_S)  # the answer: every table written
    assert sync.reachable and sync.lagging == set()
    assert (await store.read_state("t1") or (-1, {}))[0] == later.offset == 4
