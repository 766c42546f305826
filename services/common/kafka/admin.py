"""Creating tableserver's topics (the broker creates none by itself: auto-create is off).

Each function raises ours, `LogUnavailable` (`services.common.kafka_faults`), for Kafka's errors
(a topic that exists already, or is gone already, is told here and is no error), and
TimeoutError when the brokers are slow to agree (`leaders_elected`, `_gone`)."""

from __future__ import annotations

import asyncio
import contextlib

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType
from aiokafka.errors import TopicAlreadyExistsError, UnknownTopicOrPartitionError, for_code

from services.common.kafka_faults import translating
from services.common.names import (
    ALERTS,
    ARCHIVE,
    CHECKPOINTS,
    HANDLED,
    HEALTH,
    LIVE,
    REGISTRY,
    ROBOTS,
    table_topic,
    tournament_topic,
)

UNKNOWN_TOPIC = UnknownTopicOrPartitionError.errno  # a topic's error code: no such topic
FOREVER = {"retention.ms": "-1", "retention.bytes": "-1"}
COMPACTED = {"cleanup.policy": "compact"}
AN_HOUR = {"retention.ms": str(3600 * 1000)}
# A table's topic holds a few hundred kB in a whole session, but the broker maps each
# partition's offset and time indexes as files of `segment.index.bytes` (10 MB by default).
# The first index entry (after 4 kB of log, about 40 events: the same moment at every table of a
# tournament) faults the mapping in, and the kernel reads ahead up to the device's readahead
# (8 MB on our VMs) of zeros into the page cache: ~20 ms of CPU per index, and over 1,000 tables
# a broker busy for a minute (measured: docs/performance-log.md). 64 kB still indexes ~20 MB of log
# before the segment rolls.
TABLE = {**FOREVER, "segment.index.bytes": str(64 * 1024)}
# To serve a fetch, the broker finds the fetched offset in the log: from the offset index's
# nearest entry (one every 4 kB of log by default) it reads each batch's header, two small file
# reads per batch. A live copy is a batch of ~100 bytes: at 500 calls/s that was ~16,700 file
# reads a second; with an entry every 128 bytes, a batch or two is read (docs/performance-log.md).
LIVE_COPIES = {**AN_HOUR, "index.interval.bytes": "128"}
PROBES = {**AN_HOUR, "segment.ms": str(3600 * 1000)}  # its old segments go, an hour each
# A tournament's creation is one record: its deals and players' names, as much as the upload
# limit admits (4 MiB by default; 10,000 boards with their dealers and vulnerabilities make
# 1.4 MB), past the 1 MB a record Kafka takes by default. Its topic takes records of up to
# 8 MiB (the gateway refuses a larger tournament up front, naming the field).
TOURNAMENT_RECORD_BYTES = 8 * 2**20
TOURNAMENT = {**FOREVER, "max.message.bytes": str(TOURNAMENT_RECORD_BYTES)}
# Closed tables' events (`services.common.archive`), kept forever; not compacted: a close cut
# short and sent again writes a second copy, and each copy a record ever pointed at stays.
ARCHIVED = FOREVER
# A closed table's topic takes no more appends: every batch is larger than this (the broker
# answers RecordTooLarge), while the table is archived and until its topic is deleted.
FENCED = {**TABLE, "max.message.bytes": "1"}


async def _create(admin: AIOKafkaAdminClient, topics: list[NewTopic]) -> None:
    for topic in topics:  # one at a time: one that exists must not stop the others
        with contextlib.suppress(TopicAlreadyExistsError):
            await admin.create_topics([topic])


@translating
async def ensure_core_topics(admin: AIOKafkaAdminClient, shards: int, replication: int) -> None:
    """The registry, checkpoints, live, alerts, handled-marks, health and robots topics, if
    missing."""
    existing = set(await admin.list_topics())
    wanted = [
        NewTopic(REGISTRY, shards, replication, topic_configs=COMPACTED),
        NewTopic(CHECKPOINTS, shards, replication, topic_configs=COMPACTED),
        NewTopic(LIVE, shards, replication, topic_configs=LIVE_COPIES),
        NewTopic(ALERTS, 1, replication, topic_configs=FOREVER),
        NewTopic(HANDLED, 1, replication, topic_configs=FOREVER),
        NewTopic(HEALTH, 1, replication, topic_configs=PROBES),
        NewTopic(ROBOTS, 1, replication, topic_configs=COMPACTED),
        NewTopic(ARCHIVE, 1, replication, topic_configs=ARCHIVED),
    ]
    await _create(admin, [t for t in wanted if t.name not in existing])


