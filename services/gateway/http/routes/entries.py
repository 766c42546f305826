"""A tournament's entries: the Director opens them (the entry link he publishes), players enter
with the entry token on the public entry page (`/enter#<entry token>`), the Director reads them
as they arrive, refuses or edits one, and closes: the tournament is created then with the
standing entries as its entrants (docs/api.md, `services.gateway.tournaments.entries`)."""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, ConfigDict, Field

from services.gateway.http.deps import DirectorDep, GatewayDep, GrantDep
from services.gateway.http.errors import responses
from services.gateway.http.models import TOURNAMENT_ID, MovementGiven, PlayerName
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Grant, Role, sign, vugraph_scope
from services.gateway.tournaments import entries as tournament_entries, entry_links
from shared.events import Ruleset
from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import MovementKind
from shared.tournament.entry_kinds import EntryKind

router = APIRouter(prefix="/api/tournaments", tags=["entries"])
_TOURNAMENT = re.compile(TOURNAMENT_ID)


class MovementWanted(BaseModel):
    """The movement the entrants will play: its kind, or none to have their number choose it
    (a Howell up to 8 pairs, a Mitchell above; teams a round robin of matches)."""

    model_config = ConfigDict(extra="forbid")
    kind: MovementKind | None = None
    boards_per_round: int = Field(ge=1, le=36)
    rounds: int | None = Field(None, ge=1, le=200, description="by default all the "
                               "movement's rounds (a Swiss: required)")
    scoring: Scoring = Scoring.MATCHPOINTS
    minutes_per_board: float | None = Field(
        None, gt=0, le=60, examples=[7], description="the round's clock: a round lasts its "
        "boards × these minutes, then the next round starts by itself")


class EntriesOpen(BaseModel):
    """The session the close will create (as `POST /api/tournaments` takes it, but its tables
    and entrants: the entries give them), and whether pairs or teams enter (players alone
    when the movement is an individual)."""

    model_config = ConfigDict(extra="forbid")
    teams: bool = Field(False, description="teams of 4 to 6 enter; by default pairs")
    name: str = Field("", max_length=200, description="the event's name")
    ruleset: Ruleset = Ruleset.DUPLICATE
    deals: str = Field(max_length=2 * 2**20, description="the deals: a PBN file")
    site: str = Field("", max_length=200)
    date: str = Field("", pattern=r"^(\d{4}\.\d{2}\.\d{2})?$")
    movement: MovementWanted


class EntriesOpened(BaseModel):
    tournament: str
    opened: bool = Field(description="false: entries were open already, the same way")
    token: str = Field(description="the tournament's entry token")
    link: str = Field(description="the entry page, its token in the fragment: publish it")


