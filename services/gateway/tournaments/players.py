"""The players' links of a tournament (the player's evening): each player's one link,
`/play#<player token>`, resolved to where he is now (`shared.tournament.player_seats`): the
lobby, his seat in the round in progress (a seat token bound to that round, `tokens.Bound`),
where he goes next with his entrant's running score, or his scorecard at the end.

What the resolution reads: the tournament's record (its rounds as recorded, the entrants added,
the players' links: `shared.tournament.player_links`, on the tournament's topic) and each
table's overview line (Redis: the round it has started, whether that round's boards are over).
Both are read at most every `FRESH_S` per tournament, whoever asks (`moment`): a socket of
every player of the field costs one read a tick.

A seat token bound to a round acts as its seat while its table's board in progress is one of
the round's boards, and while the player's link is of its current generation (`admit_bound`):
once the table starts the next round, or the Director reissued the player's link, it is
refused with a 403 that says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from services.common.errors import Unavailable
from services.common.kafka.reader import KafkaUnavailable, NoTableError
from services.common.public_links import public_link
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Bound, Grant, PlayerScope, Role, sign_bound, sign_player
from services.gateway.tournaments import (
    record_maps,
    scores as tournament_scores,
    service as tournaments,
)
from services.gateway.tournaments.fresh_reads import FreshReads
from services.gateway.tournaments.log import append_record, refuse_closed, tournament_records
from shared.scores.movements import Round
from shared.tournament.clock import RoundClockView, TournamentClock, clock_of, clock_view
from shared.tournament.entrants import Movement, MovementKind, plan
from shared.tournament.entrants_added import with_added
from shared.tournament.errors import TournamentError
from shared.tournament.individual_results import individual_place
from shared.tournament.player_links import (
    PLAYER_LINK_ISSUED,
    Links,
    check_player,
    links_of,
    moved_event,
)
from shared.tournament.player_seats import (
    Phase,
    Place,
    SeatingIndex,
    TableNow,
    Where,
    places_of,
    seating_index,
    settled,
    where,
)
from shared.tournament.results import rounds_of
from shared.tournament.session import Tournament
from shared.vocabulary import TableStatus

FRESH_S = 0.25  # a tournament's moment is this old at most: a round's start is seen within it
OVER = (TableStatus.DONE,)  # a table whose round's boards are all over


def play_link(gw: Gateway, token: str) -> str:
    """A player's page, his token in the fragment, at the public address when it is set."""
    return public_link(gw.settings.link_base, f"/play#{token}")


@dataclass(frozen=True, slots=True)
class Moment:
    """A tournament as the players' links read it: as it stands (its entrants added), its
    rounds known (started, and the next one where the movement fixes it) and their seatings
    by entrant, the last started, each table's line (by number), the links, the entrants as
    the lobby lists them, the last timed round's clock."""

    made: Tournament
    rounds: dict[int, Round]
    index: SeatingIndex
    started: int
    tables: dict[int, TableNow]
    links: Links
    entrants: list[dict[str, Any]]
    clock: TournamentClock | None = None


_moments: FreshReads[Moment] = FreshReads(FRESH_S)


async def found(gw: Gateway, tournament: str) -> Tournament:
    made = await tournaments.find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    if made.movement is None:
        raise Refused(f"tournament {tournament} has no entrants and movement: its players "
                      "have no links of their own (its tables' seat links)", "tournament")
    return made


async def moment(gw: Gateway, tournament: str) -> Moment:
    """The tournament's moment, read again once `FRESH_S` old (one read for every reader;
    the same object while nothing in it changed)."""
    return await _moments.get(gw, tournament, lambda: _read_moment(gw, tournament))


async def _read_moment(gw: Gateway, tournament: str) -> Moment:
    made = await found(gw, tournament)
    try:
        records = await tournament_records(gw, tournament)
    except NoTableError:
        records = []
    except KafkaUnavailable:
        raise Unavailable("Kafka did not answer in time; retry", retry_after=1) from None
    events = record_maps.kept_maps(gw, tournament, records)  # the new ones decoded only
    part = _recorded_part(gw, made, events)
    lines = await gw.adapters.store.overview(list(part.made.tables))
    folded = {i + 1: TableNow(line.get("round"), line.get("status") in OVER)
              for i, t in enumerate(part.made.tables) if (line := lines.get(t)) is not None}
    # a round the record ended and the next it started: every table in it, ahead of the fold
    tables = dict(settled(folded, part.rounds, part.started, part.ended))
    started = max([part.started, *(t.round for t in tables.values() if t.round is not None)])
    return Moment(part.made, part.rounds, part.index, started, tables, part.links,
                  part.entrants, part.clock)


