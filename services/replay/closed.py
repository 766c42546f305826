"""A table's records for the command line, wherever they are: its topic while it is in play,
the archive once the director has closed it (`services.common.archive`; where, its registry
record says)."""

from __future__ import annotations

from services.common import archive, registry
from services.common.kafka.reader import NoTableError, Record, read_table
from services.common.names import ARCHIVE
from services.replay.kafka_topics import KafkaTopics


async def read_archived(bootstrap: str, table: str, where: archive.Pointer,
                        until: int | None = None) -> list[Record]:
    """A closed table's records from the archive (checked), up to `until`."""
    topics = KafkaTopics(bootstrap)
    await topics.start()
    try:
        async def fetch(offset: int) -> list[Record]:
            return (await topics.fetch(ARCHIVE, offset)).records
        return await archive.read_archive(fetch, table, where, until)
    finally:
        await topics.stop()


async def read_any_table(bootstrap: str, table: str, shards: int, until: int | None = None
                         ) -> list[Record]:
    """`read_table`, or, for a table with no topic, its archive; `NoTableError` when it has
    neither."""
    try:
        return await read_table(bootstrap, table, until)
    except NoTableError:
        record = await registry.registered(bootstrap, table, shards)
        if record is None or "archive" not in record:
            raise
    return await read_archived(bootstrap, table, record["archive"], until)
