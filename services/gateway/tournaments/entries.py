"""A tournament's entries, as the gateway takes them (`shared.tournament.entries` the rules):
the Director opens entries (the tournament's topic made, the session he will create recorded),
players enter on the public entry page with the tournament's entry token, the Director reads
them, refuses or edits one and closes; at the close the standing entries become the entrants
of the tournament created then, the movement chosen or checked from their number.

Each step is an event on the tournament's topic, appended once Kafka acknowledges it. An entry
is checked against the entries as folded, appended, then found in the fold again: of two sent
at once by two gateways with a player in common, the first stands and the second is answered
409 (its record counts for nothing). Each gateway keeps its fold, going on from where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any
from weakref import WeakKeyDictionary

from pydantic import ValidationError

from services.common.errors import Unavailable
from services.common.kafka.reader import KafkaUnavailable, NoTableError
from services.gateway.http.models import TournamentCreate
from services.gateway.ports import TopicsUnavailable
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import service as tournaments
from services.gateway.tournaments.log import append_record, refuse_closed, tournament_records
from shared.tournament.entrants import MovementKind
from shared.tournament.entries import (
    Entries,
    Entry,
    EntryConflict,
    EntryEvent,
    Opening,
    check_entry,
    entrants_at_close,
    entry_in,
    entry_of,
    fold,
    movement_at_close,
)
from shared.tournament.entry_kinds import EntryKind
from shared.tournament.errors import TournamentError
from shared.tournament.session import deals_of

HARMLESS = "retry (doing it twice is harmless)"
MAX_FOLDS = 1000  # tournaments a gateway keeps folded; past it, it starts again
_folds: WeakKeyDictionary[Gateway, dict[str, Entries]] = WeakKeyDictionary()


def refused(exc: TournamentError) -> Refused:
    """A rule's refusal as the gateway says it: 409 for a conflict with the entries."""
    kind = Kind.CONFLICT if isinstance(exc, EntryConflict) else Kind.BAD_INPUT
    return Refused(str(exc), exc.field, kind=kind)


async def entries_of(gw: Gateway, tournament: str) -> Entries:
    """The tournament's entries folded from its records (none yet: no entries)."""
    try:
        records = await tournament_records(gw, tournament)
    except NoTableError:
        return Entries()
    except KafkaUnavailable:
        raise Unavailable(f"Kafka did not answer in time; {HARMLESS}", retry_after=1) from None
    kept = _folds.setdefault(gw, {})
    if len(kept) > MAX_FOLDS:
        kept.clear()
    folded = kept.get(tournament, Entries())
    if not records or records[-1][0] + 1 < folded.next_offset:  # a topic made again
        folded = Entries()
    folded = fold(((offset, json.loads(value or b"{}")) for offset, value in records
                   if offset >= folded.next_offset), folded)
    kept[tournament] = folded
    return folded


async def open_entries(gw: Gateway, tournament: str, teams: bool, session: dict[str, Any]
                       ) -> bool:
    """Entries opened for `tournament` (a tournament not created yet): its topic made and the
    session recorded (`session`: what the creation will take but the tables and entrants).
    Whether this request opened them: the same opening again opens nothing, another one is a
    409, as is a tournament created already."""
    if await tournaments.find(gw, tournament) is not None:
        raise Refused(f"tournament: {tournament} is created already; the Director adds its "
                      "entrants (POST /api/tournaments/{t}/entrants)", "tournament",
                      kind=Kind.CONFLICT)
    await refuse_closed(gw, tournament, "tournament", "entries")
    kind = (session.get("movement") or {}).get("kind")
    if kind is not None and MovementKind(kind).teams != teams:
        raise Refused(f"movement.kind: a {kind} movement is for "
                      f"{'pairs' if teams else 'teams'}", "movement.kind")
    try:
        await gw.off_loop.run(deals_of, session["deals"])
    except TournamentError as exc:
        raise Refused(str(exc), exc.field) from None
    entries = await entries_of(gw, tournament)
    if entries.opening is not None:
        if entries.opening == Opening(teams, session):
            return False
        raise Refused(f"tournament: entries for {tournament} are open already, with other "
                      "settings", "tournament", kind=Kind.CONFLICT)
    try:
        await gw.adapters.admin.create_tournament(tournament, [])
    except TopicsUnavailable:
        raise Unavailable(f"Kafka did not make the tournament's topic in time; {HARMLESS}",
                          retry_after=1) from None
    await append_record(gw, tournament, {"type": EntryEvent.OPENED, "teams": teams, **session,
                                         "ts": _now()}, "open entries", "tournament", "entries")
    return True


def entry_view(entries: Entries, entry: Entry) -> dict[str, Any]:
    """An entry as the Director and the player read it: with its entrant number as the
    entries stand (None once refused) and how many stand."""
    return {**entry.to_map(), "number": entries.number_of(entry.entry),
            "entrants": len(entries.standing)}


