"""A tournament's entries: players entering themselves before the session, on the public entry
page (docs/pages.md), the Director watching them arrive, refusing or editing one, and closing.

Each step is an event on the tournament's topic, folded here in the order recorded:
`entries_opened` (what the Director gives of the session: its name, deals, movement, pairs or
teams), `entry_made` (a pair's two players, a team's four to six, or an individual's one
player: `shared.tournament.entry_kinds`; each a name and an optional ID: a federation number
or an email), `entry_edited`, `entry_refused`,
`entries_closed`. An entry that the fold finds against the rules (a player entered already,
entries closed) counts for nothing: of two sent at once by two gateways, the first stands.

A player is the same as another when their names match (case and spaces aside) and their IDs do
not tell them apart: both given and different is two players; one of them without an ID is the
same name, not told apart (the second is asked for his ID).

At the close the entries standing (those not refused, in the order they came) become the
entrants, numbered 1 … n, and their number chooses the movement (a Howell for a small field, a
Mitchell above it; a round robin of matches for teams) or checks the one the Director gave, as
the movement planning does (`shared.tournament.entrants`): an odd number sits a pair out each
round. An individual's entries close only at a size it seats (8, 12, 16, 20 or 24 players).

Pure: raises `TournamentError` naming the field at fault (`EntryConflict` for a conflict with
the entries as they stand).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from shared.scores.vocabulary import Scoring
from shared.tournament.entrants import (
    MAX_ENTRANTS,
    MAX_ID,
    Entrant,
    Movement,
    MovementKind,
    movement_of,
    plan,
)
from shared.tournament.entry_kinds import (
    EntryKind,
    check_close_kind,
    check_individual_size,
    entry_kind,
)
from shared.tournament.errors import TournamentError

MAX_NAME = 64  # characters of a player's name
MAX_TEAM_NAME = 200
HOWELL_MOST = 8  # pairs a Howell is chosen for (7 rounds); a larger field plays a Mitchell
MOST_ROUNDS = 200  # rounds a movement plays at the most (a creation request's limit)


class EntryEvent(enum.StrEnum):
    """The entries' events on the tournament's topic: each the `type` on the wire."""

    OPENED = "entries_opened"
    MADE = "entry_made"
    EDITED = "entry_edited"
    REFUSED = "entry_refused"
    CLOSED = "entries_closed"


class EntryConflict(TournamentError):
    """An entry against the entries as they stand (a player entered already, entries closed,
    an entry refused): a conflict, not a malformed request."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player as entered: his name and his ID ("" none)."""

    name: str
    id: str = ""

    @property
    def key(self) -> str:
        return " ".join(self.name.split()).casefold()

    def same_as(self, other: Player) -> bool:
        """The same name (case and spaces aside), not told apart by two different IDs."""
        if self.key != other.key:
            return False
        return not (self.id and other.id and self.id.casefold() != other.id.casefold())

    def to_map(self) -> dict[str, str]:
        return {"name": self.name, "id": self.id}

    def words(self) -> str:
        return f"{self.name} ({self.id})" if self.id else self.name


@dataclass(frozen=True, slots=True)
class Entry:
    """An entry as it stands: its number of arrival (from 1, never reused), its players, the
    team's name ("" for a pair), the reason it was refused (None: it stands), its time."""

    entry: int
    players: tuple[Player, ...]
    team: str = ""
    refused: str | None = None
    ts: int = 0

    @property
    def name(self) -> str:
        """The entrant's name: the team's, else its players' names joined."""
        return self.team or " & ".join(p.name for p in self.players)

    def to_map(self) -> dict[str, Any]:
        return {"entry": self.entry, "name": self.name, "team": self.team,
                "players": [p.to_map() for p in self.players], "refused": self.refused,
                "ts": self.ts}


@dataclass(frozen=True, slots=True)
class Opening:
    """What the Director gave when he opened entries: pairs or teams, and the session to
    create at the close (its name, ruleset, deals file, site, date, the movement's kind or
    None to choose it, boards a round, rounds or None for all, scoring)."""

    teams: bool
    session: Mapping[str, Any]

    @property
    def movement(self) -> Mapping[str, Any]:
        given: Mapping[str, Any] = self.session.get("movement") or {}
        return given

    @property
    def kind(self) -> EntryKind:
        """What one entry is: a pair, a team, or an individual's one player."""
        return entry_kind(self.teams, self.movement)

    def closing_with(self, movement: Mapping[str, Any] | None) -> Opening:
        """The opening with the Director's movement at the close (None: the opening's), which
        must fit the entries' kind (`check_close_kind`)."""
        if movement is None:
            return self
        check_close_kind(self.kind, movement)
        return Opening(self.teams, {**self.session, "movement": movement})