@translating
async def create_table_topic(admin: AIOKafkaAdminClient, table: str, replication: int) -> None:
    """A table's topic: one partition (one total order), kept forever, small indexes."""
    await _create(admin, [NewTopic(table_topic(table), 1, replication, topic_configs=TABLE)])


TOPICS_A_REQUEST = 250  # topics created (described, fenced, deleted) by one request
# A tournament's topics in as few creations as KRaft takes: it refuses a request of more than
# 10,000 metadata records ("excessively large batch operation", `max.records.per.user.op`),
# and a table's topic is 5 (the topic, its partition, its 3 settings), so 2,000 tables and the
# tournament's topic were 10,005. 1,500 topics were all writable (a record appended to each)
# 9.6 and 31.4 s after one request, 28.0 and 37.8 s after requests of 250 (load 30–35;
# docs/performance.md, "The Funbridge night"). After one request the leaders are known at once
# but the partitions take appends seconds later (an append meanwhile: 503, retried).
RECORDS_A_CREATION = 9_000  # KRaft's 10,000 less a tenth


def creations(topics: list[NewTopic]) -> list[list[NewTopic]]:
    """`topics` in requests of at most `RECORDS_A_CREATION` metadata records each."""
    requests: list[list[NewTopic]] = [[]]
    records = 0
    for topic in topics:
        cost = 1 + topic.num_partitions + len(topic.topic_configs)
        if records + cost > RECORDS_A_CREATION and requests[-1]:
            requests.append([])
            records = 0
        requests[-1].append(topic)
        records += cost
    return requests


CREATE_TIMEOUT_MS = 60_000
LEADERS_TIMEOUT_S = 30.0


@translating
async def create_tournament_topics(admin: AIOKafkaAdminClient, tournament: str,
                                   tables: list[str], replication: int) -> None:
    """A tournament's topic and its tables' topics, in as few requests as KRaft takes
    (`creations`: one request a topic cost 1,000 tables a round trip each to the controller,
    requests of a few hundred their leaders seconds later than one). Topics that exist are left
    as they are, creating a tournament again is harmless; but the tournament's topic is given
    its settings again, in case an earlier version (or attempt) made it with Kafka's limit of
    1 MB a record."""
    mine = tournament_topic(tournament)
    topics = [NewTopic(mine, 1, replication, topic_configs=TOURNAMENT),
              *(NewTopic(table_topic(t), 1, replication, topic_configs=TABLE) for t in tables)]
    for request in creations(topics):
        response = await admin.create_topics(request, timeout_ms=CREATE_TIMEOUT_MS)
        for name, code, *message in response.topic_errors:
            if code not in (0, TopicAlreadyExistsError.errno):
                raise for_code(code)(f"topic {name}: {message[0] if message else ''}")
            if name == mine and code == TopicAlreadyExistsError.errno:
                await configure(admin, mine, TOURNAMENT)
    await leaders_elected(admin, [topic.name for topic in topics])


@translating
async def configure(admin: AIOKafkaAdminClient, topic: str, configs: dict[str, str]) -> None:
    """Set `topic`'s settings to `configs` (all of them: those not given go back to the
    broker's defaults)."""
    responses = await admin.alter_configs([ConfigResource(ConfigResourceType.TOPIC, topic,
                                                          configs=configs)])
    for response in responses:
        for code, message, *_ in response.resources:
            if code != 0:
                raise for_code(code)(f"topic {topic}'s settings: {message}")


