"""A tournament's own records (its creation, rounds, entrants, the Director's scores) wherever
they are: its topic while it is open, the archive once the director has closed it
(`services.gateway.tournaments.close`; where, the tournament's record says). Every read of a
tournament reads here, so a closed tournament reads as it did before its close; and its writes
ask here whether it is closed."""

from __future__ import annotations

import json
from typing import Any

from services.common.errors import Unavailable
from services.common.kafka.produce import append_all
from services.common.kafka.reader import NoTableError, Record
from services.common.names import tournament_topic
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from shared.ids import TABLE_ID


def archive_name(tournament: str) -> str:
    """The name a tournament's records are archived under: its topic's (no table's name has a
    dot, so it is no table's)."""
    return tournament_topic(tournament)


async def tournament_records(gw: Gateway, tournament: str) -> list[Record]:
    """The tournament's records, from its topic or, closed, from the archive (checked).
    `NoTableError` for a tournament with neither, `KafkaUnavailable`."""
    record = await gw.adapters.store.tournament_record(tournament)
    if record is None or "archive" not in record:
        try:
            return await gw.adapters.history.topics.read(tournament_topic(tournament))
        except NoTableError:  # closed meanwhile, or Redis lost the tournament's record
            record = await gw.adapters.store.tournament_record(tournament) \
                or await _from_tables(gw, tournament)
            if record is None or "archive" not in record:
                raise
    return await gw.adapters.history.closed_table(archive_name(tournament), record["archive"])


async def _from_tables(gw: Gateway, tournament: str) -> dict[str, Any] | None:
    """A closed tournament's record from its first table's (`<t>-1`, the name a tournament's
    tables are given by count), which keeps a copy in the registry: for a Redis that lost its
    data. Written to Redis again."""
    table = f"{tournament}-1"
    if not TABLE_ID.fullmatch(table):
        return None
    try:
        meta = await gw.fresh_meta(table)
    except Refused:
        return None
    if meta.get("tournament") != tournament or "tournament_archive" not in meta:
        return None
    record = {"tournament": tournament, "closed": meta.get("tournament_closed"),
              "archive": meta["tournament_archive"]}
    await gw.adapters.store.remember_tournament(tournament, record)
    return record


def _closed(tournament: str, field: str, what: str) -> Refused:
    return Refused(f"tournament {tournament} is closed: the director closed it, it takes no "
                   f"more {what} (its results stay readable)", field, Kind.CONFLICT)


async def refuse_closed(gw: Gateway, tournament: str, field: str, what: str) -> None:
    """A 409 naming `field` when the director has closed the tournament: nothing is recorded
    on its topic (`what`: what it takes no more of)."""
    if await gw.adapters.store.tournament_record(tournament) is not None:
        raise _closed(tournament, field, what)


async def append_record(gw: Gateway, tournament: str, event: dict[str, Any], doing: str,
                        field: str, what: str) -> int:
    """The event appended to the tournament's topic: its offset, once Kafka acknowledged it.
    Not acknowledged (`Unavailable`): a 409 instead when the tournament was closed meanwhile
    (Kafka refuses its fenced topic's appends) or Redis lost its record; else retry."""
    return (await append_records(gw, tournament, [event], doing, field, what))[0]


async def append_records(gw: Gateway, tournament: str, events: list[dict[str, Any]],
                         doing: str, field: str, what: str) -> list[int]:
    """The events appended to the tournament's topic in order, sent at once and acknowledged
    together (one produce round trip): their offsets; not acknowledged as `append_record`."""
    try:
        return await append_all(gw.adapters.producer, tournament_topic(tournament),
                                [json.dumps(event).encode() for event in events],
                                timeout_s=gw.settings.produce_timeout_s,
                                doing=doing, then="retry (doing it twice is harmless)")
    except Unavailable:
        if await gw.adapters.store.tournament_record(tournament) is not None \
                or await _from_tables(gw, tournament) is not None:
            raise _closed(tournament, field, what) from None
        raise
