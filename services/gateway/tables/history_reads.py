"""`GET /api/tables/{table}/history` in a gateway process: reads bounded in number, served
from one Kafka client and a cache of topics' records, each table's history folded once for
all its readers.

- Reads run at once, each on the shared client (`services.replay.kafka_topics`): a read costs
  a fetch or two, not a consumer of its own.
- A table's records are kept by where its topic ended (`services.replay.topic_cache`), and the
  history folded from them by exactly those records and the query (`board`, `until`,
  `states`): the four seats of a table, or its spectators, reading the same history make one
  fold. Both are the same for every reader; what a reader may see of the history is cut out of
  it for each read (`services.gateway.tables.views`), into a new document: the shared one is never
  changed.
- The public reads a table as it was `TABLESERVER_SPECTATOR_DELAY` ago: its records up to
  the last one appended by then (`appended_by`, by the time the gateway stamped on each event),
  folded as any other cut of the topic.
- At most `limit` reads at once in a process (`TABLESERVER_HISTORY_READS`): one more is
  refused at once (`gates.Busy`, a 503 with Retry-After), so a crowd of readers cannot make
  the gateway hold more and more reads, each waiting longer.
"""

from __future__ import annotations

import json

from services.common import archive
from services.common.kafka.reader import NoTableError, Record
from services.common.names import ARCHIVE, table_topic
from services.gateway.gates import Gate
from services.replay.history import build_history
from services.replay.topic_cache import Lru, TopicCache, size_of
from shared.codec import DecodeError, unpack
from shared.table.history_view import HistoryView

FOLD_BYTES = 32 * 1024 * 1024  # the folded histories kept, by the size of their JSON × 4
ARCHIVED_BYTES = 16 * 1024 * 1024  # closed tables' records kept (they never change)
FOLD_OVERHEAD = 4  # a folded history in Python objects, against the length of its JSON


def appended_by(records: list[Record], before_ms: int) -> int:
    """How many of `records` (a topic's, in order) were appended by `before_ms` (ms since the
    epoch): those before the first of the last ones whose event's `ts` (the gateway's clock
    when it took the event) is later. A record with no `ts` (an import's, or no event) is as
    old as the one before it. Read from the end: only the records of the delay's seconds."""
    kept = len(records)
    for at in range(len(records) - 1, -1, -1):
        try:
            ts = unpack(records[at][1] or b"").get("ts")
        except DecodeError:
            ts = None
        if not isinstance(ts, int):
            continue
        if ts <= before_ms:
            break
        kept = at
    return kept


class HistoryReads:
    def __init__(self, topics: TopicCache, limit: int, fold_bytes: int = FOLD_BYTES) -> None:
        self.topics = topics
        self.gate = Gate(limit, "history reads")
        self.folds: Lru[tuple[str, int, int | None, int | None, bool], HistoryView] = \
            Lru(fold_bytes)
        self.archived: Lru[str, list[Record]] = Lru(ARCHIVED_BYTES)

    async def archive_at(self, offset: int) -> list[Record]:
        """The archive topic's records from `offset` on (as many as one answer holds)."""
        return (await self.topics.source.fetch(ARCHIVE, offset)).records

    async def closed_table(self, table: str, where: archive.Pointer,
                           until: int | None = None) -> list[Record]:
        """A closed table's records from the archive (`where`: its record's `archive`),
        checked, kept (they never change), up to `until`."""
        records = self.archived.get(table)
        if records is None:
            records = await archive.read_archive(self.archive_at, table, where)
            self.archived.put(table, records, size_of(records))
        return records if until is None else [r for r in records if r[0] <= until]

    async def history(self, table: str, board: int | None = None, until: int | None = None,
                      states: bool = False, archived: archive.Pointer | None = None,
                      before_ms: int | None = None) -> HistoryView:
        """The table's history as `services.replay.history.build_history` folds it from the
        table's topic now (a closed table's: from the archive, `archived` its record's
        `archive`), the same for every reader: shared, never to be changed (a reader's
        view is a new document). With `before_ms`, the table as it was then: its records
        appended by then only (`appended_by`). `NoTableError`, `NoSuchBoard`,
        `KafkaUnavailable`."""
        topic = table_topic(table)
        try:
            records = await (self.topics.read(topic, until) if archived is None
                             else self.closed_table(table, archived, until))
        except NoTableError:
            raise NoTableError(f"no table {table} (no topic {topic})") from None
        if before_ms is not None:
            records = records[:appended_by(records, before_ms)]
        key = (table, len(records), board, until, states)  # the first len(records) records
        document = self.folds.get(key)
        if document is None:
            document = build_history(table, records, board, until, states)
            size = len(json.dumps(document, default=str, separators=(",", ":")))
            self.folds.put(key, document, FOLD_OVERHEAD * size)
        return document
