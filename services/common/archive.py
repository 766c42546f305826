"""A closed table's archive: its topic's records, as they were, in `tableserver.archive`.

A table's records (offset, value) are packed into one archive record, or a few for a long table
(`CHUNK_BYTES` each, under Kafka's default 1 MB a record): msgpack
`{"table", "chunk", "records": [[offset, value], ...]}`, key `<table>#<chunk>` (kept forever,
not compacted: an archive written again after a close cut short is a second copy, and the copy
a record points at never goes). Where they are
is in the table's registry record (`services.common.registry`), under `archive`:

    {"offsets": [the archive's offset of each chunk], "count": records, "end": the table
     topic's end offset, "sha256": the records' checksum}

so a read of a closed table fetches exactly its chunks, and the archiver checks the copy it
reads back (count and checksum) before the table's topic is deleted. Pure: no I/O here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgpack

from services.common.kafka.reader import KafkaUnavailable, Record

CHUNK_BYTES = 512 * 1024
Pointer = dict[str, Any]  # "offsets", "count", "end", "sha256"


class ArchiveError(KafkaUnavailable):
    """The archive does not hold what the table's record says it holds."""


def checksum(records: Sequence[Record]) -> str:
    """SHA-256 over every record's offset, length and value, in order."""
    digest = hashlib.sha256()
    for offset, value in records:
        raw = value or b""
        digest.update(offset.to_bytes(8, "big"))
        digest.update(len(raw).to_bytes(4, "big"))
        digest.update(raw)
    return digest.hexdigest()


def chunk_key(table: str, chunk: int) -> bytes:
    return f"{table}#{chunk}".encode()


def pack(table: str, records: Sequence[Record]) -> list[bytes]:
    """The archive records of `table`'s records: one, or one per `CHUNK_BYTES` of values."""
    chunks: list[list[Record]] = [[]]
    size = 0
    for record in records:
        length = len(record[1] or b"") + 16
        if chunks[-1] and size + length > CHUNK_BYTES:
            chunks.append([])
            size = 0
        chunks[-1].append(record)
        size += length
    return [msgpack.packb({"table": table, "chunk": n, "records": [list(r) for r in chunk]},
                          use_bin_type=True) for n, chunk in enumerate(chunks)]


def unpack(table: str, chunk: int, value: bytes | None) -> list[Record]:
    """A chunk's records; `ArchiveError` when it is not `table`'s chunk `chunk`."""
    try:
        found = msgpack.unpackb(value or b"", raw=False)
    except (ValueError, msgpack.ExtraData) as exc:
        raise ArchiveError(f"table {table}'s archive: chunk {chunk} unreadable ({exc})") \
            from None
    if not isinstance(found, dict) or found.get("table") != table \
            or found.get("chunk") != chunk:
        raise ArchiveError(f"table {table}'s archive: chunk {chunk} is another record")
    return [(int(offset), value) for offset, value in found["records"]]


def pointer(offsets: list[int], records: Sequence[Record], end: int) -> Pointer:
    return {"offsets": offsets, "count": len(records), "end": end, "sha256": checksum(records)}


def check(table: str, where: Pointer, records: Sequence[Record]) -> list[Record]:
    """`records` if they are what `where` says (their count and checksum); `ArchiveError`
    else."""
    if len(records) != where["count"] or checksum(records) != where["sha256"]:
        raise ArchiveError(f"table {table}'s archive holds {len(records)} records, not the "
                           f"{where['count']} archived (or their checksum differs)")
    return list(records)


async def read_archive(fetch: Callable[[int], Awaitable[list[Record]]], table: str,
                       where: Pointer, until: int | None = None) -> list[Record]:
    """The archived records of `table` (checked) with offsets up to `until` (all when None);
    `fetch(offset)` gives the archive topic's records from that offset on."""
    records: list[Record] = []
    for chunk, offset in enumerate(where["offsets"]):
        found = [value for at, value in await fetch(offset) if at == offset]
        if not found:
            raise ArchiveError(f"table {table}'s archive: no record at offset {offset}")
        records += unpack(table, chunk, found[0])
    records = check(table, where, records)
    return records if until is None else [r for r in records if r[0] <= until]