@dataclass(frozen=True, slots=True)
class _Recorded:
    """What a moment takes from the tournament's record alone (all but the tables' lines)."""

    made: Tournament
    rounds: dict[int, Round]
    index: SeatingIndex
    started: int  # the last round the record started (0: none)
    ended: int  # the last round the record ended (the clock's end, or the Director's; 0: none)
    links: Links
    entrants: list[dict[str, Any]]
    clock: TournamentClock | None


# by gateway and tournament: the creation and the records it was computed from, by identity
_recorded: WeakKeyDictionary[Gateway, dict[str, tuple[Tournament, tuple[dict[str, Any], ...],
                                                     _Recorded]]] = WeakKeyDictionary()


def _recorded_part(gw: Gateway, made: Tournament, events: tuple[dict[str, Any], ...]
                   ) -> _Recorded:
    """The record's part of the moment, computed again only when a record was added (a
    moment is read every `FRESH_S`, `play_watch.QUICK_S` after a move: its rounds, seatings
    and entrants computed each time were a fifth of a busy evening's gateway)."""
    kept = _recorded.setdefault(gw, {})
    found_before = kept.get(made.tournament)
    if found_before is not None and found_before[0] is made and found_before[1] is events:
        return found_before[2]
    now = with_added(made, events)
    recorded = [e for e in events if e.get("type") == "round_started"]
    movement = now.movement
    assert movement is not None
    rounds = {r.number: r for r in rounds_of(recorded, now)}
    if not movement.kind.swiss:  # the movement fixes every round
        rounds = {r.number: r for r in _plan(movement, len(now.entrants))} | rounds
    part = _Recorded(now, rounds, seating_index(rounds),
                     max([*(r["round"] for r in recorded), 0]),
                     max([*(e["round"] for e in events if e.get("type") == "round_ended"), 0]),
                     links_of(events),
                     [_entrant(now, e.number) for e in now.entrants], clock_of(events))
    kept[made.tournament] = (made, events, part)
    return part


_plans: dict[tuple[Movement, int], list[Round]] = {}


def _plan(movement: Movement, entrants: int) -> list[Round]:
    """The movement's rounds (`plan`), computed once (a moment is read every `FRESH_S`)."""
    key = (movement, entrants)
    if key not in _plans:
        if len(_plans) > 64:
            _plans.clear()
        _plans[key] = plan(movement, entrants)
    return _plans[key]


def where_of(now: Moment, player: PlayerScope) -> Where:
    """Where the player is now (he sits as the Director moved him)."""
    movement = now.made.movement
    assert movement is not None
    entrant, place = now.links.sits_as(player.entrant, player.place)
    return where(now.rounds, now.started, movement.rounds, now.tables, entrant, place,
                 movement.kind.teams, now.index)


def _revoked(player: PlayerScope) -> Refused:
    return Refused(f"this link of player {player.place} of entrant {player.entrant} was "
                   "replaced: the Director issued a new one (ask him for it)",
                   kind=Kind.FORBIDDEN)


def check_current(now: Moment, player: PlayerScope) -> None:
    """A 403 unless the player's link is his current one, for a player of the tournament."""
    try:
        check_player(now.made, player.entrant, player.place)
    except TournamentError as exc:
        raise Refused(f"this link names no player of {now.made.tournament}: {exc}",
                      kind=Kind.FORBIDDEN) from None
    if now.links.generation(player.entrant, player.place) != player.generation:
        raise _revoked(player)


def player_of(grant: Grant) -> PlayerScope:
    """The player a player's token is for (a 403 for any other token)."""
    if grant.role != Role.PLAYER or grant.player is None:
        raise Refused("this needs a player's link (/play#<token>), from the Director",
                      kind=Kind.FORBIDDEN)
    return grant.player


