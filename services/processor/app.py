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

import logging
from pathlib import Path
from typing import Any

import faust

from services.common.names import REGISTRY
from services.common.registry import parse, shards_in
from services.common.settings import Settings
from services.common.supervision import Supervisor
from services.processor.bootstrap import Adapters, real_adapters, worker_loop
from services.processor.heartbeat import beat
from services.processor.worker_loop import SESSION_TIMEOUT_S

log = logging.getLogger("tableserver.processor")
COMMIT_EVERY = 10_000  # faust's default: its timer commits first (`broker_commit_interval`)


def _datadir(settings: Settings, worker_name: str) -> Path:
    path = settings.data_dir / "faust" / worker_name
    path.mkdir(parents=True, exist_ok=True)
    return path


def create_app(settings: Settings, worker_name: str = "processor",
               adapters: Adapters | None = None, supervisor: Supervisor | None = None
               ) -> faust.App:
    """The worker's app: its adapters `adapters` (fakes, in tests) or the real ones; its
    long-lived tasks (the fetch loop, shards' starts, the heartbeat, the registry's agent) run
    under `supervisor`: a death stops the worker (`services/common/supervision.py`)."""
    watch = supervisor or Supervisor()
    app = faust.App(
        "tableserver-processor",
        broker=f"kafka://{settings.kafka_bootstrap}",
        store="memory://",
        web_enabled=False,
        value_serializer="raw",
        key_serializer="raw",
        consumer_auto_offset_reset="earliest",
        broker_session_timeout=SESSION_TIMEOUT_S,
        broker_heartbeat_interval=1.0,
        # the registry's offsets committed by faust's timer each second, not before each
        # registration: faust awaits a commit before the next message once `commit_every`
        # were acked, and at 1 that held a tournament's tables to ~60 registrations a second
        # (a shard's start reads its registry partition whole: a registration delivered
        # again is found already, `ShardRunner.add_table`)
        broker_commit_every=COMMIT_EVERY,
        broker_commit_interval=1.0,
        datadir=str(_datadir(settings, worker_name)),
        # faust's leader topic serves `@app.timer(on_leader=True)`, which we do not use; made,
        # it had one replica, and on a cluster the loss of its broker left it leaderless
        topic_disable_leader=True,
        topic_replication_factor=settings.replication,
    )
    registry = app.topic(REGISTRY, partitions=settings.shards, value_serializer="raw")
    folding = worker_loop(adapters or real_adapters(settings), settings, worker_name, watch)

    @app.on_partitions_assigned.connect  # type: ignore[arg-type]  # faust's receivers: *args
    async def on_assigned(sender: Any, assigned: set[Any], **kwargs: Any) -> None:
        """Each rebalance ends here with the worker's whole assignment (the revocation before
        it changes nothing: runners kept by the new assignment go on). Its death (a bug)
        crashed faust's app, leaving a worker that owned nothing alive: it is told here."""
        try:
            if folding.task is None:
                await folding.start()
            await folding.own(shards_in(assigned), app.consumer_generation_id)
        except Exception as exc:
            watch.fail("rebalance", exc)
            raise

    @app.timer(interval=5.0)  # type: ignore[untyped-decorator]  # faust's timer is untyped
    async def keep_announcing() -> None:
        try:
            beat(settings, worker_name)  # first: the probes' sign of life needs no Redis
            await folding.announce()
        except Exception as exc:  # faust runs the timer: its death is told here
            watch.fail("heartbeat", exc)

    @app.agent(registry)
    async def tables_registered(stream: Any) -> None:
        try:
            async for event in stream.events():
                folding.add_table(event.message.partition, parse(event.value))
        except Exception as exc:  # faust runs the agent: its death is told here
            watch.fail("registry agent", exc)

    return app
