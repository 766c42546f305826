"""A director closes tables: their events archived, their topics deleted.

`close_tables` runs these steps for a list of tables (a table's, or every table of a
tournament, at once), each one leaving what it finds done alone, so a close cut short (the
gateway killed half-way, Kafka away) is sent again and finishes:

1. **checked**: a table whose board is in play is refused (409) unless `force`; nothing is
   changed before every table passed;
2. **closed**: each table's record says `closed` (Redis and the registry topic): gateways
   refuse its events (409) from then on;
3. **fenced**: each topic takes no more appends (Kafka refuses them: `TopicAdmin.fence`),
   so what is read next is everything the table will ever hold;
4. **folded**: the processor has folded each table to its end (its state's version in Redis),
   so every alert it raises is in the alerts' topic;
5. **archived**: the records read again, written to `tableserver.archive`
   (`services.common.archive`), read back from there and checked (count and SHA-256); and
   each topic read once more, to check it ends where its archive does;
6. **marked**: each record says where its archive is (`archive`); from then on every read of
   the table (history, exports, results, `tableserver replay`) reads the archive, and the
   processor lets the table go;
7. **deleted**: the topics deleted.

A tournament's close goes on with its own topic (`services.gateway.tournaments.close`: `then`).
A gateway, as it starts, finishes every close cut short (`resume_closes`). A table already
marked skips to 7. A close that can never finish (a table closed, not archived, whose topic is
gone: its records are nowhere to archive from) is set aside: its record says `close_lost`, the
Director is alerted once (an alert of kind `close_lost` on `tableserver.alerts`), and the other
closes cut short go on. An archive written twice (a close cut short between 5 and 6)
leaves two copies (the archive topic keeps every record); the record points at the one
checked.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from services.common import archive, registry
from services.common.backoff import Backoff
from services.common.errors import ServiceError, Unavailable
from services.common.kafka.produce import acknowledged, send
from services.common.kafka.reader import KafkaUnavailable, Record
from services.common.names import ALERTS, ARCHIVE, table_topic
from services.common.store import StateStore
from services.gateway.ports import Appender, Registry, TopicAdmin, TopicsUnavailable
from services.gateway.refusals import Kind, Refused
from services.gateway.robots.requests import record_request
from services.gateway.tables.service import Gateway
from shared.table.board import Board
from shared.table.table_run import TableRun

log = logging.getLogger("tableserver.closing")
FOLDED_TIMEOUT_S = 30.0
READS_AT_ONCE = 32  # archive chunks read back at once
Step = Callable[[str, list[str]], Awaitable[None]]  # a step done, for these tables


@dataclass
class Archiver:
    """What a close needs (services/gateway/ports.py): the topics' admin, the producer, the
    state store, the registry, and two readers: `topics` (many table topics whole:
    `TopicReads.topics`) and `fetch` (the archive topic from an offset on)."""

    admin: TopicAdmin
    producer: Appender
    store: StateStore
    registry: Registry
    topics: Callable[[list[str]], Awaitable[dict[str, list[Record]]]]
    fetch: Callable[[int], Awaitable[list[Record]]]
    folded_timeout_s: float = FOLDED_TIMEOUT_S
    on_step: Step | None = None  # told after each step (the bench times them; tests cut in)
    timings: dict[str, float] = field(default_factory=dict)  # step → seconds, last close


def _board(table: str, records: list[Record]) -> Board | None:
    """The table's board at the end of `records` (the last started), if any."""
    run = TableRun(table)
    for offset, value in records:
        run.apply(offset, value)
    return run.state.board


def in_play(table: str, records: list[Record]) -> bool:
    """Whether the table's board is in play: started, and not over (passed out or played)."""
    board = _board(table, records)
    return board is not None and not board.period_over


