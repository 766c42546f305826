"""Director alerts for the gateway, read from Kafka: each once, resumable by its offset.

The processor emits each alert once to `tableserver.alerts` (in a Kafka transaction, with a
deterministic id) and copies it to Redis. The alerts' feed and list come from the topic, not
from the copy: when Redis loses its data the processor writes every alert to it again, and a
feed that read Redis pushed them all again to a connected director. One consumer per gateway
process (read_committed: only alerts whose transaction committed) follows the topic; the last
`KEEP` alerts are kept in memory for `GET /api/alerts` and for sockets that resume; a socket
resuming from further back has the rest read from the topic for it.

The same consumer follows `tableserver.alerts.handled`, the director's marks on the alerts he
has dealt with (from its start: a mark is a few bytes), so every gateway knows them, and
`tableserver.robots`, the director's robots at each table (`routes/robots.py`).

Kafka's errors leave the feed as ours, `LogUnavailable` (`services.common.kafka_faults`): at
its start, and for a socket resuming from further back than the alerts kept (closed 1011).
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Hashable, Mapping
from typing import Any, cast

from aiokafka import AIOKafkaConsumer, TopicPartition

from services.common.backoff import Backoff
from services.common.errors import LogUnavailable
from services.common.kafka.reader import read_partition
from services.common.kafka_faults import log_faults, translating
from services.common.names import ALERTS, HANDLED, ROBOTS
from services.gateway.feeds.alerts_view import (
    ListedAlert,
    ListedPoison,
    Mark,
    Published,
    PublishedPoison,
)
from services.gateway.feeds.fanout import Audience, BadSince, Render, Subscription, fan_out

log = logging.getLogger("tableserver.alerts")
KEEP = 1000
PARTITION = TopicPartition(ALERTS, 0)  # one partition: an offset is a total order
MARKS = TopicPartition(HANDLED, 0)
ROBOT_REQUESTS = TopicPartition(ROBOTS, 0)


class AlertFeed:
    """`subscribe` and `unsubscribe` as `FeedHub`'s (the key is ignored); `recent` for the
    list; `run` follows the topic."""

    def __init__(self, bootstrap: str) -> None:
        self.bootstrap = bootstrap
        self.consumer = _consumer(bootstrap)
        self.recent: deque[tuple[int, Published | PublishedPoison]] = deque(maxlen=KEEP)
        self.subs = Audience()
        self.next = 0  # the next offset the consumer will read
        self.end = 0  # the topic's end when the feed started: `$` means after it
        self.handled: dict[str, Mark] = {}  # alert id → the director's mark
        self.robots: dict[str, list[str]] = {}  # table → the seats the director gave robots

    @translating
    async def start(self) -> None:
        try:
            await self.consumer.start()
            self.consumer.assign([PARTITION, MARKS, ROBOT_REQUESTS])
            self.end = (await self.consumer.end_offsets([PARTITION]))[PARTITION]
        except BaseException:
            await self.consumer.stop()
            raise
        self.next = max(0, self.end - KEEP)
        self.consumer.seek(PARTITION, self.next)
        self.consumer.seek(MARKS, 0)
        self.consumer.seek(ROBOT_REQUESTS, 0)

    async def stop(self) -> None:
        await self.consumer.stop()

    def latest(self, count: int) -> list[ListedAlert | ListedPoison]:
        """The last `count` alerts (at most `KEEP`), oldest first, each with its `offset` (a
        feed resumes from it) and the director's mark if he has dealt with it (`handled`)."""
        return [cast(ListedAlert | ListedPoison,
                     {**alert, "offset": offset, "handled": self.handled.get(alert["id"])})
                for offset, alert in list(self.recent)[-count:]]

    def knows(self, alert_id: str) -> bool:
        """Whether `alert_id` is among the alerts kept (the last `KEEP`)."""
        return any(alert["id"] == alert_id for _, alert in self.recent)

    async def run(self) -> None:
        failed = Backoff.constant(1.0)
        while True:
            try:
                with log_faults():
                    batch = await self.consumer.getmany(PARTITION, MARKS, ROBOT_REQUESTS,
                                                       timeout_ms=1000)
            except LogUnavailable as exc:  # the consumer reconnects by itself; say so once
                log.warning("the alerts' consumer: %r", exc.__cause__)
                await failed.wait()
                continue
            for record in batch.get(PARTITION, []):
                try:
                    self._dispatch(record.offset, published(record.value))
                except Exception:  # one record it cannot read must not stop the feed
                    log.exception("alert at offset %d passed over", record.offset)
                    self.next = record.offset + 1
            for record in batch.get(MARKS, []):
                self._marked(record.offset, record.value)
            for record in batch.get(ROBOT_REQUESTS, []):
                self._robots(record.offset, record.value)

    def _dispatch(self, offset: int, alert: Published | PublishedPoison) -> None:
        self.recent.append((offset, alert))
        self.next = offset + 1
        fan_out(self.subs, str(offset), (offset, 0), _fields(alert))

    def _marked(self, offset: int, value: bytes) -> None:
        """The director's mark on an alert: the latest for its alert stands."""
        try:
            mark: Mark = json.loads(value)
            self.handled[str(mark["alert"])] = mark
        except (ValueError, KeyError, TypeError):
            log.warning("handled mark at offset %d passed over: not a mark", offset)

    def _robots(self, offset: int, value: bytes) -> None:
        """The director's robots at a table: its latest request stands."""
        try:
            request = json.loads(value)
            self.robots[str(request["table"])] = [str(s) for s in request["seats"]]
        except (ValueError, KeyError, TypeError):
            log.warning("robots' request at offset %d passed over: not a request", offset)

    async def subscribe(self, key: str, since: str | None, view: Hashable, render: Render
                        ) -> Subscription:
        """A socket following the alerts after offset `since` (None or `$`: new ones)."""
        sub = Subscription(key, view, render)
        latest = max(self.next, self.end) - 1
        if since in (None, "$"):
            after = latest
        elif not str(since).isdigit() or int(str(since)) > latest + 1:
            raise BadSince(f"since: an alert's offset, at most {latest + 1} (ids on this feed "
                           "are offsets in the alerts topic)")
        else:
            after = int(str(since))
        first_kept = self.recent[0][0] if self.recent else self.next
        if after + 1 < first_kept:  # further back than the alerts kept: read them for it
            for offset, older in await _read(self.bootstrap, after + 1, first_kept):
                sub.offer(str(offset), render(str(offset), _fields(older)))
                after = offset
        for offset, alert in list(self.recent):  # no await from here: nothing slips between
            if offset > after:
                sub.offer(str(offset), render(str(offset), _fields(alert)))
                after = offset
        sub.floor = (max(after, self.next - 1), 0)
        self.subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        self.subs.discard(sub)


def published(value: bytes) -> Published | PublishedPoison:
    """A record of the alerts topic as the processor wrote it; `ValueError` for one that is
    not an alert with its id (it is passed over)."""
    alert = json.loads(value)
    if not isinstance(alert, dict) or not isinstance(alert.get("id"), str):
        raise ValueError("not an alert with its id")
    return cast(Published | PublishedPoison, alert)


def _fields(alert: Mapping[str, Any]) -> dict[bytes, bytes]:
    """An alert as the fields a feed's `render` takes."""
    return {b"alert": json.dumps(alert).encode()}


def _consumer(bootstrap: str) -> AIOKafkaConsumer:
    return AIOKafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False,
                            isolation_level="read_committed", request_timeout_ms=10_000)


@translating
async def _read(bootstrap: str, start: int, stop: int) -> list[tuple[int, dict[str, Any]]]:
    """Alerts at offsets start ≤ o < stop, with a consumer of their own."""
    consumer = _consumer(bootstrap)
    await consumer.start()
    try:
        return [(record.offset, json.loads(record.value))
                for record in await read_partition(consumer, PARTITION, start, stop)]
    finally:
        await consumer.stop()
