"""Entrants added to a tournament after its creation, before its first round (scoring.md: "given
at creation or added before a round").

Each is an `entrant_added` event on the tournament's topic, after the creation. The tournament
as it stands is its creation with those entrants appended in order (`with_added`): the movement
keeps its kind, boards a round and number of rounds, and is planned for the new number of
entrants. An entrant is refused once a round has started (`EntrantConflict`, the movement's
meetings are fixed from its first round: a pair added later would change who met whom in the
rounds played), or when the movement no longer fits (`TournamentError` naming the field, as at
creation: `tables`, `movement.rounds`, `entrants`, …).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from shared.tournament.entrants import Entrant, entrants_of, movement_of
from shared.tournament.errors import TournamentError
from shared.tournament.session import Tournament

ENTRANT_ADDED = "entrant_added"


class EntrantConflict(TournamentError):
    """An entrant added once the movement's first round has started (a conflict with the
    tournament as it stands, not a bad request)."""


def with_added(made: Tournament, events: Iterable[Mapping[str, Any]]) -> Tournament:
    """The tournament with the entrants its record added, in the order recorded: each
    `entrant_added` before the first `round_started` (one appended after a round started,
    racing it, does not count) and numbered next (of two sent at once with the same number,
    the first stands); any other event is skipped."""
    added: list[Entrant] = []
    for e in events:
        if e.get("type") == "round_started":
            break
        if e.get("type") == ENTRANT_ADDED and e.get("number") == len(made.entrants) + len(
                added) + 1:
            added.append(Entrant.from_map(e))
    return replace(made, entrants=made.entrants + tuple(added)) if added else made


def entrant_added(made: Tournament, given: Mapping[str, Any], rounds_started: int
                  ) -> dict[str, Any] | None:
    """The `entrant_added` event for `given` (number, name, players as at creation) joining
    `made` (its entrants so far), or None when `given` names an entrant already there with the
    same name and players (the same request sent again). Raises `EntrantConflict` once a round
    has started, `TournamentError` naming the field when the number is not the next one or the
    movement no longer fits the tables and deals."""
    movement = made.movement
    if movement is None:
        raise TournamentError("movement: this tournament has no entrants and movement; the "
                              "director's rounds seat the players", "movement")
    number = given.get("number")
    if number is not None and 1 <= number <= len(made.entrants):
        entrant = made.entrants[number - 1]
        again = entrants_of([*(e.to_map() for e in made.entrants[:number - 1]), given])[-1]
        if again == entrant:
            return None
        raise EntrantConflict(f"number: entrant {number} is {entrant.name!r} already",
                              "number")
    if rounds_started:
        raise EntrantConflict("entrants: round 1 has started; the movement's meetings are "
                              "fixed from its first round, entrants are added before it",
                              "entrants")
    try:
        entrant = entrants_of([*(e.to_map() for e in made.entrants), given])[-1]
    except TournamentError as exc:  # entrants[i].number: the number given is not the next
        raise TournamentError(str(exc).replace(f"entrants[{len(made.entrants)}].", ""),
                              "number") from None
    count = len(made.entrants) + 1
    if movement.sections > 1:  # the sections are the entrants split in order: one more
        raise TournamentError("entrants: an event in sections takes no entrant added (it "
                              "would move pairs between sections)", "entrants")
    movement_of(movement.kind, movement.boards_per_round, movement.rounds, movement.scoring,
                count, len(made.tables), list(made.deals), movement.arrow_switch,
                movement.team_scoring, movement.imps_to_vp)
    return {"type": ENTRANT_ADDED, **entrant.to_map()}
