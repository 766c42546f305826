"""A tournament, as the gateway runs it for the director: created in bulk, its rounds sent to
every table, its overview read in one Redis round trip, and the whole session exported.

Every step is an event: the tournament's creation and rounds on its own topic
(`tableserver.tournament.<t>`), each table's round and players' names on the table's topic.
Each step can be sent again after a fault and does nothing twice: topics and records that exist
are kept, the same creation request finds the tournament (its digest), and a table folds a
round it has started once (`shared.table.engine`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import replace
from typing import Any

from services.common import registry
from services.common.errors import Unavailable
from services.common.kafka.admin import TOURNAMENT_RECORD_BYTES
from services.common.kafka.produce import append
from services.common.kafka.reader import KafkaUnavailable, NoTableError, Record
from services.common.names import tournament_topic
from services.gateway.http.models import TournamentCreate
from services.gateway.ports import TopicsUnavailable
from services.gateway.refusals import Kind, Refused
from services.gateway.robots import presence as robot_presence
from services.gateway.tables.service import Gateway
from services.gateway.tables.table_logs import records_of, table_logs
from services.gateway.tournaments import hand_records, round_timing
from services.gateway.tournaments.log import (
    append_record,
    append_records,
    refuse_closed,
    tournament_records,
)
from services.gateway.tournaments.overview_view import Overview, TableLine
from services.gateway.tournaments.scores import movement_round, record_of, standings_of
from shared.codec import DecodeError, decode, to_map
from shared.scores.movements import Round
from shared.table.table_summary import StoredSummary, totals_of
from shared.tournament.carry_over import check_continues
from shared.tournament.clock import behind_time, round_ends_at
from shared.tournament.entrants import (
    Entrant,
    Movement,
    MovementKind,
    check_individuals,
    entrants_of,
    movement_of,
    seat_names,
    seating_map,
)
from shared.tournament.entrants_added import EntrantConflict, entrant_added, with_added
from shared.tournament.export import write_export
from shared.tournament.seat_ids import seat_ids
from shared.tournament.session import (
    Tournament,
    TournamentError,
    digest_and_deals,
    round_boards,
    table_names,
)
from shared.vocabulary import TableStatus

log = logging.getLogger("tableserver.gateway")
WAITING: StoredSummary = {
    "board": None, "status": TableStatus.WAITING, "turn": None, "round": None,
    "boards_left": 0, "held": False, "boards_finished": 0, "alerts": 0, "open_alerts": 0,
    "acting": None, "substitutes": [], "last_ts": None}  # a table with no board yet


HARMLESS = "retry (doing it twice is harmless)"


def _kafka_down(what: str) -> Unavailable:
    return Unavailable(f"Kafka did not {what} in time; {HARMLESS}", retry_after=1)


async def find(gw: Gateway, tournament: str) -> Tournament | None:
    """The tournament as created (cached: a creation never changes), or None."""
    if tournament in gw.tournaments:
        return gw.tournaments[tournament]
    try:
        records = await tournament_records(gw, tournament)
    except NoTableError:
        return None
    except KafkaUnavailable:
        raise _kafka_down("answer") from None
    found = _created(records)
    if found is not None:
        gw.tournaments[tournament] = found
    return found


def _created(records: list[Record]) -> Tournament | None:
    """The first creation on the tournament's topic (a creation sent twice at once is
    appended twice: the first stands)."""
    for _, value in records:
        event = json.loads(value or b"{}")
        if event.get("type") == "tournament_created":
            return Tournament.from_map(event)
    return None


async def create(gw: Gateway, request: TournamentCreate) -> tuple[Tournament, bool]:
    """The tournament, and whether this request created it. Its deals file is parsed in a
    worker process (`off_loop`): a large one took the loop for seconds."""
    try:
        digest, deals = await gw.off_loop.run(digest_and_deals, request.model_dump())
        tables = table_names(request.tournament, request.tables)
    except TournamentError as exc:
        raise Refused(str(exc), exc.field) from None
    round_timing.mark("the deals parsed")
    for table in request.players:
        if table not in tables:
            raise Refused(f"players: no table {table} in this tournament",
                          f"players.{table}")
    players = {t: {str(s): n for s, n in names.items()} for t, names in request.players.items()}
    entrants, movement = _entrants(request, len(tables), deals)
    if request.continues:
        await _continued(gw, request.continues, movement)
    made = Tournament(request.tournament, request.name or request.tournament, request.ruleset,
                      tables, deals, players, request.site, request.date, digest, entrants,
                      movement, request.continues or "", request.session)
    record = creation_record(made)  # before anything is made
    found = await find(gw, request.tournament)
    if found is not None:
        if found.digest != digest:
            raise Refused(f"tournament {request.tournament} exists, created by another "
                          "request", "tournament", kind=Kind.CONFLICT)
        return found, False
    round_timing.mark("the tournament looked for")
    try:
        await gw.adapters.admin.create_tournament(made.tournament, list(tables))
    except TopicsUnavailable as exc:
        raise _not_created(made, len(record), exc) from None
    round_timing.mark("the topics created and led")
    records = await _claim(gw, made)  # Redis away: its own 503, as any read of Redis
    round_timing.mark("the tables' records claimed")
    try:
        await gw.adapters.registry.register(records, 2 * gw.settings.produce_timeout_s,
                                            then=HARMLESS)
        round_timing.mark("the tables registered")
        await asyncio.gather(*(gw.append(table, {"type": "players_named", "players": names,
                                                 "ts": int(time.time() * 1000)})
                               for table, names in made.players.items()))
        round_timing.mark("the players named")
        await append(gw.adapters.producer, tournament_topic(made.tournament), record,
                     doing="create the tournament", then=HARMLESS)
        round_timing.mark("the creation recorded")
    except Unavailable as exc:  # the registry's, and the appends'
        raise _not_created(made, len(record), exc) from None
    gw.tournaments[made.tournament] = made
    hand_records.start(gw, made)  # solved while the boards are played
    return made, True


async def _continued(gw: Gateway, continues: str, movement: Movement | None) -> None:
    """The session continued must exist and be a pairs session scored the same way (a 400
    naming `continues`: `shared.tournament.carry_over`)."""
    previous = await find(gw, continues)
    if previous is None:
        raise Refused(f"continues: no tournament {continues}", "continues")
    try:
        check_continues(previous.movement, movement, continues)
    except TournamentError as exc:
        raise Refused(str(exc), exc.field) from None


def _entrants(request: TournamentCreate, tables: int, deals: dict[int, dict[str, Any]]
              ) -> tuple[tuple[Entrant, ...], Movement | None]:
    """The entrants and the movement that seats them, checked against the tables and deals
    (docs/scoring.md): a 400 naming the field when they do not fit."""
    given = request.movement
    if given is None:
        if request.entrants:
            raise Refused("movement: entrants need a movement to seat them", "movement")
        return (), None
    try:
        entrants = entrants_of([e.model_dump() for e in request.entrants])
        movement = movement_of(given.kind, given.boards_per_round, given.rounds,
                               given.scoring, len(entrants), tables, list(deals),
                               given.arrow_switch, given.team_scoring, given.imps_to_vp,
                               given.sections)
        if given.kind is MovementKind.INDIVIDUAL:
            check_individuals(entrants)
    except TournamentError as exc:
        raise Refused(str(exc), exc.field) from None
    return entrants, replace(movement, minutes_per_board=given.minutes_per_board)


def creation_record(made: Tournament) -> bytes:
    """The tournament's creation as its topic keeps it. A 413 naming the field at fault (the
    deals, or the players' names) when it is larger than a tournament's topic takes: nothing
    is made."""
    record = json.dumps(made.to_map()).encode()
    if len(record) <= TOURNAMENT_RECORD_BYTES:
        return record
    deals = len(json.dumps(made.to_map()["deals"]))
    field = "deals" if deals >= len(record) // 2 else "players"
    raise Refused(f"{field}: this tournament ({len(made.deals)} boards, "
                  f"{len(made.tables)} tables) makes a record of {len(record)} bytes, over "
                  f"the {TOURNAMENT_RECORD_BYTES} bytes a tournament holds: split it into "
                  "sessions", field, kind=Kind.TOO_LARGE)


def _not_created(made: Tournament, size: int, exc: Unavailable) -> Unavailable:
    log.warning("tournament %s (%d tables, %d boards, a record of %d bytes) not created: "
                "%r", made.tournament, len(made.tables), len(made.deals), size, exc)
    return _kafka_down("create the tournament")


async def _claim(gw: Gateway, made: Tournament) -> dict[str, registry.TableRecord]:
    """Each table's record in Redis (for the gateways), to be registered (for the processor):
    a table that exists outside this tournament is refused."""
    now = int(time.time() * 1000)
    records = await gw.adapters.registry.claim({
        t: registry.new_record(t, made.ruleset, made.tournament, now) for t in made.tables})
    for table, record in records.items():
        if record.get("tournament") != made.tournament or record["ruleset"] != made.ruleset:
            raise Refused(f"table {table} exists outside tournament {made.tournament}",
                          "tables", kind=Kind.CONFLICT)
    return records


async def start_round(gw: Gateway, tournament: str, number: int, boards: list[int] | None,
                      movement: dict[str, list[int]] | None, *,
                      ended: tuple[dict[str, Any], list[str]] | None = None) -> int:
    """Append the round to each of its tables (every table that has started it ignores it
    again), then record it on the tournament's topic; how many tables play it. A tournament
    with a movement seats its entrants as the movement's round says (the players' names
    follow) and records who sits where. `ended`: the round before's end on the clock
    (`round_ended`) and its tables, appended first at each of them in the same wave, and
    recorded just before the round (`services.gateway.tournaments.clock`)."""
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    await refuse_closed(gw, tournament, "round", "rounds")
    records = await records_of(gw, list(made.tables))
    round_timing.mark("the tables' records read")
    if any("closed" in record for record in records.values()):
        raise Refused(f"tournament {tournament} is closed: its tables take no more rounds",
                      "round", kind=Kind.CONFLICT)
    seated: Round | None = None
    if made.movement is not None:  # with the entrants added since its creation
        made = with_added(made, (await record_of(gw, made))[2])
    try:
        if made.movement is not None:
            if boards is not None or movement is not None:
                raise TournamentError("boards: this tournament's movement gives each table "
                                      "its boards; send the round's number only", "boards")
            round_timing.mark("the tournament's record read")
            seated = await movement_round(gw, made, number)
            round_timing.mark("the movement's round")
            movement = {made.tables[s.table - 1]: list(s.boards) for s in seated.tables}
        plan = round_boards(made, boards, movement)
    except TournamentError as exc:
        raise Refused(str(exc), exc.field) from None
    now = int(time.time() * 1000)
    named: dict[str, dict[str, Any]] = {}  # each table's players_named, before its round
    if seated is not None:
        teams = made.movement is not None and made.movement.kind.teams
        for s in seated.tables:
            table, seats = made.tables[s.table - 1], seat_names(s, made.entrants, teams)
            ids = seat_ids(s, made.entrants, teams)  # who sat where, in the table's record
            if seats:
                named[table] = {"type": "players_named", "players": seats,
                                **({"ids": ids} if ids else {}), "ts": now}
    timed: dict[str, int] = {}  # the round's end by the clock, if the movement times it
    if made.movement is not None and made.movement.minutes_per_board is not None and plan:
        timed["ends_at"] = round_ends_at(now, max(len(bs) for bs in plan.values()),
                                         made.movement.minutes_per_board)

    end, ending = ended if ended is not None else ({}, [])
    first = {table: [end] for table in ending}
    await asyncio.gather(*(gw.append_all(table, [  # in order at a table, sent together
        *first.get(table, []), *([named[table]] if table in named else []),
        {"type": "round_started", "round": number, "ruleset": made.ruleset,
         "boards": table_boards, "ts": now, **timed}]) for table, table_boards in plan.items()),
        *(gw.append_all(table, [*first.get(table, []), *([named[table]] if table in named
                                                         else [])])
          for table in {*named, *first} - plan.keys()))  # with no boards this round
    round_timing.mark("round_ended and round_started to the tables")
    record: dict[str, Any] = {"type": "round_started", "round": number, "ts": now, **timed,
                              "tables": {t: [b["board"] for b in bs] for t, bs in plan.items()}}
    if seated is not None:
        record["seatings"] = {made.tables[s.table - 1]: seating_map(s) for s in seated.tables}
        record["sit_out"] = list(seated.sit_out)
    # the round before's end (on the clock) just before the round, in one round trip
    await append_records(gw, tournament, [*([end] if ended is not None else []), record],
                         "record the round", "round", "rounds")
    if timed:
        await gw.adapters.store.set_clock(tournament, timed["ends_at"])
    round_timing.mark("round_started recorded")
    return len(plan)


async def add_entrant(gw: Gateway, tournament: str, given: dict[str, Any]
                      ) -> tuple[dict[str, Any], bool]:
    """An entrant added before the first round (`shared.tournament.entrants_added`), recorded on the
    tournament's topic; the entrant, and whether this request added it (the same entrant sent
    again with its number is found, not added twice). A 409 naming the field once a round has
    started, a 400 when the movement no longer fits."""
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    await refuse_closed(gw, tournament, "entrants", "entrants")
    rounds, _, added = await record_of(gw, made)
    made = with_added(made, added)
    try:
        event = entrant_added(made, given, len(rounds))
    except EntrantConflict as exc:
        raise Refused(str(exc), exc.field, kind=Kind.CONFLICT) from None
    except TournamentError as exc:
        raise Refused(str(exc), exc.field) from None
    if event is None:
        return dict(made.entrants[int(given["number"]) - 1].to_map()), False
    await append_record(gw, tournament, {**event, "ts": int(time.time() * 1000)},
                        "record the entrant", "entrants", "entrants")
    return {k: v for k, v in event.items() if k != "type"}, True


async def overview(gw: Gateway, tournament: str) -> Overview:
    """Every table's line (its board, status, whose turn, alerts, seconds since its last
    event) and the session's totals, from one Redis round trip; and the standings (the top of
    each field's ranking, `tournament_scores.standings_of`), None without a movement."""
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    lines = await gw.adapters.store.overview(list(made.tables))
    robots = await robot_presence.at_tables(gw, list(made.tables))
    now = int(time.time() * 1000)
    ends_at = await gw.adapters.store.clock_of(tournament)
    minutes = made.movement.minutes_per_board if made.movement is not None else None
    tables: list[TableLine] = []
    for table in made.tables:
        line: StoredSummary = {**WAITING, **lines.get(table, WAITING)}
        last = line["last_ts"]
        tables.append({
            "table": table, **line, "idle_s": None if last is None else max(0, now - last) // 1000,
            "robots": {seat: robot["status"] for seat, robot in robots[table]["seats"].items()},
            "vugraph_match": None,  # `public_boards.with_matches`
            "behind": None if ends_at is None or minutes is None
            else behind_time(ends_at, now, line["boards_left"], minutes)})
    return {"tournament": tournament, "name": made.name, "now": now,
            "clock": None if ends_at is None else {"ends_at": ends_at},
            "totals": totals_of(tables),
            "tables": tables, "standings": await standings_of(gw, made)}


async def export(gw: Gateway, tournament: str, form: str) -> str:
    """Every board of every table of the tournament, read from the tables' topics at once
    (a closed table's from the archive):
    PBN, LIN, or JSON (the tournament and each table's events, as the log holds them)."""
    made = await find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    try:
        records = await table_logs(gw, list(made.tables))
    except KafkaUnavailable:
        raise _kafka_down("answer") from None
    logs = {t: _event_maps(records[t]) for t in made.tables}
    try:
        solved, _ = await hand_records.records_of(gw, made)  # each board's, on its games
    except Unavailable:  # Redis away: the session all the same, without them
        log.warning("%s: exported without its hand records (Redis unreachable)", tournament)
        solved = {}
    return await gw.off_loop.run(write_export, made, logs, form, solved)  # seconds, if large


def _event_maps(records: list[Record]) -> list[dict[str, Any]]:
    """A table's events as maps; a record that is no event (alerted as poison) is left out."""
    maps = []
    for _, value in records:
        try:
            maps.append(to_map(decode(value or b"")))
        except DecodeError:
            continue
    return maps