async def play_view(gw: Gateway, player: PlayerScope, with_token: bool = True
                    ) -> dict[str, Any]:
    """Where the player is now, for his page (`GET /api/play`, the play socket): his event and
    entrant, the phase and round, his place (table, seat, direction, opponents, boards) and,
    seated, his seat's token for that round; before round 1 the entrants so far; between
    rounds and at the end his entrant's running score (the boards complete everywhere only,
    Law 16C1); at the end his scorecard; the last timed round's clock (`clock`, None when
    untimed: between rounds, its end is the next round's start)."""
    now = await moment(gw, player.tournament)
    check_current(now, player)
    made = now.made
    movement = made.movement
    assert movement is not None
    found_at = where_of(now, player)
    entrant_no, place_no = now.links.sits_as(player.entrant, player.place)
    view: dict[str, Any] = {
        "tournament": made.tournament, "name": made.name, "date": made.date,
        "movement": str(movement.kind), "rounds": movement.rounds,
        "phase": str(found_at.phase), "round": found_at.round,
        "entrant": _entrant(made, entrant_no), "place": place_no,
        "player": _player_name(made, player.entrant, player.place),
        "partner": _partners(made, now.links, entrant_no, place_no, movement.kind.teams),
        "seat": None if found_at.place is None else _place(made, found_at.place),
        "results": public_link(gw.settings.link_base, f"/results#{made.tournament}"),
        "clock": clock_view(now.clock)}
    if found_at.phase is Phase.LOBBY:
        view["entrants"] = now.entrants
    if found_at.phase in (Phase.BETWEEN, Phase.END):
        view.update(await _score(gw, made, entrant_no, found_at.phase is Phase.END))
    if with_token and found_at.phase is Phase.SEATED and found_at.place is not None:
        place = found_at.place
        bound = Bound(player, place.round, frozenset(place.boards))
        token = sign_bound(gw.signing_key, made.tables[place.table - 1], place.seat, bound,
                           int(time.time()) + gw.settings.token_ttl_s)
        view["seat"]["token"] = token
        view["seat"]["link"] = public_link(gw.settings.link_base, f"/seat#{token}")
    return view


def _entrant(made: Tournament, number: int) -> dict[str, Any]:
    e = made.entrants[number - 1]
    return {"number": e.number, "name": e.name, "players": list(e.players)}


def _player_name(made: Tournament, entrant: int, place: int) -> str:
    players = made.entrants[entrant - 1].players
    return players[place - 1] if place <= len(players) else ""


def _partners(made: Tournament, links: Links, entrant: int, place: int, teams: bool
              ) -> list[str]:
    """The player's partner: whoever sits as the other player of his pair (a team's places
    1–2, 3–4), the Director's moves counted."""
    other = place + 1 if place % 2 else place - 1
    if other > (4 if teams else 2):
        return []
    sitting = [_player_name(made, e, p) for e, p in links.sitting_as(entrant, other)]
    return [name for name in sitting if name]


def _place(made: Tournament, place: Place) -> dict[str, Any]:
    out = {"round": place.round, "table": made.tables[place.table - 1],
           "table_number": place.table, "seat": place.seat, "direction": place.direction,
           "boards": list(place.boards)}
    if place.partnership:  # an individual: this round's partner and opponents
        return out | individual_place(made.entrants, place.partnership, place.opponents)
    return out | {"opponents": _entrant(made, place.opponents)}


async def _score(gw: Gateway, made: Tournament, entrant: int, end: bool) -> dict[str, Any]:
    """The entrant's line in the public results (only the boards complete everywhere count,
    Law 16C1), and at the end its scorecard; nothing while Kafka cannot be read."""
    try:
        doc = await tournament_scores.results_of(gw, made, False)
    except (Unavailable, Refused):
        return {"score": None}
    line = next((r for r in doc["rankings"] if r["entrant"] == entrant), None)
    out: dict[str, Any] = {"score": line, "complete": len(doc["complete"])}
    if end:
        out["scorecard"] = doc.get("scorecards", {}).get(str(entrant), [])
    return out


async def admit_bound(gw: Gateway, grant: Grant, table: str, watching: bool = False) -> None:
    """A seat token bound to a player's round acts as its seat only while its table plays the
    round's boards and the player's link is current: a 403 that says so otherwise. Any other
    grant passes (its own checks are the table's). `watching` (a feed, a read of the state,
    which withhold a board of another round from the seat: `views.for_round_seat`): also
    once the tournament's record has the round in progress at the table (`settled`), before
    the processor folded its start there (the players moved at the clock's end, not a fold
    later)."""
    bound = grant.bound
    if bound is None or grant.table != table:  # another table's: refused as such
        return
    now = await moment(gw, bound.player.tournament)
    check_current(now, bound.player)
    found_state = await gw.adapters.store.read_state(table)
    board = None if found_state is None else found_state[1]["board"]
    if board not in bound.boards and not (watching and _in_progress(now, table, bound.round)):
        raise Refused(f"this seat at table {table} was yours for round {bound.round} "
                      f"(boards {min(bound.boards)}–{max(bound.boards)}), which is not in "
                      "play there now: your player's link (/play) has your seat",
                      kind=Kind.FORBIDDEN)