async def make_entry(gw: Gateway, tournament: str, given: Mapping[str, Any]
                     ) -> tuple[dict[str, Any], bool]:
    """A player's entry: recorded, and his entrant number and the count so far; whether this
    request made it (the same entry sent again is found: nothing recorded twice)."""
    entries = await entries_of(gw, tournament)
    if entries.opening is None:
        raise Refused(f"entries: entries are not open for tournament {tournament}", "entries",
                      kind=Kind.NOT_FOUND)
    try:
        players, team = entry_of(given, entries.opening.kind)
        again = entries.found(players, team)
        if again is not None:
            return entry_view(entries, again), False
        check_entry(entries, players)
    except TournamentError as exc:
        raise refused(exc) from None
    offset = await append_record(gw, tournament, {
        "type": EntryEvent.MADE, "players": [p.to_map() for p in players], "team": team,
        "ts": _now()}, "record the entry", "entries", "entries")
    after = await entries_of(gw, tournament)
    number = after.offsets.get(offset)
    if number is not None:
        return entry_view(after, after.entries[number - 1]), True
    again = after.found(players, team)  # the same entry, sent twice at once: the first stands
    if again is not None:
        return entry_view(after, again), False
    try:  # another entry with one of its players came first, or the close did
        check_entry(after, players)
    except TournamentError as exc:
        raise refused(exc) from None
    raise Refused("entries: the entry crossed another one; send it again", "entries",
                  kind=Kind.CONFLICT)


async def edit_entry(gw: Gateway, tournament: str, number: int, given: Mapping[str, Any]
                     ) -> dict[str, Any]:
    """The Director's edit of a standing entry (its players, its team's name), checked as an
    entry is."""
    entries = await _opened(gw, tournament)
    try:
        before = entry_in(entries, number)
        players, team = entry_of(given, entries.opening.kind if entries.opening else EntryKind.PAIR)
        if (players, team) == (before.players, before.team):
            return entry_view(entries, before)
        check_entry(entries, players, editing=number)
    except TournamentError as exc:
        raise refused(exc) from None
    await append_record(gw, tournament, {
        "type": EntryEvent.EDITED, "entry": number, "players": [p.to_map() for p in players],
        "team": team, "ts": _now()}, "record the edit", "entry", "entries")
    after = await entries_of(gw, tournament)
    edited = after.entries[number - 1]
    if (edited.players, edited.team) != (players, team):
        raise Refused("entry: the edit crossed another entry or the close; read the entries "
                      "and send it again", "entry", kind=Kind.CONFLICT)
    return entry_view(after, edited)


async def refuse_entry(gw: Gateway, tournament: str, number: int, reason: str
                       ) -> dict[str, Any]:
    """The Director's refusal of a standing entry, with its reason: its players may enter
    again; the entries after it move up a number."""
    entries = await _opened(gw, tournament)
    try:
        entry_in(entries, number)
        if entries.closed is not None:
            raise EntryConflict("entries: entries are closed", "entries")
    except TournamentError as exc:
        raise refused(exc) from None
    await append_record(gw, tournament, {"type": EntryEvent.REFUSED, "entry": number,
                                         "reason": reason, "ts": _now()},
                        "record the refusal", "entry", "entries")
    after = await entries_of(gw, tournament)
    return entry_view(after, after.entries[number - 1])


async def close_entries(gw: Gateway, tournament: str, movement: dict[str, Any] | None
                        ) -> tuple[dict[str, Any], bool]:
    """Entries closed, and the tournament created with the standing entries as its entrants
    (numbered in the order they came) and the movement their number chooses or checks
    (`movement`, given: the Director's instead of the opening's). Sent again, the close
    recorded stands and the same tournament is found. A movement that does not fit: 400
    naming the field, nothing recorded."""
    entries = await _opened(gw, tournament)
    assert entries.opening is not None
    opening = entries.opening
    try:
        opening = opening.closing_with(movement)
    except TournamentError as exc:
        raise refused(exc) from None
    closed = entries.closed
    if closed is None:
        entrants = entrants_at_close(entries)
        try:
            deals = await gw.off_loop.run(deals_of, opening.session["deals"])
            chosen, tables = movement_at_close(opening, len(entrants), list(deals))
        except TournamentError as exc:
            raise refused(exc) from None
        closed = {"movement": chosen.to_map(), "tables": tables,
                  "entrants": [e.to_map() for e in entrants]}
        creation(tournament, opening, closed)  # a request the creation takes, before the close
        await append_record(gw, tournament, {"type": EntryEvent.CLOSED, **closed,
                                             "ts": _now()},
                            "close entries", "entries", "entries")
        closed = (await entries_of(gw, tournament)).closed or closed
    made, created = await tournaments.create(gw, creation(tournament, opening, closed))
    return {"tournament": made.tournament, "tables": len(made.tables),
            "entrants": len(made.entrants),
            "movement": made.movement.to_map() if made.movement else None}, created


def creation(tournament: str, opening: Opening, closed: Mapping[str, Any]
             ) -> TournamentCreate:
    """The creation request the close makes: the opening's session, the tables and movement
    recorded at the close, the entrants of the standing entries."""
    session = opening.session
    movement = closed["movement"]
    try:
        return TournamentCreate.model_validate({
            "tournament": tournament, "name": session.get("name", ""),
            "ruleset": session.get("ruleset", "duplicate"), "deals": session["deals"],
            "site": session.get("site", ""), "date": session.get("date", ""),
            "tables": closed["tables"], "entrants": closed["entrants"],
            "movement": {"kind": movement["kind"],
                         "boards_per_round": movement["boards_per_round"],
                         "rounds": movement["rounds"], "scoring": movement["scoring"],
                         "minutes_per_board": movement.get("minutes_per_board")}})
    except ValidationError as exc:  # past a creation's limits: the movement's, the tables'
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise Refused(f"{field}: the tournament the entries make cannot be created: "
                      f"{first['msg']}", field) from None


async def _opened(gw: Gateway, tournament: str) -> Entries:
    entries = await entries_of(gw, tournament)
    if entries.opening is None:
        raise Refused(f"entries: entries were never opened for tournament {tournament}",
                      "entries", kind=Kind.NOT_FOUND)
    return entries


def _now() -> int:
    return int(time.time() * 1000)