async def close_tables(archiver: Archiver, records: dict[str, registry.TableRecord],
                       force: bool = False, marks: Mapping[str, Any] | None = None
                       ) -> dict[str, Any]:
    """Close, archive and delete the tables of `records` (their registry records): the tables
    and the events archived. `Refused` (409) for tables in play without `force`,
    `Unavailable` when Kafka or the processor does not answer in time (retry). `marks` go in
    each table's record with its `closed` (a tournament's close says so: `TOURNAMENT_CLOSING`)."""
    open_ = [t for t, r in records.items() if "archive" not in r]
    step = Steps(archiver)
    if open_:
        unclosed = [] if force else [t for t in open_ if "closed" not in records[t]]
        if unclosed:  # (a table closed already was checked then)
            logs = await archiver.topics([table_topic(t) for t in unclosed])
            playing = [t for t in unclosed if in_play(t, logs[table_topic(t)])]
            if playing:
                raise Refused(f"a board is in play at {', '.join(sorted(playing)[:10])}"
                              f"{' …' if len(playing) > 10 else ''}; close when it is over, "
                              "or with force=true", "force", Kind.CONFLICT)
        await step("checked", open_)
        now = int(time.time() * 1000)
        closing = {t: {**records[t], "closed": records[t].get("closed", now), **(marks or {})}
                   for t in open_}
        await write_records(archiver, closing)
        await step("closed", open_)
        await archiver.admin.fence([table_topic(t) for t in open_])
        await step("fenced", open_)
        logs = await archiver.topics([table_topic(t) for t in open_])
        await _wait_folded(archiver, {t: logs[table_topic(t)] for t in open_})
        await step("folded", open_)
        pointers = await archive_logs(archiver, {t: logs[table_topic(t)] for t in open_})
        await _unchanged(archiver, {t: pointers[t]["end"] for t in open_})
        await step("archived", open_)
        await write_records(archiver, {t: {**closing[t], "archive": pointers[t]}
                                        for t in open_})
        await step("marked", open_)
        records = {**records, **{t: {**closing[t], "archive": pointers[t]} for t in open_}}
    tables = sorted(records)
    await archiver.admin.delete([table_topic(t) for t in tables])
    await step("deleted", tables)
    return {"closed": tables,
            "events": sum(int(r["archive"]["count"]) for r in records.values())}


class Steps:
    """Each step's time, in `archiver.timings` (started afresh, or going on: `fresh`), and
    `on_step` told."""

    def __init__(self, archiver: Archiver, fresh: bool = True) -> None:
        self.archiver = archiver
        if fresh:
            self.archiver.timings = {}
        self.since = time.perf_counter()

    async def __call__(self, name: str, tables: list[str]) -> None:
        now = time.perf_counter()
        self.archiver.timings[name] = now - self.since
        self.since = now
        if self.archiver.on_step is not None:
            await self.archiver.on_step(name, tables)


async def write_records(archiver: Archiver, records: dict[str, registry.TableRecord]) -> None:
    await archiver.store.remember_tables(records)
    await archiver.registry.register(records, doing="record the tables' close")


async def _wait_folded(archiver: Archiver, logs: dict[str, list[Record]]) -> None:
    """Until the processor has folded each table's last record (its state's version), so
    that the alerts it raises are committed before the topic goes; a table with no board
    has no state: its fold here says whether it will."""
    async with asyncio.timeout(archiver.folded_timeout_s):
        waiting = {t: records[-1][0] for t, records in logs.items() if records}
        while waiting:
            for table, last in list(waiting.items()):
                found = await archiver.store.read_state(table)
                if (found[0] >= last if found is not None
                        else _board(table, logs[table]) is None):
                    del waiting[table]
            if waiting:
                await asyncio.sleep(0.1)



async def archive_logs(archiver: Archiver, logs: dict[str, list[Record]]
                   ) -> dict[str, archive.Pointer]:
    """Each table's records written to the archive, read back and checked: where they are."""
    sent = {t: [await send(archiver.producer, ARCHIVE, value, key=archive.chunk_key(t, n),
                           doing="archive the tables")
                for n, value in enumerate(archive.pack(t, records))]
            for t, records in logs.items()}
    pointers = {}
    for table, deliveries in sent.items():
        offsets = await acknowledged(deliveries, doing="archive the tables")
        records = logs[table]
        end = records[-1][0] + 1 if records else 0
        pointers[table] = archive.pointer(offsets, records, end)
    gate = asyncio.Semaphore(READS_AT_ONCE)

    async def read_back(table: str, where: archive.Pointer) -> None:
        async with gate:  # what a reader will find
            await archive.read_archive(archiver.fetch, table, where)
    await asyncio.gather(*(read_back(t, where) for t, where in pointers.items()))
    return pointers


async def _unchanged(archiver: Archiver, ends: dict[str, int]) -> None:
    """Each topic still ends where its archive does. A broker that had not applied the fence
    yet (the one asked said it had; with several brokers, the leader may lag it) may have taken
    one more event: then the close stops before anything points at the archive, and is sent
    again."""
    logs = await archiver.topics([table_topic(t) for t in ends])
    grew = [t for t, end in ends.items()
            if (logs[table_topic(t)][-1][0] + 1 if logs[table_topic(t)] else 0) != end]
    if grew:
        raise Unavailable(f"tables {', '.join(grew[:10])} took events during their close; "
                          "send it again", retry_after=1)


