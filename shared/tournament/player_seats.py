"""Where a player of a tournament is now: his entrant and his place in it (1, 2, … in the
order the entrant's players are given) give his seat in each round of the movement, and the
tables' rounds say which of those he is in (the player's evening: one link all evening).

- `Phase.LOBBY`: no round has started; his place is round 1's (or None: he sits it out).
- `Phase.SEATED`: his table plays a round that seats him: the board in progress there is one
  of his round's. A table whose round's last board is still in play when the next round
  starts keeps its players until that board ends (the engine starts the next round's first
  board then: `shared.table.engine`).
- `Phase.BETWEEN`: his round's boards are over at his table (or his next table is still
  finishing the round before, or he sits the round out): his place is the next round's.
- `Phase.END`: the movement's last round is over for him.

A pair's places: 1 and 2, NS or EW as the movement seats the pair. A team's (`teams`): 1 and 2
sit NS in the room where the team is home (the open room of its match), 3 and 4 EW in the other
(`shared.tournament.entrants.seat_names`); a fifth or sixth player sits nowhere.

Pure: the gateway gives the rounds (the movement's, as recorded) and the tables' lines.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from shared.scores.individuals import is_partnership, partners, seat_of
from shared.scores.movements import Round, Seating
from shared.tournament.entrants import Entrant


class Phase(enum.StrEnum):
    """Where a player's evening stands: each the string on the wire."""

    LOBBY = "lobby"  # before round 1
    SEATED = "seated"  # at his table, his round's boards in progress
    BETWEEN = "between"  # between two rounds: where he goes next
    END = "end"  # the last round is over for him


@dataclass(frozen=True, slots=True)
class Place:
    """A player's seat in one round: the table (numbered from 1), his seat and direction, his
    partner's entrant (his own) and his opponents' entrant, and the boards they play."""

    round: int
    table: int
    seat: str  # N, E, S or W
    direction: str  # NS or EW
    opponents: int  # the entrant sitting the other way (an individual's: a partnership)
    boards: tuple[int, ...]
    partnership: int = 0  # an individual's: the player's partnership this round


@dataclass(frozen=True, slots=True)
class TableNow:
    """A table's line as its overview gives it: the round it has started, and whether that
    round's boards are over (no board in progress, none left to start)."""

    round: int | None
    over: bool


@dataclass(frozen=True, slots=True)
class Where:
    """A player's phase, the round it is about (his round now, seated; the next one, between;
    the last started, at the end) and his place in it (None: he sits that round out, or a
    Swiss's next round is not paired yet)."""

    phase: Phase
    round: int
    place: Place | None


def places_of(entrant: Entrant, teams: bool, individual: bool = False) -> int:
    """How many places an entrant has for its players: a pair two, a team four, or as many as
    its players when it names more (those past the fourth sit nowhere in the movement); an
    individual's player one."""
    return 1 if individual else max(len(entrant.players), 4 if teams else 2)


def seat_in(seating: Seating, entrant: int, place: int, teams: bool) -> str | None:
    """The seat of place `place` of `entrant` at `seating`'s table, None when it sits
    elsewhere (or nowhere) that round."""
    if teams:
        if seating.ns == entrant and place in (1, 2):
            return "NS"[place - 1]
        if seating.ew == entrant and place in (3, 4):
            return "EW"[place - 3]
        return None
    if place not in (1, 2):
        return None
    if is_partnership(seating.ns) and place == 1:  # an individual's partnerships: the player alone
        return seat_of(seating, entrant)
    if seating.ns == entrant:
        return "NS"[place - 1]
    if seating.ew == entrant:
        return "EW"[place - 1]
    return None


SeatingIndex = Mapping[tuple[int, int], Seating]  # (round, entrant) → its table that round


def seating_index(rounds: Mapping[int, Round]) -> SeatingIndex:
    """Each entrant's table in each round, for `where` to find a player's at once (a field's
    every player is placed each time the rounds change: without it, a search of every table
    for each)."""
    return {(r.number, entrant): s for r in rounds.values() for s in r.tables
            for entrant in _sitting(s)}


