"""`GET /api/tables/{table}/history` in a gateway process: reads bounded in number, served
from one Kafka client and a cache of topics' records, each table's history folded once for
all its readers.

- Reads run at once, each on the shared client (`services.replay.kafka_topics`): a read costs
  a fetch or two, not a consumer of its own.
- A table's records are kept by where its topic ended (`services.replay.topic_cache`), and the
  history folded from them by exactly those records and the query (`board`, `until`,
  `states`): the four seats of a table, or its spectators, reading the same history make one
  fold. Both are the same for every reader; what a reader may see of the history is cut out of
  it for each read (`services.gateway.views`), into a new document: the shared one is never
  changed.
- At most `limit` reads at once in a process (`TABLESERVER_HISTORY_READS`): one more is
  refused at once (`gates.Busy`, a 503 with Retry-After), so a crowd of readers cannot make
  the gateway hold more and more reads, each waiting longer.
"""

from __future__ import annotations

import json
from typing import Any

from services.common import archive
from services.common.kafka.reader import NoTableError, Record
from services.common.names import ARCHIVE, table_topic
from services.gateway.gates import Gate
from services.replay.history import build_history
from services.replay.topic_cache import Lru, TopicCache, size_of

FOLD_BYTES = 32 * 1024 * 1024  # the folded histories kept, by the size of their JSON × 4
ARCHIVED_BYTES = 16 * 1024 * 1024  # closed tables' records kept (they never change)
FOLD_OVERHEAD = 4  # a folded history in Python objects, against the length of its JSON


class HistoryReads:
    def __init__(self, topics: TopicCache, limit: int, fold_bytes: int = FOLD_BYTES) -> None:
        self.topics = topics
        self.gate = Gate(limit, "history reads")
        self.folds: Lru[tuple[str, int, int | None, int | None, bool], dict[str, Any]] = \
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
                      states: bool = False, archived: archive.Pointer | None = None
                      ) -> dict[str, Any]:
        """The table's history as `services.replay.history.build_history` folds it from the
        table's topic now (a closed table's: from the archive, `archived` its record's
        `archive`), the same for every reader: shared, never to be changed (a reader's
        view is a new document). `NoTableError`, `NoSuchBoard`, `KafkaUnavailable`."""
        topic = table_topic(table)
        try:
            records = await (self.topics.read(topic, until) if archived is None
                             else self.closed_table(table, archived, until))
        except NoTableError:
            raise NoTableError(f"no table {table} (no topic {topic})") from None
        key = (table, len(records), board, until, states)  # the first len(records) records
        document = self.folds.get(key)
        if document is None:
            document = build_history(table, records, board, until, states)
            size = len(json.dumps(document, default=str, separators=(",", ":")))
            self.folds.put(key, document, FOLD_OVERHEAD * size)
        return document