class PlayerGiven(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: PlayerName = ""
    id: PlayerName = Field("", description="a federation number or an email: tells apart "
                           "two players of one name")


class EntryGiven(BaseModel):
    """A pair's two players (the one entering first, then his partner), a team's 4 to 6, or
    an individual's one player."""

    model_config = ConfigDict(extra="forbid")
    players: list[PlayerGiven] = Field(max_length=6)
    team: str = Field("", max_length=200, description="a team's name")


class EntryRefusal(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field("", max_length=200, description="said to the Director's console")


class PlayerOut(BaseModel):
    name: str
    id: str


class PlayerLink(BaseModel):
    place: int = Field(description="his place in the entry, from 1")
    name: str
    token: str = Field(description="his player's token, naming him by his entry")
    link: str = Field(description="his page for the evening, /play#<token>: to keep")


class EntryOut(BaseModel):
    entry: int = Field(description="its number of arrival, from 1, never reused")
    number: int | None = Field(description="the entrant number it has as the entries stand "
                               "(the one it keeps at the close); null once refused")
    entrants: int = Field(description="how many entries stand")
    name: str
    team: str
    players: list[PlayerOut]
    refused: str | None = Field(description="the Director's reason; null: it stands")
    ts: int
    made: bool = Field(True, description="false: the same entry was there already")
    links: list[PlayerLink] = Field([], description="each player's own link for the "
                                    "evening, given once: when the entry is made (the "
                                    "Director's list of the entries has them too)")


_KIND = Field(description="what one entry is: a pair's two players, a team's 4 to 6, or "
              "a player alone (entries for an individual)")


class EntriesView(BaseModel):
    tournament: str
    teams: bool
    kind: EntryKind = _KIND
    closed: bool
    entries: list[EntryOut] = Field(description="every entry in the order it came")
    link: str = Field(description="the entry page to publish")


class EntriesClose(BaseModel):
    model_config = ConfigDict(extra="forbid")
    movement: MovementGiven | None = Field(None, description="the Director's movement "
                                           "instead of the one given at the opening")


class EntriesClosed(BaseModel):
    tournament: str
    tables: int
    entrants: int
    movement: dict[str, object] | None
    created: bool = Field(description="false: closed and created already")


def entry_link(gw: Gateway, tournament: str) -> tuple[str, str]:
    """The tournament's entry token and its page."""
    token = sign(gw.signing_key, vugraph_scope(tournament), None, Role.ENTRY,
                 int(time.time()) + gw.settings.token_ttl_s)
    return token, f"/enter#{token}"


def _named(tournament: str) -> str:
    if not _TOURNAMENT.fullmatch(tournament):
        raise Refused(f"tournament: {TOURNAMENT_ID}", "tournament")
    return tournament


@router.post("/{tournament}/entries/open", status_code=201,
             responses=responses(400, 401, 403, 409, 413, 503))
async def open_entries(tournament: str, body: EntriesOpen, gw: GatewayDep, _: DirectorDep,
                       response: Response) -> EntriesOpened:
    """Open a tournament (not created yet) for entries: its topic is made and the session
    recorded; the answer is the entry link to publish (`/enter#<entry token>`). The same
    opening again opens nothing (200); another one, or a tournament created already: 409."""
    session = body.model_dump(mode="json", exclude={"teams"})
    opened = await tournament_entries.open_entries(gw, _named(tournament), body.teams, session)
    if not opened:
        response.status_code = 200
    token, link = entry_link(gw, tournament)
    return EntriesOpened(tournament=tournament, opened=opened, token=token, link=link)


class EntryForm(BaseModel):
    tournament: str
    name: str = Field(description="the event's name")
    teams: bool
    kind: EntryKind = _KIND
    closed: bool
    entrants: int = Field(description="how many entries stand")


@router.get("/{tournament}/entries/open", responses=responses(401, 403, 404, 503))
async def get_entry_form(tournament: str, gw: GatewayDep, grant: GrantDep) -> EntryForm:
    """What the entry page shows before a player enters (the entry token, or the Director's):
    the event's name, pairs or teams, whether entries are closed, how many stand. No
    player's name."""
    _may_enter(grant, tournament)
    entries = await tournament_entries.entries_of(gw, tournament)
    if entries.opening is None:
        raise Refused(f"entries were never opened for tournament {tournament}", "entries",
                      kind=Kind.NOT_FOUND)
    return EntryForm(tournament=tournament, name=str(entries.opening.session.get("name", "")),
                     teams=entries.opening.teams, kind=entries.opening.kind,
                     closed=entries.closed is not None,
                     entrants=len(entries.standing))


def _may_enter(grant: Grant, tournament: str) -> None:
    if grant.role != Role.DIRECTOR and not (grant.role == Role.ENTRY
                                         and grant.table == vugraph_scope(tournament)):
        raise Refused(f"this token is not for tournament {tournament}'s entries",
                      kind=Kind.FORBIDDEN)


@router.post("/{tournament}/entries", status_code=201,
             responses=responses(400, 401, 403, 404, 409, 503))
async def post_entry(tournament: str, body: EntryGiven, gw: GatewayDep, grant: GrantDep,
                     response: Response) -> EntryOut:
    """A player's entry (the tournament's entry token, or the Director's): his name and
    optional ID and his partner's (pairs) or his team-mates' (teams). The answer: his entry,
    his entrant number as the entries stand and how many stand. 400 naming the field (no name,
    a player twice), 409 naming it (a player entered already, entries closed); nothing is
    recorded. The same entry sent again is found: 200, `made` false. A new entry's answer has
    each of its players' own link (`/play#<player token>`, valid from now on: the lobby, then
    his seat each round); the same entry sent again has none (the entry token is public: its
    players' links are not to be had by naming them), the Director has them."""
    _may_enter(grant, tournament)
    entry, made = await tournament_entries.make_entry(gw, tournament, body.model_dump())
    if not made:
        response.status_code = 200
        return EntryOut(**entry, made=made)
    return EntryOut(**entry, made=made, links=_links(gw, tournament, entry))


def _links(gw: Gateway, tournament: str, entry: dict[str, Any]) -> list[PlayerLink]:
    """The players' own links of an entry as `entry_view` gives it (none once refused)."""
    if entry["refused"] is not None:
        return []
    names = [p["name"] for p in entry["players"]]
    return [PlayerLink(**link) for link in entry_links.entry_links(gw, tournament,
                                                                   entry["entry"], names)]


@router.get("/{tournament}/entries", responses=responses(401, 403, 404, 503))
async def get_entries(tournament: str, gw: GatewayDep, _: DirectorDep) -> EntriesView:
    """Every entry in the order it came, refused ones with their reason, each standing one
    with its entrant number and its players' own links; whether entries are closed; the entry
    link. The Director's console reads it every two seconds."""
    entries = await tournament_entries.entries_of(gw, tournament)
    if entries.opening is None:
        raise Refused(f"entries were never opened for tournament {tournament}", "entries",
                      kind=Kind.NOT_FOUND)
    return EntriesView(tournament=tournament, teams=entries.opening.teams,
                       kind=entries.opening.kind,
                       closed=entries.closed is not None, link=entry_link(gw, tournament)[1],
                       entries=[EntryOut(**(view := tournament_entries.entry_view(entries, e)),
                                         links=_links(gw, tournament, view))
                                for e in entries.entries])


@router.put("/{tournament}/entries/{entry}", responses=responses(400, 401, 403, 404, 409, 503))
async def put_entry(tournament: str, entry: int, body: EntryGiven, gw: GatewayDep,
                    _: DirectorDep) -> EntryOut:
    """The Director's edit of a standing entry (its players, its team's name), checked as an
    entry is."""
    return EntryOut(**await tournament_entries.edit_entry(gw, tournament, entry,
                                                          body.model_dump()))


@router.post("/{tournament}/entries/{entry}/refuse",
             responses=responses(400, 401, 403, 404, 409, 503))
async def refuse_entry(tournament: str, entry: int, body: EntryRefusal, gw: GatewayDep,
                       _: DirectorDep) -> EntryOut:
    """Refuse a standing entry, with a reason: it stays listed, refused; its players may
    enter again, and the entries after it move up a number."""
    return EntryOut(**await tournament_entries.refuse_entry(gw, tournament, entry,
                                                            body.reason))


@router.post("/{tournament}/entries/close", status_code=201,
             responses=responses(400, 401, 403, 404, 409, 413, 503))
async def close_entries(tournament: str, body: EntriesClose, gw: GatewayDep, _: DirectorDep,
                        response: Response) -> EntriesClosed:
    """Close entries and create the tournament: the standing entries become its entrants,
    numbered in the order they came, and their number chooses the movement (or checks the
    one given, here or at the opening): its tables follow. 400 naming the field when no
    movement fits (nothing is recorded). Sent again: the same tournament, 200. The Director
    can still add entrants (`POST /api/tournaments/{t}/entrants`) before round 1."""
    movement = None if body.movement is None else body.movement.model_dump(mode="json")
    closed, created = await tournament_entries.close_entries(gw, tournament, movement)
    if not created:
        response.status_code = 200
    return EntriesClosed(**closed, created=created)

