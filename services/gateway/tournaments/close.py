"""A closed tournament's own topic (`tableserver.tournament.<t>`: its creation, rounds,
entrants, the Director's scores) archived and deleted once its tables are
(`services.gateway.tables.closing`), so that a tournament over keeps no partition.

`close_topic` runs five more steps after the tables' seven, each leaving what it finds done
alone (a close cut short is sent again, or finished by `resume` at a gateway's start; the
tables' records say `tournament_closing` from their `closed` on, so that a close cut short
among the tables' steps is finished too):

1. **tournament closed**: the tournament's record (Redis, `tableserver:tournaments`) says
   `closed`: the gateway refuses its rounds, entrants and scores (409) from then on;
2. **tournament fenced**: its topic takes no more appends (as the tables' are);
3. **tournament archived**: its records written to `tableserver.archive` under its topic's
   name (`tournament_log.archive_name`), read back and checked (count and SHA-256), and the
   topic read again to check it ends where its archive does;
4. **tournament marked**: its tables' records (registry and Redis: the copy that lasts) say
   where it is (`tournament_archive`), then the tournament's record (`archive`): every read of
   the tournament reads the archive from then on (`services.gateway.tournaments.log`);
5. **tournament deleted**: its topic deleted.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from services.common.backoff import Backoff
from services.common.errors import ServiceError, Unavailable
from services.common.kafka.reader import KafkaUnavailable
from services.common.names import tournament_topic
from services.gateway.tables.closing import (
    RESUME_BACKOFF_S,
    Archiver,
    Steps,
    archive_logs,
    close,
    resume_closes,
    write_records,
)
from services.gateway.tables.service import Gateway
from services.gateway.tournaments.log import archive_name

log = logging.getLogger("tableserver.closing")
TOURNAMENT_CLOSING = {"tournament_closing": True}  # in its tables' records, with `closed`


async def close_topic(archiver: Archiver, tournament: str, tables: list[str]
                      ) -> dict[str, Any]:
    """The tournament's topic archived, marked and deleted (its tables closed and archived
    before): the events archived. `Unavailable` when the topic took records meanwhile."""
    store, topic = archiver.store, tournament_topic(tournament)
    step = Steps(archiver, fresh=False)
    record = await store.tournament_record(tournament) or {"tournament": tournament}
    if "archive" not in record:
        record = {**record, "tables": tables,
                  "closed": record.get("closed", int(time.time() * 1000))}
        await store.remember_tournament(tournament, record)
        await step("tournament closed", [tournament])
        await archiver.admin.fence([topic])
        await step("tournament fenced", [tournament])
        records = (await archiver.topics([topic]))[topic]
        where = (await archive_logs(archiver, {archive_name(tournament): records}))[
            archive_name(tournament)]
        again = (await archiver.topics([topic]))[topic]
        if (again[-1][0] + 1 if again else 0) != where["end"]:
            raise Unavailable(f"tournament {tournament}'s topic took records during its close; "
                              "send it again", retry_after=1)
        await step("tournament archived", [tournament])
        marks = {"tournament_closed": record["closed"], "tournament_archive": where}
        await write_records(archiver, {t: {**r, **marks} for t, r in
                                       (await store.records_of(tables)).items()})
        record = {**record, "archive": where}
        await store.remember_tournament(tournament, record)
        await step("tournament marked", [tournament])
    await archiver.admin.delete([topic])
    await step("tournament deleted", [tournament])
    return {"tournament": tournament, "tournament_events": int(record["archive"]["count"])}


async def close_tournament(gw: Gateway, tournament: str,
                           records: dict[str, dict[str, Any]], force: bool) -> dict[str, Any]:
    """The tournament's tables closed (`closing.close`: a 409 for a board in play without
    `force`), then its topic (`close_topic`)."""
    tables = sorted(records)

    async def then(archiver: Archiver) -> dict[str, Any]:
        return await close_topic(archiver, tournament, tables)
    return await close(gw, records, force, then, TOURNAMENT_CLOSING)


async def resume(gw: Gateway) -> None:
    """At a gateway's start: the tables' closes cut short (`closing.resume_closes`), then the
    tournaments' (closed, or some of their tables closed with them; their topic still
    there)."""
    records = await resume_closes(gw)  # their `tournament_closing` marks stand
    backoff = Backoff.doubling(*RESUME_BACKOFF_S)
    while True:
        try:
            store = gw.adapters.store
            found = await store.tournament_records()
            topics = await gw.adapters.admin.existing()
            for t in {r["tournament"] for r in records.values()  # cut among the tables' steps
                      if r.get("tournament_closing") and "tournament" in r} - set(found):
                if tournament_topic(t) in topics:
                    found[t] = {"tables": sorted(n for n, r in records.items()
                                                 if r.get("tournament") == t)}
            for tournament, record in found.items():
                if tournament_topic(tournament) not in topics:  # deleted (or never made)
                    if "archive" not in record:
                        log.warning("tournament %s is closed with neither a topic nor an "
                                    "archive: left as it is", tournament)
                    continue
                log.info("finishing the close of tournament %s cut short", tournament)
                tables = list(record.get("tables", ()))
                await close_tournament(gw, tournament, await store.records_of(
                    tables), force=True)
            return
        except (ServiceError, KafkaUnavailable, TimeoutError) as exc:  # `StoreUnavailable` too
            log.warning("tournaments' closes cut short not finished yet (%r): again", exc)
            await backoff.wait()