def _sitting(seating: Seating) -> tuple[int, ...]:
    """The entrants at a table: its NS and EW, or an individual's four players."""
    if not is_partnership(seating.ns):
        return seating.ns, seating.ew
    return partners(seating.ns) + partners(seating.ew)


def place_in(seated: Round | None, entrant: int, place: int, teams: bool,
             index: SeatingIndex | None = None) -> Place | None:
    """The player's place in round `seated` (None: the round is not known, or he sits out);
    `index`, the rounds' `seating_index`, finds his table without a search."""
    if seated is None:
        return None
    candidates: Iterable[Seating] = seated.tables
    if index is not None:
        found = index.get((seated.number, entrant))
        candidates = () if found is None else (found,)
    for seating in candidates:
        seat = seat_in(seating, entrant, place, teams)
        if seat is not None:
            ns = seat in "NS"
            return Place(seated.number, seating.table, seat, "NS" if ns else "EW",
                         seating.ew if ns else seating.ns, seating.boards,
                         0 if not is_partnership(seating.ns) else seating.ns if ns else seating.ew)
    return None


def where(rounds: Mapping[int, Round], started: int, total: int,
          tables: Mapping[int, TableNow], entrant: int, place: int, teams: bool,
          index: SeatingIndex | None = None) -> Where:
    """Where player (`entrant`, `place`) is now. `rounds`: the movement's rounds known (those
    started, and the next when the movement fixes it); `started`: the last round started (0:
    none); `total`: the movement's rounds; `tables`: each table's line (by number; a table
    without one has started no round); `index`: the rounds' `seating_index`, if kept."""
    if started <= 0:
        return Where(Phase.LOBBY, 1, place_in(rounds.get(1), entrant, place, teams, index))
    now = place_in(rounds.get(started), entrant, place, teams, index)
    before = place_in(rounds.get(started - 1), entrant, place, teams, index)
    if before is not None and _playing(tables, before.table, before.round):
        return Where(Phase.SEATED, before.round, before)  # finishing the round before
    if now is not None:
        line = tables.get(now.table, TableNow(None, False))
        if line.round is None or line.round < started:  # his table finishes the round before
            return Where(Phase.BETWEEN, started, now)
        if not line.over:
            return Where(Phase.SEATED, started, now)
    if started >= total:
        return Where(Phase.END, started, None)
    return Where(Phase.BETWEEN, started + 1,
                 place_in(rounds.get(started + 1), entrant, place, teams, index))


def settled(tables: Mapping[int, TableNow], rounds: Mapping[int, Round], started: int,
            ended: int) -> Mapping[int, TableNow]:
    """The tables' lines as the record settles them, ahead of the processor's fold. `started`:
    the last round the tournament's record started; `ended`: the last it ended (the clock's
    end, or the Director's: `round_ended`). Both are recorded only once every table of the
    round acknowledged them on its log (`services.gateway.tournaments.service.start_round`):

    - each table of round `ended` with boards is over, its unfinished board cut (Law 8B1: the
      round ends at the Director's signal, here the clock's; the board left is scored by
      rule, Law 12C2);
    - each table of round `started` with boards, when that round follows the ended one, is in
      it, its first board about to start.

    A line folded further (a later round) is kept. Any other record (no round ended, or the
    next started without the end: the Director's early start, where a table still playing
    keeps its players) changes nothing: the lines are the fold's."""
    if ended < 1 or ended < started - 1:
        return tables
    lines = dict(tables)
    cut = rounds.get(ended)
    for seating in cut.tables if cut is not None else ():
        line = lines.get(seating.table)
        if seating.boards and line is not None and line.round == ended:
            lines[seating.table] = TableNow(ended, True)
    following = rounds.get(started) if started == ended + 1 else None
    for seating in following.tables if following is not None else ():
        line = lines.get(seating.table)
        if seating.boards and (line is None or line.round is None or line.round < started):
            lines[seating.table] = TableNow(started, False)
    return lines


def _playing(tables: Mapping[int, TableNow], table: int, number: int) -> bool:
    line = tables.get(table)
    return line is not None and line.round == number and not line.over
