"""The processor: a faust-streaming app whose consumer group spreads the shards.

faust-streaming does not subscribe to topic patterns, hands partition 0 of every
one-partition topic to the same worker, and subscribes a new topic only after a 45 s lock and
a full rebalance. So the processor does not subscribe to table topics through faust at all.
The app's agent consumes the table registry, whose partitions are the shards: faust's group
management hands each worker some shards and moves them when a worker dies. For each shard it
owns, a worker keeps a `ShardRunner` (see `shard.py`), and its one fetch loop reads the
shards' topics itself (`worker_loop.py`). Several workers share the work by joining the same
group.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import faust
from redis.asyncio import Redis

from services.gc_settle import settle
from services.names import REGISTRY
from services.processor.heartbeat import beat
from services.processor.shard import ShardRunner
from services.processor.worker_loop import WorkerLoop
from services.settings import Settings
from services.store import RedisStore, StateStore

log = logging.getLogger("tableserver.processor")


def _datadir(settings: Settings, worker_name: str) -> Path:
    path = settings.data_dir / "faust" / worker_name
    path.mkdir(parents=True, exist_ok=True)
    return path


def create_app(settings: Settings, worker_name: str = "processor") -> faust.App:
    app = faust.App(
        "tableserver-processor",
        broker=f"kafka://{settings.kafka_bootstrap}",
        store="memory://",
        web_enabled=False,
        value_serializer="raw",
        key_serializer="raw",
        consumer_auto_offset_reset="earliest",
        broker_session_timeout=6.0,
        broker_heartbeat_interval=1.0,
        broker_commit_every=1,
        datadir=str(_datadir(settings, worker_name)),
    )
    registry = app.topic(REGISTRY, partitions=settings.shards, value_serializer="raw")
    changes = asyncio.Lock()
    store: StateStore = RedisStore(Redis.from_url(settings.redis_url))  # connects on first use
    folding = WorkerLoop(settings.kafka_bootstrap, store, settings.shards)
    runners = folding.runners  # the shards this worker runs now
    starting: dict[int, ShardRunner] = {}  # and those being started

    async def start_runner(shard: int) -> None:
        runner = starting[shard] = ShardRunner(shard, settings.kafka_bootstrap, store,
                                               folding.fetcher)
        try:
            await runner.prepare()  # tables registered meanwhile wait in the runner, not lost
            await folding.add(runner)
        finally:
            del starting[shard]

    async def own(shards: set[int]) -> None:
        """Run exactly the shards in `shards`: stop the others, start the new ones at once."""
        async with changes:
            if folding.task is None:
                await folding.start()
            for shard in sorted(set(runners) - shards):
                await folding.remove(shard)
            new = sorted(shards - set(runners))
            await asyncio.gather(*(start_runner(s) for s in new))
            log.info("%s owns shards %s", worker_name, sorted(runners))
            settle()  # the shards' tables are loaded: long-lived from now on
            await announce()

    async def announce() -> None:
        """Which shards this worker runs, for `make up` and the director (expires if it dies)."""
        await store.announce_worker(worker_name, list(runners), ttl_s=15)

    @app.on_partitions_assigned.connect  # type: ignore[arg-type]  # faust's receivers: *args
    async def on_assigned(sender: Any, assigned: set[Any], **kwargs: Any) -> None:
        await own({tp.partition for tp in assigned if tp.topic == REGISTRY})

    @app.on_partitions_revoked.connect  # type: ignore[arg-type]  # faust's receivers: *args
    async def on_revoked(sender: Any, revoked: set[Any], **kwargs: Any) -> None:
        keep = set(runners) - {tp.partition for tp in revoked if tp.topic == REGISTRY}
        await own(keep)

    @app.timer(interval=5.0)  # type: ignore[untyped-decorator]  # faust's timer is untyped
    async def keep_announcing() -> None:
        beat(settings, worker_name)  # first: the probes' sign of life needs no Redis
        await announce()

    @app.agent(registry)
    async def tables_registered(stream: Any) -> None:
        async for event in stream.events():
            record = json.loads(event.value)
            shard = event.message.partition
            runner = runners.get(shard) or starting.get(shard)
            if runner is not None:
                runner.add_table(record)

    return app
