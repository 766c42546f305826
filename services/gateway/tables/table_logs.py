"""Tables' records wherever they are: a table in play's in its topic, a closed table's in the
archive (`services.common.archive`), which its record points at. The tournament's export and
results read here, so a closed tournament reads as it did before its close."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from services.common.kafka.reader import NoTableError, Record
from services.common.names import table_topic
from services.gateway.tables.service import Gateway


async def records_of(gw: Gateway, tables: list[str]) -> dict[str, dict[str, Any]]:
    """The tables' records as Redis has them now (a gateway's cache may predate a close); from
    the registry for one Redis lacks."""
    found = await gw.adapters.store.records_of(tables)
    return {t: found[t] if t in found else await gw.table_meta(t) for t in tables}


async def table_logs(gw: Gateway, tables: list[str], since: Mapping[str, int] | None = None
                     ) -> dict[str, list[Record]]:
    """Every table's records, read at once: the topics of those in play with one consumer
    (each from its offset in `since`, 0 when not there: what a reader has not folded yet),
    the archive's chunks of the closed ones (whole). `KafkaUnavailable` when Kafka does not
    answer."""
    records = await records_of(gw, tables)
    live = [t for t in tables if "archive" not in records[t]]
    closed = [t for t in tables if "archive" in records[t]]
    starts = {table_topic(t): since[t] for t in live if since and since.get(t)}
    found = await gw.adapters.reads.topics([table_topic(t) for t in live], starts) \
        if live else {}
    archived = await asyncio.gather(*(gw.adapters.history.closed_table(t, records[t]["archive"])
                                      for t in closed))
    return {**{t: found[table_topic(t)] for t in live}, **dict(zip(closed, archived, strict=True))}


async def table_log(gw: Gateway, table: str, until: int | None = None) -> list[Record]:
    """One table's records up to `until`, from its topic or, closed, from the archive (a topic
    gone since this gateway cached the table's record: the record is read again)."""
    meta = await gw.table_meta(table)
    if "archive" not in meta:
        try:
            return await gw.adapters.reads.table(table, until)
        except NoTableError:
            meta = await gw.fresh_meta(table)
            if "archive" not in meta:
                raise
    return await gw.adapters.history.closed_table(table, meta["archive"], until)