@dataclass(frozen=True, slots=True)
class Entries:
    """The entries folded so far: the opening (None: entries were never opened), every entry
    by its number, whether they are closed (and the movement recorded at the close), and the
    offset of the next record to fold (the fold goes on from there)."""

    opening: Opening | None = None
    entries: tuple[Entry, ...] = ()
    closed: dict[str, Any] | None = None
    next_offset: int = 0
    offsets: Mapping[int, int] = field(default_factory=dict)  # offset → entry made there

    @property
    def standing(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.refused is None)

    def number_of(self, entry: int) -> int | None:
        """The entrant number the entry has as the entries stand (its place among those
        standing, in the order they came), None when refused."""
        for i, e in enumerate(self.standing):
            if e.entry == entry:
                return i + 1
        return None

    def found(self, players: Sequence[Player], team: str) -> Entry | None:
        """The standing entry of exactly these players and team (the same entry sent again)."""
        for e in self.standing:
            if e.team == team and len(e.players) == len(players) and all(
                    a.key == b.key and a.id == b.id for a, b in zip(e.players, players,
                                                                   strict=True)):
                return e
        return None


def entry_of(given: Mapping[str, Any], kind: EntryKind) -> tuple[tuple[Player, ...], str]:
    """An entry's players and team name as given, checked: a pair's two players, a team's
    four to six or an individual's one (`kind`), each with a name (an ID optional, at most
    `MAX_ID` characters), no player twice; a team's name (by default its first player's)."""
    raw = given.get("players")
    teams = kind is EntryKind.TEAM
    if not isinstance(raw, list) or not kind.least <= len(raw) <= kind.most:
        raise TournamentError(f"players: {kind.players_wanted}", "players")
    players: list[Player] = []
    for i, p in enumerate(raw):
        at = f"players[{i}]"
        if not isinstance(p, Mapping):
            raise TournamentError(f"{at}: a player is his name and an optional ID", at)
        name, pid = p.get("name"), p.get("id") or ""
        if not isinstance(name, str) or not name.strip():
            raise TournamentError(f"{at}.name: a name is needed", f"{at}.name")
        if len(name) > MAX_NAME:
            raise TournamentError(f"{at}.name: at most {MAX_NAME} characters", f"{at}.name")
        if not isinstance(pid, str) or len(pid) > MAX_ID:
            raise TournamentError(f"{at}.id: an ID (a federation number or an email) is text "
                                  f"of at most {MAX_ID} characters", f"{at}.id")
        player = Player(" ".join(name.split()), pid.strip())
        for j, before in enumerate(players):
            if before.same_as(player):
                raise TournamentError(f"{at}: {player.words()} is players[{j}] already; two "
                                      "players of one name are told apart by their IDs", at)
        players.append(player)
    team = given.get("team") or ""
    if not isinstance(team, str) or len(team) > MAX_TEAM_NAME:
        raise TournamentError(f"team: a team's name is text of at most {MAX_TEAM_NAME} "
                              "characters", "team")
    team = " ".join(team.split())
    if teams and not team:
        team = f"Team {players[0].name}"
    return tuple(players), team if teams else ""


def check_entry(entries: Entries, players: Sequence[Player], editing: int | None = None
                ) -> None:
    """An entry (a new one, or entry `editing` edited) the entries as they stand can take:
    they are open, and none of its players is in another standing entry. `EntryConflict`
    naming the field otherwise."""
    if entries.opening is None:
        raise EntryConflict("entries: entries are not open for this tournament", "entries")
    if entries.closed is not None:
        raise EntryConflict("entries: entries are closed; the Director adds entrants himself",
                            "entries")
    if editing is None and len(entries.standing) >= MAX_ENTRANTS:
        raise EntryConflict(f"entries: the field is full ({MAX_ENTRANTS})", "entries")
    for i, player in enumerate(players):
        for other in entries.standing:
            if other.entry == editing:
                continue
            if any(player.same_as(p) for p in other.players):
                raise EntryConflict(
                    f"players[{i}]: {player.words()} has entered already (entry "
                    f"{other.entry}, {other.name}); a player of the same name gives his ID "
                    "to be told apart", f"players[{i}]")


def entry_in(entries: Entries, number: int) -> Entry:
    """Entry `number`, standing; `TournamentError` (field `entry`) otherwise."""
    if not 1 <= number <= len(entries.entries):
        raise TournamentError(f"entry: no entry {number}", "entry")
    found = entries.entries[number - 1]
    if found.refused is not None:
        raise EntryConflict(f"entry: entry {number} was refused ({found.refused})", "entry")
    return found