@translating
async def leaders_elected(admin: AIOKafkaAdminClient, topics: list[str]) -> None:
    """Wait until every topic's partition has a leader. The controller answers a creation at
    once, and the brokers elect the new partitions' leaders seconds later (3.5–6 s for 1,000
    tables, measured: bench/tournament_bench.py): a round sent meanwhile waited for them and
    was answered 503. TimeoutError after `LEADERS_TIMEOUT_S`."""
    async with asyncio.timeout(LEADERS_TIMEOUT_S):
        waiting = topics
        while waiting:
            described = await admin.describe_topics(waiting)
            ready = {t["topic"] for t in described if t["error_code"] == 0 and t["partitions"]
                     and all(p["leader"] >= 0 for p in t["partitions"])}
            waiting = [t for t in waiting if t not in ready]
            if waiting:
                await asyncio.sleep(0.1)


@translating
async def fence_table_topics(admin: AIOKafkaAdminClient, tables: list[str]) -> None:
    """The tables' topics take no more appends (`FENCED`), once every broker says so: an
    event a gateway appends after that is refused by Kafka, so the records read next are all
    there will be. A topic already gone is left alone."""
    await fence_topics(admin, [table_topic(t) for t in tables])


@translating
async def fence_topics(admin: AIOKafkaAdminClient, topics: list[str]) -> None:
    """`fence_table_topics` for any topics (a closed tournament's own)."""
    for start in range(0, len(topics), TOPICS_A_REQUEST):
        part = topics[start:start + TOPICS_A_REQUEST]
        responses = await admin.alter_configs(
            [ConfigResource(ConfigResourceType.TOPIC, topic, configs=FENCED) for topic in part])
        for response in responses:
            for code, message, _kind, name in response.resources:
                if code not in (0, UNKNOWN_TOPIC):
                    raise for_code(code)(f"topic {name}'s settings: {message}")
    async with asyncio.timeout(LEADERS_TIMEOUT_S):
        while waiting := await _not_fenced(admin, topics):
            topics = waiting
            await asyncio.sleep(0.05)


async def _not_fenced(admin: AIOKafkaAdminClient, topics: list[str]) -> list[str]:
    """The topics whose broker does not say yet that they take no more appends."""
    waiting: list[str] = []
    for start in range(0, len(topics), TOPICS_A_REQUEST):
        described = await admin.describe_configs(
            [ConfigResource(ConfigResourceType.TOPIC, t, configs={"max.message.bytes": None})
             for t in topics[start:start + TOPICS_A_REQUEST]])
        for response in described:
            for code, _message, _kind, name, entries in response.resources:
                if code == UNKNOWN_TOPIC:
                    continue
                values = {entry[0]: entry[1] for entry in entries}
                if code != 0 or values.get("max.message.bytes") != FENCED["max.message.bytes"]:
                    waiting.append(name)
    return waiting


@translating
async def delete_table_topics(admin: AIOKafkaAdminClient, tables: list[str]) -> None:
    """The tables' topics deleted (a topic already gone is no error)."""
    await delete_topics(admin, [table_topic(t) for t in tables])


@translating
async def delete_topics(admin: AIOKafkaAdminClient, topics: list[str]) -> None:
    """`delete_table_topics` for any topics (a closed tournament's own)."""
    for start in range(0, len(topics), TOPICS_A_REQUEST):
        response = await admin.delete_topics(topics[start:start + TOPICS_A_REQUEST],
                                             timeout_ms=CREATE_TIMEOUT_MS)
        for name, code, *_ in response.topic_error_codes:
            if code not in (0, UNKNOWN_TOPIC):
                raise for_code(code)(f"topic {name} not deleted")
    await _gone(admin, topics)


async def _gone(admin: AIOKafkaAdminClient, topics: list[str]) -> None:
    """Wait until the brokers know no more of `topics` (the controller answers a deletion
    once it is decided; a broker's metadata learns it later: 750 of 1,000 topics were still
    listed right after, measured). TimeoutError after `LEADERS_TIMEOUT_S`."""
    async with asyncio.timeout(LEADERS_TIMEOUT_S):
        waiting = topics
        while waiting:
            left = []
            for start in range(0, len(waiting), TOPICS_A_REQUEST):
                described = await admin.describe_topics(waiting[start:start + TOPICS_A_REQUEST])
                left += [t["topic"] for t in described
                         if t["error_code"] != UNKNOWN_TOPIC]
            waiting = left
            if waiting:
                await asyncio.sleep(0.1)
