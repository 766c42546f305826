"""How far each shard's partition of the live topic has been folded, committed under the
consumer group `LIVE_GROUP` (`services/common/names.py`), so that the processor's backlog is a
consumer lag: what KEDA's kafka scaler reads to scale the workers
(`deploy/k8s-cluster-100k/`), and what `kafka-consumer-groups.sh --describe` shows.

The workers follow the live topic with their own fetcher and no consumer group
(docs/architecture.md), and a shard's new owner starts from the topic's end, so nothing reads
these offsets back: they are a gauge. A worker commits, at most every `MARK_EVERY_S`, the
marks that moved since its last commit, in a task beside its fetch loop (a commit never holds
up a fold); a commit that Kafka's absence failed is logged and its marks sent again at the
next tick. The marks of a shard that leaves the worker are forgotten: its next owner commits
its own."""

from __future__ import annotations

import asyncio
import logging

from aiokafka.structs import TopicPartition

from services.common.errors import LogUnavailable
from services.common.kafka_faults import told
from services.common.names import LIVE
from services.processor.ports import OffsetCommitter

log = logging.getLogger("tableserver.processor")

MARK_EVERY_S = 1.0


class LiveMarks:
    def __init__(self, committer: OffsetCommitter, every_s: float = MARK_EVERY_S) -> None:
        self.committer = committer
        self.every_s = every_s
        self.marks: dict[int, int] = {}  # shard → the live offset after its last one folded
        self.sent: dict[int, int] = {}  # shard → the mark last committed
        self.next_at = 0.0
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.committer.start()

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        await self.committer.stop()

    def folded(self, shard: int, next_offset: int) -> None:
        """The shard's live records before `next_offset` are folded (and written)."""
        self.marks[shard] = max(next_offset, self.marks.get(shard, 0))

    def forget(self, shard: int) -> None:
        self.marks.pop(shard, None)
        self.sent.pop(shard, None)

    def tick(self, now: float) -> None:
        """Starts a commit of the marks that moved, when one is due and none is in flight.
        A commit that died of anything but Kafka's absence (a bug) raises here, in the fetch
        loop, which stops the worker (crash-only, `services/common/supervision.py`)."""
        if self.task is not None and self.task.done() and not self.task.cancelled():
            failure = self.task.exception()
            if failure is not None:
                self.task = None
                raise failure
        if now < self.next_at or (self.task is not None and not self.task.done()):
            return
        moved = {shard: mark for shard, mark in self.marks.items()
                 if self.sent.get(shard) != mark}
        if moved:
            self.next_at = now + self.every_s
            self.task = asyncio.create_task(self._commit(moved), name="live-marks")

    async def _commit(self, moved: dict[int, int]) -> None:
        try:
            await self.committer.commit({TopicPartition(LIVE, shard): mark
                                         for shard, mark in moved.items()})
        except (LogUnavailable, OSError, TimeoutError) as exc:  # Kafka away: a gauge waits
            log.warning("live marks not committed (%r): sent again at the next tick",
                        told(exc))
            return
        for shard, mark in moved.items():
            if shard in self.marks:
                self.sent[shard] = mark
