"""Reading one-partition topics (tables', tournaments') for many readers at once, with one
long-lived Kafka client: what the gateway's `/history` reads with.

A read is fetch requests for the topic's partition from an offset, sent to its leader, with no
wait at the broker: each answer says where the partition ends (its high watermark, what a
consumer's `end_offsets` gives), so the reader knows when it has everything without waiting
for records that are not there. Reads share the client and its connections and run at once;
nothing is assigned, and there is no background fetcher to wait for.

(aiokafka's consumer, which the gateway read with before, keeps one assignment: a read of
another table waited for the fetch in flight for the previous one, which the broker holds up to
`fetch_max_wait_ms`, 500 ms, when it has no records: about half a second a read, one read at a
time per consumer; measured in bench/history_bench.py.)

The leader of each topic's partition is asked for once (a metadata request for that topic
only) and kept until a fetch says it moved. The client itself tracks only `track` (e.g. the
registry topic), so that its periodic metadata refresh stays small however many tables there
are, and still learns the brokers.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from aiokafka.client import AIOKafkaClient
from aiokafka.errors import KafkaError, KafkaTimeoutError, RequestTimedOutError
from aiokafka.protocol.fetch import FetchRequest
from aiokafka.protocol.metadata import MetadataRequest

from services.common.backoff import Backoff
from services.common.kafka.batches import decode
from services.common.kafka.reader import KafkaUnavailable, NoTableError, Record

log = logging.getLogger("tableserver.topics")

READ_UNCOMMITTED = 0  # as the consumer read before: table topics have no transactions
NO_ERROR, OFFSET_OUT_OF_RANGE, UNKNOWN_TOPIC, INVALID_TOPIC = 0, 1, 3, 17
NO_SUCH_TOPIC = (UNKNOWN_TOPIC, INVALID_TOPIC)  # (a name no topic can have: none either)
ATTEMPTS = 8  # a request that fails (a leader moved, a connection lost) is sent again
BACKOFF_S = (0.1, 1.0)  # the first pause, doubled at each attempt up to a second


@dataclass(frozen=True)
class Fetched:
    """One fetch's answer: records from the offset asked on (maybe not all of them: as many as
    one answer holds), the offset to fetch next, and where the partition ended."""

    records: list[Record]
    next: int
    end: int


class OffsetGone(KafkaUnavailable):
    """The partition has no record at the offset asked (a topic deleted and made again): read
    it again from its start."""


class _Retry(Exception):
    """The request may succeed if sent again (a leader moved or is being elected)."""


class KafkaTopics:
    def __init__(self, bootstrap: str, track: list[str] | None = None,
                 request_timeout_ms: int = 10_000, max_bytes: int = 4 * 1024 * 1024) -> None:
        self.bootstrap = bootstrap
        self.track = track or []
        self.request_timeout_ms = request_timeout_ms
        self.max_bytes = max_bytes  # of one answer (a broker sends at least a whole batch)
        self.leaders: dict[str, int] = {}  # topic → the leader of its partition 0
        self._client: AIOKafkaClient | None = None

    @property
    def client(self) -> AIOKafkaClient:
        assert self._client is not None, "start() first"
        return self._client

    async def start(self) -> None:
        client = AIOKafkaClient(bootstrap_servers=self.bootstrap,
                                request_timeout_ms=self.request_timeout_ms)
        try:
            await client.bootstrap()
        except KafkaError as exc:
            await client.close()
            raise KafkaUnavailable.of(self.bootstrap, exc) from None
        if self.track:
            client.set_topics(self.track)
        self._client = client

    async def stop(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    async def fetch(self, topic: str, start: int) -> Fetched:
        """`topic`'s records from offset `start` on; `NoTableError` when there is no such
        topic, `KafkaUnavailable` when Kafka does not answer (after a few attempts)."""
        backoff = Backoff.doubling(*BACKOFF_S)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return await self._fetch(topic, start)
            except (_Retry, KafkaError, TimeoutError) as exc:
                self.leaders.pop(topic, None)
                if attempt == ATTEMPTS or isinstance(exc, KafkaTimeoutError
                                                     | RequestTimedOutError | TimeoutError):
                    # a timeout has waited long enough already
                    error = exc if isinstance(exc, KafkaError) else KafkaTimeoutError()
                    raise KafkaUnavailable.of(self.bootstrap, error) from None
                log.info("reading %s: %r; asking again", topic, exc)
                self.client.force_metadata_update()
                await backoff.wait()
        raise AssertionError("unreachable")

    async def _fetch(self, topic: str, start: int) -> Fetched:
        node = await self._leader(topic)
        request = FetchRequest(0, 1, self.max_bytes, READ_UNCOMMITTED,
                               [(topic, [(0, start, self.max_bytes)])])
        response = await self.client.send(node, request)
        for name, partitions in response.topics:
            for partition, error, end, *rest in partitions:
                if name != topic or partition != 0:
                    continue
                if error == NO_ERROR:
                    return _decode(rest[-1], start, end)
                if error == OFFSET_OUT_OF_RANGE:
                    raise OffsetGone(f"{topic} has no offset {start} (it ends at {end})")
                if error == UNKNOWN_TOPIC:  # gone (a `NoTableError`), or its leader moved
                    self.leaders.pop(topic, None)
                    await self._leader(topic)
                raise _Retry(f"{topic}: fetch error {error}")
        raise _Retry(f"{topic}: no answer for its partition")

    async def _leader(self, topic: str) -> int:
        node = self.leaders.get(topic)
        if node is not None:
            return node
        asked = self.client.get_random_node()
        if asked is None:
            self.client.force_metadata_update()
            raise _Retry("no broker known yet")
        response = await self.client.send(
            asked, MetadataRequest([topic], allow_auto_topic_creation=False))
        for error, name, *_, partitions in response.topics:
            if name != topic:
                continue
            if error in NO_SUCH_TOPIC:
                raise NoTableError(f"no topic {topic}")
            for _error, partition, leader, *_ in partitions:
                if partition == 0 and leader >= 0:
                    if self.client.cluster.broker_metadata(leader) is None:
                        raise _Retry(f"{topic}: its leader {leader} is a broker not known yet")
                    if len(self.leaders) > 100_000:  # a bound, not an eviction policy
                        self.leaders.clear()
                    self.leaders[topic] = leader
                    return int(leader)
        raise _Retry(f"{topic}: no leader yet")


def _decode(data: bytes | None, start: int, end: int) -> Fetched:
    """The records of a fetch's answer from offset `start` on, below `end`; control records
    (transaction markers) left out, as a consumer leaves them."""
    records, position = decode(data, start, end, _pair)
    return Fetched(records, position, end)


def _pair(offset: int, _key: bytes | None, value: bytes | None) -> Record:
    return offset, value
