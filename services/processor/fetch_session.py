"""Reading Kafka partitions with incremental fetch sessions (Kafka's KIP-227), and where
partitions end.

A worker's fetch loop reads its shards' partitions of the live copies and, at times, many table
topics at once (at a shard's start, all of the shard's). aiokafka's consumer fetches without a
session: every request names every assigned partition with its offset, and every response
answers for each of them, data or not; encoding and decoding those lists in Python cost a
worker most of its time under load (py-spy: about 55 %). With a session, the broker remembers
the partitions and their offsets: a request names only the partitions whose offset moved (or
that were added; those dropped are "forgotten"), and a response carries only the partitions
with news. (The broker still reads every partition of the session at each fetch, which is why a
worker keeps in it only the live partitions and the tables it is catching up.)

One session per leader broker, one request in flight per broker. When the broker no longer
knows the session (error 70) or expects another epoch (71), or a request fails, the next request
is a full one, which opens a new session; a broker without room for sessions answers every
request in full, which still works. A partition whose leader moved, or is not known yet (a
table just created), is looked up again in the cluster's metadata and fetched from its leader.

Kafka's errors leave the fetcher as ours, `LogUnavailable` (`services.common.kafka_faults`). The
errors a fetch must tell apart are told inside it: a session the broker forgot, an offset out of
range (found again), a leader moved or unknown (looked up again), a failed request (the next one
is full); and a client given up that closes with an error.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import aiokafka
from aiokafka.client import AIOKafkaClient, ConnectionGroup
from aiokafka.errors import KafkaError, for_code
from aiokafka.protocol.api import Request
from aiokafka.protocol.fetch import FetchRequest_v7
from aiokafka.protocol.metadata import MetadataRequest
from aiokafka.protocol.offset import OffsetRequest
from aiokafka.structs import TopicPartition

from services.common.backoff import Backoff
from services.common.kafka.batches import Record, decode
from services.common.kafka_faults import translated

log = logging.getLogger("tableserver.fetch")

# Fetch v7 requests are built on aiokafka's protocol classes, which are not its public API:
# known to work with these versions (pyproject.toml pins the same range).
SUPPORTED = ((0, 13), (0, 15))
_VERSION = tuple(int(part) for part in aiokafka.__version__.split(".")[:2])
if not SUPPORTED[0] <= _VERSION < SUPPORTED[1]:
    raise ImportError(f"services.processor.fetch_session works with aiokafka 0.13 and 0.14, "
                      f"not {aiokafka.__version__}: install the range pyproject.toml gives")

READ_UNCOMMITTED = 0  # table topics are written by idempotent producers, not transactions
NEW_SESSION, MAX_EPOCH = 0, 2**31 - 1
SESSION_ERRORS = (70, 71)  # FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH
OFFSET_OUT_OF_RANGE = 1
UNKNOWN_LEADER_WARN_S = 10.0
FAILED_FETCH = Backoff.constant(0.1)  # a broker's failed fetch: asked again after this
# Leaders still unknown after this long: the client's metadata has stopped (seen after a broker
# restart and a pause: a worker's new tables' partitions stayed leaderless for minutes while
# their topics were long made); a new client, with new connections and metadata, takes over.
RENEW_CLIENT_S = 15.0
# Leaders still unknown after this long are asked of a broker directly, at most once this often.
# aiokafka's metadata updater can sleep through a request to update (its code: topics added
# while its periodic update is in flight, every 5 min, leave its wake-up unset until the next
# period); the tables of a shard just taken over stayed leaderless for 14 s in a stop's CI (a
# worker paused 20 s, its tables stalled 20.7 s).
LOOK_UP_AFTER_S = 1.0
LATEST, EARLIEST = -1, -2  # ListOffsets' timestamps for a partition's end and start


class _SessionFetch(Request[FetchRequest_v7]):  # type: ignore[misc]  # aiokafka is untyped
    """A fetch request in a session (v7 is the first version that has them)."""

    API_KEY = 1

    def __init__(self, session: int, epoch: int, topics: list[tuple[str, list[Any]]],
                 forgotten: list[tuple[str, list[int]]], max_wait_ms: int) -> None:
        self.args = (-1, max_wait_ms, 1, 50 * 1024 * 1024, READ_UNCOMMITTED, session, epoch,
                     topics, forgotten)  # replica id, wait, min and max bytes, …

    def build(self, request_struct_class: type[FetchRequest_v7]) -> FetchRequest_v7:
        return request_struct_class(*self.args)


@dataclass
class _Session:
    """What a leader remembers of our fetches: the session's id, the epoch it expects next and
    the offset of each partition as last sent."""

    id: int = 0
    epoch: int = NEW_SESSION
    sent: dict[TopicPartition, int] | None = None

    def reset(self) -> None:
        self.id, self.epoch, self.sent = 0, NEW_SESSION, None


async def _close_quietly(client: AIOKafkaClient) -> None:
    """Closes a client given up. Its close awaits its metadata task, which may end in an error
    of its own (seen after a broker's kill: a write on a connection uvloop had closed,
    `RuntimeError`): the client is gone either way, and the error must not stop the loop."""
    try:
        await client.close()
    except (KafkaError, OSError, RuntimeError) as exc:
        log.warning("the fetcher's old client closed with an error: %r", exc)


def _by_topic(partitions: dict[TopicPartition, Any]) -> dict[str, list[tuple[int, Any]]]:
    topics: dict[str, list[tuple[int, Any]]] = {}
    for tp, value in partitions.items():
        topics.setdefault(tp.topic, []).append((tp.partition, value))
    return topics


@translated
class TableFetcher:
    """Fetches the partitions it is given, each from its position on, from their leaders; and
    tells where partitions end."""

    def __init__(self, bootstrap: str, max_wait_ms: int = 100,
                 partition_max_bytes: int = 1024 * 1024, linger_ms: int = 0) -> None:
        self.bootstrap = bootstrap
        self.max_wait_ms = max_wait_ms
        self.linger_ms = linger_ms
        self.busy: set[int] = set()  # the leaders whose last fetch brought records
        self.partition_max_bytes = partition_max_bytes
        self.positions: dict[TopicPartition, int] = {}  # the next offset to read
        self.sessions: dict[int, _Session] = {}
        self.inflight: dict[int, asyncio.Task[dict[TopicPartition, list[Record]]]] = {}
        self._client: AIOKafkaClient | None = None
        self._topics: set[str] = set()  # whose leaders the client keeps known
        self.out_of_range: set[TopicPartition] = set()  # positions to find again
        self.unknown_since: float | None = None  # since when some leaders are unknown
        self.looked_up_at = 0.0  # when the leaders were last asked directly
        self.looking_up: asyncio.Task[None] | None = None

    @property
    def client(self) -> AIOKafkaClient:
        assert self._client is not None, "start() first"
        return self._client

    async def start(self) -> None:
        self._client = AIOKafkaClient(bootstrap_servers=self.bootstrap)
        await self._client.bootstrap()

    async def stop(self) -> None:
        tasks = [*self.inflight.values(), *([self.looking_up] if self.looking_up else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.inflight.clear()
        if self._client is not None:
            await self._client.close()

    def track(self, topics: Iterable[str]) -> None:
        """Keep the leaders of `topics` known: their partitions may be fetched at any time."""
        new = set(topics) - self._topics
        if new:
            self._topics |= new
            self.client.set_topics(self._topics)  # looks up the new ones at once

    def untrack(self, topic: str) -> None:
        """Forget `topic` (deleted: a closed table's), and fetch it no more."""
        for tp in [tp for tp in self.positions if tp.topic == topic]:
            del self.positions[tp]
        if topic in self._topics:
            self._topics.discard(topic)
            self.client.set_topics(self._topics)

    def fetch_from(self, tp: TopicPartition, position: int) -> None:
        """Fetch `tp` from `position` on (its topic tracked)."""
        self.track([tp.topic])
        self.positions[tp] = position

    def drop(self, tp: TopicPartition) -> None:
        """Fetch `tp` no more."""
        self.positions.pop(tp, None)

    def describe(self, tp: TopicPartition) -> str:
        node = self.client.cluster.leader_for_partition(tp)
        session = self.sessions.get(node) if node is not None else None
        sent = session.sent.get(tp) if session is not None and session.sent else None
        return (f"position {self.positions.get(tp)}, leader {node}, last sent {sent}, "
                f"a fetch in flight: {node in self.inflight}")

    async def end_offsets(self, partitions: Iterable[TopicPartition]) -> dict[TopicPartition, int]:
        """The offset after the last record of each partition; a partition whose leader is
        not known yet (or that answered with an error) is left out. Asked on a connection of
        its own (aiokafka's second connection group): a broker answers a connection's requests
        in order, and on the fetches' connection this would wait behind a fetch waiting for
        records."""
        return await self._offsets(partitions, LATEST)

    async def _offsets(self, partitions: Iterable[TopicPartition], which: int
                       ) -> dict[TopicPartition, int]:
        ends: dict[TopicPartition, int] = {}
        for node, tps in self._by_leader(partitions).items():
            topics = _by_topic(dict.fromkeys(tps, which))
            response = await self.client.send(
                node, OffsetRequest(-1, READ_UNCOMMITTED, list(topics.items())),
                group=ConnectionGroup.COORDINATION)
            for topic, answers in response.topics:
                for partition, error, *found in answers:  # timestamp, offset[, epoch]
                    if error:
                        self._partition_error(TopicPartition(topic, partition), error)
                    else:
                        ends[TopicPartition(topic, partition)] = found[1]
        return ends

    async def fetch(self, timeout: float) -> dict[TopicPartition, list[Record]]:
        """The records that arrive within `timeout` seconds (an empty dict if none do)."""
        if self.unknown_since is not None and \
                time.monotonic() - self.unknown_since > RENEW_CLIENT_S:
            await self._renew_client()
        if self.out_of_range:
            await self._find_again()
        leaders = {node: {tp: self.positions[tp] for tp in tps}
                   for node, tps in self._by_leader(self.positions).items()}
        for node, session in self.sessions.items():
            if node not in leaders and session.sent:
                leaders[node] = {}  # no partition left there: forget them all
        for node, partitions in leaders.items():
            if node not in self.inflight:
                self.inflight[node] = asyncio.create_task(self._fetch_from(node, partitions))
        if not self.inflight:
            await asyncio.sleep(timeout)
            return {}
        done, _ = await asyncio.wait(self.inflight.values(), timeout=timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        records: dict[TopicPartition, list[Record]] = {}
        for node, task in list(self.inflight.items()):
            if task in done:
                del self.inflight[node]
                records.update(task.result())
        return records

    def _by_leader(self, partitions: Iterable[TopicPartition]) -> dict[int, list[TopicPartition]]:
        """`partitions` by their leader; those whose leader is not known yet are left out, and
        looked up (in the background: a later call will find them)."""
        leaders: dict[int, list[TopicPartition]] = {}
        unknown: list[TopicPartition] = []
        for tp in partitions:
            node = self.client.cluster.leader_for_partition(tp)
            if node is None or node < 0:
                unknown.append(tp)
            else:
                leaders.setdefault(node, []).append(tp)
        if unknown:
            self._unknown(unknown)
        else:
            self.unknown_since = None
        return leaders

    async def _renew_client(self) -> None:
        """A new client in place of one whose metadata no longer learns leaders: the fetches in
        flight given up, the sessions forgotten (the next fetches are full), the positions
        kept. If the new one cannot start, the old one stays, and this is tried again later."""
        log.warning("leaders unknown for %.0f s: the fetcher's client is replaced",
                    time.monotonic() - (self.unknown_since or 0.0))
        self.unknown_since = time.monotonic()
        fresh = AIOKafkaClient(bootstrap_servers=self.bootstrap)
        try:
            await fresh.bootstrap()
        except BaseException:
            await fresh.close()
            raise
        for task in self.inflight.values():
            task.cancel()
        await asyncio.gather(*self.inflight.values(), return_exceptions=True)
        self.inflight.clear()
        self.sessions.clear()
        old, self._client = self._client, fresh
        fresh.set_topics(self._topics)
        if old is not None:
            await _close_quietly(old)

    def _unknown(self, partitions: list[TopicPartition]) -> None:
        """Look the leaders of `partitions` up; say so when some stay unknown for long (a
        partition left out of every fetch is a table that does not move)."""
        self.client.force_metadata_update()
        now = time.monotonic()
        if self.unknown_since is None:
            self.unknown_since = now
            return
        last = self.looking_up
        bug = last.exception() if last is not None and last.done() and not last.cancelled() \
            else None
        if bug is not None:
            raise bug  # a bug in the look-up (an outage is only logged there)
        if now - self.unknown_since > LOOK_UP_AFTER_S and \
                now - self.looked_up_at > LOOK_UP_AFTER_S and (last is None or last.done()):
            self.looked_up_at = now
            self.looking_up = asyncio.ensure_future(self._look_up())
        if now - self.unknown_since > UNKNOWN_LEADER_WARN_S:
            log.warning("the leaders of %d partitions (%s, …) unknown for %.0f s",
                        len(partitions), partitions[0], now - self.unknown_since)

    async def _look_up(self) -> None:
        """The tracked topics' metadata asked of a broker directly and taken as the client's
        (as its own updater takes an answer: for every topic it tracks), without waiting for
        aiokafka's updater (`LOOK_UP_AFTER_S`). A failure is left to the next look-up, and to
        the client's replacement (`RENEW_CLIENT_S`)."""
        client = self.client
        node = client.get_random_node()
        if node is None:
            return
        topics = sorted(self._topics)
        try:
            metadata = await client.send(node, MetadataRequest(topics))
        except (KafkaError, OSError, TimeoutError) as exc:
            log.info("the leaders asked of node %s: %r", node, exc)
            return
        replaced = client is not self._client  # meanwhile (`_renew_client`)
        if not replaced and metadata.brokers and set(topics) == self._topics:
            client.cluster.update_metadata(metadata)

    async def _fetch_from(self, node: int, partitions: dict[TopicPartition, int]
                          ) -> dict[TopicPartition, list[Record]]:
        if self.linger_ms and node in self.busy:
            # From a leader whose last fetch brought records, the next one waits `linger_ms`
            # before it is sent: the records of those milliseconds come in one fetch, and the
            # worker folds them and writes their states in one round (measured: the workers'
            # CPU per event −33 %). Asked of the broker instead (a fetch's least bytes, held
            # up to the linger), it cost the broker more than it saved: it checks a held fetch
            # at each append.
            await asyncio.sleep(self.linger_ms / 1000)
        session = self.sessions.setdefault(node, _Session())
        if session.sent is None:  # a full request: it opens a session
            changed, forgotten = partitions, {}
        else:
            changed = {tp: offset for tp, offset in partitions.items()
                       if session.sent.get(tp) != offset}
            forgotten = {tp: None for tp in session.sent if tp not in partitions}
        epoch = session.epoch
        request = _SessionFetch(
            session.id, epoch,
            [(topic, [(p, offset, -1, self.partition_max_bytes) for p, offset in parts])
             for topic, parts in _by_topic(changed).items()],
            [(topic, [p for p, _ in parts]) for topic, parts in _by_topic(forgotten).items()],
            self.max_wait_ms)
        session.sent = dict(partitions)
        try:
            response = await self.client.send(node, request)
        except (KafkaError, TimeoutError) as exc:  # the connection, a timeout: start over
            log.warning("fetch from broker %d failed: %r", node, exc)
            session.reset()
            await FAILED_FETCH.wait()
            return {}
        if response.error_code:
            if response.error_code not in SESSION_ERRORS:
                log.warning("fetch from broker %d: %s", node, for_code(response.error_code))
            session.reset()
            return {}
        if response.session_id == 0:  # no room for a session: every request will be full
            session.reset()
        else:
            session.id = response.session_id
            session.epoch = epoch + 1 if epoch < MAX_EPOCH else 1
        records: dict[TopicPartition, list[Record]] = {}
        for topic, answers in response.topics:
            for partition, error, _high, _stable, _start, _aborted, data in answers:
                tp = TopicPartition(topic, partition)
                if error:
                    self._partition_error(tp, error)
                elif data and self.positions.get(tp) == partitions.get(tp):
                    # (not when `tp` was dropped, or pointed elsewhere, meanwhile)
                    found = self._decode(tp, data)
                    if found:
                        records[tp] = found
        if records:
            self.busy.add(node)
        else:
            self.busy.discard(node)
        return records


    async def _find_again(self) -> None:
        """Positions the broker no longer has (the live copies are kept an hour: a worker
        paused longer asks for deleted records): read on from the partition's first record,
        or from its end if the position was past it. A copy passed over costs nothing: the
        table topics are the record, and a shard's sweep finds what no copy announced."""
        partitions = [tp for tp in self.out_of_range if tp in self.positions]
        self.out_of_range.clear()
        starts = await self._offsets(partitions, EARLIEST)
        ends = await self._offsets(partitions, LATEST)
        for tp in partitions:
            if tp in starts and tp in ends and tp in self.positions:
                position = self.positions[tp]
                found = min(max(position, starts[tp]), ends[tp])
                log.warning("%s: offset %d out of range; reading on from %d", tp, position,
                            found)
                self.positions[tp] = found

    def _partition_error(self, tp: TopicPartition, error: int) -> None:
        if error == OFFSET_OUT_OF_RANGE:
            self.out_of_range.add(tp)
        else:  # not the leader (any more), not known yet: look again
            log.info("%s: %s; refreshing metadata", tp, for_code(error).__name__)
            self.client.force_metadata_update()

    def _decode(self, tp: TopicPartition, data: bytes) -> list[Record]:
        """The records from the partition's position on; the position moves past them."""
        records, self.positions[tp] = decode(data, self.positions[tp])
        return records