def fold(records: Iterable[tuple[int, Mapping[str, Any]]], entries: Entries | None = None
         ) -> Entries:
    """The entries after `records` (offset, event), from `entries` (the fold so far; records
    below its `next_offset` are skipped). Events of other kinds are skipped; an event against
    the rules counts for nothing (the first of two stands)."""
    entries = Entries() if entries is None else entries
    for offset, event in records:
        if offset < entries.next_offset:
            continue
        entries = replace(_step(entries, offset, event), next_offset=offset + 1)
    return entries


def _step(entries: Entries, offset: int, event: Mapping[str, Any]) -> Entries:
    kind = event.get("type")
    if kind == EntryEvent.OPENED:
        if entries.opening is not None:
            return entries
        session = {k: v for k, v in event.items() if k not in ("type", "teams", "ts")}
        return replace(entries, opening=Opening(bool(event.get("teams")), session))
    if entries.opening is None or entries.closed is not None:
        return entries
    try:
        if kind == EntryEvent.MADE:
            players, team = entry_of(event, entries.opening.kind)
            check_entry(entries, players)
            made = Entry(len(entries.entries) + 1, players, team, None, int(event.get("ts", 0)))
            return replace(entries, entries=(*entries.entries, made),
                           offsets={**entries.offsets, offset: made.entry})
        if kind == EntryEvent.EDITED:
            number = int(event["entry"])
            before = entry_in(entries, number)
            players, team = entry_of(event, entries.opening.kind)
            check_entry(entries, players, editing=number)
            return _put(entries, replace(before, players=players, team=team))
        if kind == EntryEvent.REFUSED:
            before = entry_in(entries, int(event["entry"]))
            return _put(entries, replace(before, refused=str(event.get("reason") or
                                                             "refused by the Director")))
    except (TournamentError, KeyError, ValueError, TypeError):
        return entries
    if kind == EntryEvent.CLOSED:
        return replace(entries, closed={k: v for k, v in event.items() if k != "type"})
    return entries


def _put(entries: Entries, entry: Entry) -> Entries:
    listed = list(entries.entries)
    listed[entry.entry - 1] = entry
    return replace(entries, entries=tuple(listed))


def entrants_at_close(entries: Entries) -> tuple[Entrant, ...]:
    """The entrants the standing entries make, numbered 1 … n in the order they came, each
    with its players' names and IDs."""
    return tuple(Entrant(i + 1, e.name, tuple(p.name for p in e.players),
                         tuple(p.id for p in e.players) if any(p.id for p in e.players)
                         else ())
                 for i, e in enumerate(entries.standing))


def chosen_kind(teams: bool, count: int) -> MovementKind:
    """The movement a field of `count` entrants plays when the Director named none: teams a
    round robin of matches; pairs a Howell (every pair meets every other) up to
    `HOWELL_MOST`, a Mitchell above (a Howell of more would take too many rounds)."""
    if teams:
        return MovementKind.TEAMS
    return MovementKind.HOWELL if count <= HOWELL_MOST else MovementKind.MITCHELL


def movement_at_close(opening: Opening, count: int, deals: Sequence[int]
                      ) -> tuple[Movement, int]:
    """The movement for `count` entrants (the Director's kind checked, or one chosen,
    `chosen_kind`; its rounds the Director's, or all it has up to `MOST_ROUNDS`; its clock's
    minutes a board the Director's, when he timed the rounds) and the
    tables it seats them at: `TournamentError` naming the field when none fits (too few
    entrants, rounds, deals)."""
    given = opening.movement
    kind = MovementKind(given["kind"]) if given.get("kind") else chosen_kind(opening.teams,
                                                                           count)
    if kind.teams != opening.teams:
        raise TournamentError(f"movement.kind: a {kind} movement is for "
                              f"{'teams' if kind.teams else 'pairs'}", "movement.kind")
    per = int(given.get("boards_per_round") or 0)
    rounds = given.get("rounds")
    scoring = Scoring(given.get("scoring") or Scoring.MATCHPOINTS)
    if count < 1:
        raise TournamentError("entrants: no entry stands", "entrants")
    if kind is MovementKind.INDIVIDUAL:
        check_individual_size(count)
    planned = plan(Movement(kind, per, int(rounds or 0), scoring), count)
    if rounds is None and not kind.swiss and len(planned) > MOST_ROUNDS:
        rounds, planned = MOST_ROUNDS, planned[:MOST_ROUNDS]  # a field of 400 pairs and more
    tables = max((s.table for r in planned for s in r.tables), default=0)
    movement = movement_of(kind, per, rounds, scoring, count, tables, deals)
    minutes = given.get("minutes_per_board")  # the round's clock, when timed
    if minutes is not None:
        movement = replace(movement, minutes_per_board=float(minutes))
    return movement, tables
