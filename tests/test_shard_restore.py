"""The processor's shard runner writing its tables again when the store lost its data, with
the in-memory store (services/store.py) in place of Redis: no Kafka, no Redis."""

from __future__ import annotations

from typing import Any

from services.processor.shard import ShardRunner
from services.store import MemoryStore
from services.table_run import TableRun
from shared.codec import encode, from_map
from tests.script import log


def _run(table: str, script: str) -> TableRun:
    run = TableRun(table, {"table": table, "ruleset": "duplicate", "created": 1})
    for offset, event in enumerate(log(script)):
        run.apply(offset, encode(from_map(event)))
    return run


async def test_a_store_that_lost_its_data_gets_every_table_again() -> None:
    """After the store lost its data (a Redis restart without
    persistence), the runner writes each table's record, state and alerts again, once; while
    the store keeps its mark, it writes nothing."""
    store = MemoryStore()
    runner = ShardRunner(3, "unused:9092", store, fetcher=None)  # type: ignore[arg-type]
    runner.tables = {"t1": _run("t1", "N 1S, E 1H"), "t2": _run("t2", "N P")}
    await runner.restore_if_redis_lost()
    assert await store.is_alive(3)
    state: Any = await store.read_state("t1")
    assert state is not None and state[0] == 2 and state[1]["pending"]["kind"] == \
        "insufficient_bid"
    assert (await store.table_record("t2") or {})["ruleset"] == "duplicate"
    assert len(await store.alert_ids()) == 1
    await store.write_batch([("t1", 9, {"later": True})], [])
    await runner.restore_if_redis_lost()  # still marked: nothing written again
    assert (await store.read_state("t1") or (0, {}))[0] == 9
    store.lose()
    await runner.restore_if_redis_lost()
    assert (await store.read_state("t1") or (0, {}))[0] == 2 and await store.is_alive(3)