def _in_progress(now: Moment, table: str, number: int) -> bool:
    """Whether the moment has round `number` in progress at `table`."""
    tables = now.made.tables
    return table in tables and now.tables.get(tables.index(table) + 1) == TableNow(number, False)


async def tournament_clock(gw: Gateway, tournament: str) -> RoundClockView | None:
    """The last timed round's clock (`clock_view`) for the tournament's vugraph, read with the
    players' moment (at most every `FRESH_S`); None for a tournament without a movement."""
    try:
        now = await moment(gw, tournament)
    except Refused:
        return None
    return clock_view(now.clock)


async def players_list(gw: Gateway, tournament: str) -> dict[str, Any]:
    """Every player's link (entrant, place, name, ID, generation, link), for the Director."""
    now = await moment(gw, tournament)
    made = now.made
    movement = made.movement
    assert movement is not None
    expires = int(time.time()) + gw.settings.token_ttl_s
    out = []
    for e in made.entrants:
        for place in range(1, places_of(e, movement.kind.teams,
                                        movement.kind is MovementKind.INDIVIDUAL) + 1):
            scope = PlayerScope(made.tournament, e.number, place,
                                now.links.generation(e.number, place))
            token = sign_player(gw.signing_key, scope, expires)
            out.append({"entrant": e.number, "entrant_name": e.name, "place": place,
                        "name": e.players[place - 1] if place <= len(e.players) else "",
                        "player_id": e.player_ids[place - 1]
                        if place <= len(e.player_ids) else "",
                        "generation": scope.generation,
                        "sits_as": list(now.links.sits_as(e.number, place)),
                        "token": token, "link": play_link(gw, token)})
    return {"tournament": made.tournament, "name": made.name, "players": out}


def forget_moment(gw: Gateway, tournament: str) -> None:
    """The tournament's moment read anew by its next reader (after a write they must see)."""
    _moments.forget(gw, tournament)


async def reissue(gw: Gateway, tournament: str, entrant: int, place: int) -> dict[str, Any]:
    """A new link for the player (the next generation, recorded on the tournament's topic):
    his older links stop working on every gateway within `FRESH_S`."""
    now = await moment(gw, tournament)
    try:
        check_player(now.made, entrant, place)
    except TournamentError as exc:
        raise Refused(str(exc), exc.field, Kind.NOT_FOUND) from None
    await refuse_closed(gw, tournament, "tournament", "links")
    generation = now.links.generation(entrant, place) + 1
    await append_record(gw, tournament, {"type": PLAYER_LINK_ISSUED, "entrant": entrant,
                                         "place": place, "generation": generation,
                                         "ts": int(time.time() * 1000)},
                        "record the player's link", "tournament", "links")
    forget_moment(gw, tournament)
    scope = PlayerScope(tournament, entrant, place, generation)
    token = sign_player(gw.signing_key, scope, int(time.time()) + gw.settings.token_ttl_s)
    return {"entrant": entrant, "place": place, "generation": generation, "token": token,
            "link": play_link(gw, token)}


async def move(gw: Gateway, tournament: str, given: dict[str, Any]) -> dict[str, Any]:
    """The Director moves a player by hand (a late change of partner): his link seats him
    as (`to_entrant`, `to_place`) from now on; recorded on the tournament's topic."""
    now = await moment(gw, tournament)
    try:
        event = moved_event(now.made, given)
    except TournamentError as exc:
        raise Refused(str(exc), exc.field) from None
    await refuse_closed(gw, tournament, "tournament", "moves")
    await append_record(gw, tournament, {**event, "ts": int(time.time() * 1000)},
                        "record the move", "tournament", "moves")
    forget_moment(gw, tournament)
    return {k: v for k, v in event.items() if k != "type"}


def without_token(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the socket compares it: its seat token is signed anew each time."""
    seat = view.get("seat")
    if not seat or "token" not in seat:
        return view
    return {**view, "seat": {k: v for k, v in seat.items() if k not in ("token", "link")}}