def unavailable(exc: BaseException) -> Unavailable:
    return Unavailable(f"the close did not finish ({exc!r}); send it again: what is done "
                       "stays done", retry_after=2)


def archiver_of(gw: Gateway) -> Archiver:
    adapters = gw.adapters
    return Archiver(adapters.admin, adapters.producer, adapters.store, adapters.registry,
                    adapters.reads.topics, adapters.history.archive_at)


_closing: dict[Gateway, asyncio.Lock] = {}


async def close(gw: Gateway, records: dict[str, registry.TableRecord], force: bool,
                then: Callable[[Archiver], Awaitable[dict[str, Any]]] | None = None,
                marks: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`close_tables` for the gateway's routes (and `then`, after it: a tournament's topic
    closed, `tournament_close`), one close at a time in a process; Kafka or the processor not
    answering in time is a 503 (the close is sent again, and goes on)."""
    archiver = archiver_of(gw)
    async with _closing.setdefault(gw, asyncio.Lock()):
        try:
            done = await close_tables(archiver, records, force, marks)
            if then is not None:
                done = {**done, **await then(archiver)}
        except (TopicsUnavailable, KafkaUnavailable, TimeoutError) as exc:
            log.warning("close of %d tables cut short: %r", len(records), exc)
            raise unavailable(exc) from None
    for table in records:
        gw.known_tables.pop(table, None)
        if gw.adapters.alerts.robots.get(table):  # a closed table's robots stand up
            await record_request(gw, table, ())
    return {**done, "steps_s": {k: round(v, 4) for k, v in archiver.timings.items()}}


RESUME_BACKOFF_S = (1.0, 30.0)


async def resume_closes(gw: Gateway) -> dict[str, registry.TableRecord]:
    """At a gateway's start: every close cut short (a table closed but not archived, or
    archived with its topic still there) finished, as the director would by sending it again;
    tried again while Kafka or Redis does not answer, then done: every table's record, as
    read before."""
    backoff = Backoff.doubling(*RESUME_BACKOFF_S)
    while True:
        try:
            records = await gw.adapters.store.table_records()
            topics = await gw.adapters.admin.existing()
            lost = lost_closes(records, topics)
            if lost:
                await set_aside(gw, lost)
                records = {**records, **lost}
            cut = {t: r for t, r in records.items() if "closed" in r and "close_lost" not in r
                   and ("archive" not in r or table_topic(t) in topics)}
            if cut:
                log.info("finishing the close of %d tables cut short", len(cut))
                await close(gw, cut, force=True)
            return records
        except (ServiceError, TimeoutError) as exc:  # (the store's: `StoreUnavailable`)
            log.warning("closes cut short not finished yet (%r): again", exc)
            await backoff.wait()


def lost_closes(records: Mapping[str, registry.TableRecord], topics: set[str]
                ) -> dict[str, registry.TableRecord]:
    """The closes that can never finish, not yet set aside: a table closed, not archived, and
    its topic gone (deleted by hand, or lost with the broker's data), each with its record as
    it will be kept (`close_lost`, when it was found)."""
    return {t: {**r, "close_lost": int(time.time() * 1000)} for t, r in records.items()
            if "closed" in r and "archive" not in r and "close_lost" not in r
            and table_topic(t) not in topics}


async def set_aside(gw: Gateway, lost: dict[str, registry.TableRecord]) -> None:
    """Each lost close told to the Director once (an alert of kind `close_lost`), then its
    record marked, so that no gateway tries it again: the alert first, so a gateway killed
    between the two tells him again rather than never."""
    adapters = gw.adapters
    deliveries = []
    for table, record in lost.items():
        alert = {"id": f"{table}:close_lost:{record['closed']}", "kind": "close_lost",
                 "law": None, "seat": None, "table": table,
                 **({"tournament": record["tournament"]} if "tournament" in record else {}),
                 "ts": record["close_lost"],
                 "message": f"table {table} was closed but never archived, and its topic is "
                            "gone: its records cannot be archived. Its close is set aside; its "
                            "results stand as the tournament's record has them"}
        log.error("close of %s set aside: closed, not archived, its topic gone", table)
        deliveries.append(await send(adapters.producer, ALERTS, json.dumps(alert).encode(),
                                     key=table.encode(), doing="alert the director"))
    await acknowledged(deliveries, doing="alert the director")
    await write_records(archiver_of(gw), lost)
