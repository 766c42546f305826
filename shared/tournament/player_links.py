"""The players' links of a tournament as its record keeps them: each player's link (his entrant
and place) has a generation, 1 until the Director issues him a new one (`player_link_issued`:
the older links stop working), and the Director may move a player by hand (`player_moved`, a
late change of partner: from then on his link seats him where the place he is moved to sits).

Both are events on the tournament's topic, so every gateway reads the same; the last of each
player's stands. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.tournament.entrants import MovementKind
from shared.tournament.errors import TournamentError
from shared.tournament.player_seats import places_of
from shared.tournament.session import Tournament

PLAYER_LINK_ISSUED = "player_link_issued"
PLAYER_MOVED = "player_moved"

PlayerKey = tuple[int, int]  # (entrant, place)


@dataclass(frozen=True, slots=True)
class Links:
    """Each player's link generation (1 when never reissued) and where the Director moved him
    (his entrant and place → the entrant and place he sits as)."""

    generations: dict[PlayerKey, int] = field(default_factory=dict)
    moved: dict[PlayerKey, PlayerKey] = field(default_factory=dict)

    def generation(self, entrant: int, place: int) -> int:
        return self.generations.get((entrant, place), 1)

    def sits_as(self, entrant: int, place: int) -> PlayerKey:
        return self.moved.get((entrant, place), (entrant, place))

    def sitting_as(self, entrant: int, place: int) -> list[PlayerKey]:
        """The players who sit as (`entrant`, `place`), in order: its own player unless the
        Director moved him away, and whoever he moved there (`sits_as` the other way)."""
        key = (entrant, place)
        moved_here = [k for k, to in self.moved.items() if to == key]
        return sorted(moved_here if key in self.moved else [key, *moved_here])


def links_of(events: Iterable[Mapping[str, Any]]) -> Links:
    """The links as the tournament's record leaves them (other events are skipped)."""
    generations: dict[PlayerKey, int] = {}
    moved: dict[PlayerKey, PlayerKey] = {}
    for e in events:
        kind = e.get("type")
        if kind == PLAYER_LINK_ISSUED:
            key = (int(e["entrant"]), int(e["place"]))
            generations[key] = max(generations.get(key, 1), int(e["generation"]))
        elif kind == PLAYER_MOVED:
            key = (int(e["entrant"]), int(e["place"]))
            to = (int(e["to_entrant"]), int(e["to_place"]))
            if to == key:
                moved.pop(key, None)
            else:
                moved[key] = to
    return Links(generations, moved)


def check_player(made: Tournament, entrant: Any, place: Any, field_prefix: str = "") -> None:
    """A 400-worthy `TournamentError` naming the field unless (`entrant`, `place`) is a
    player's place in the tournament (its entrants as they stand)."""
    if made.movement is None:
        raise TournamentError("movement: this tournament has no entrants and movement; its "
                              "players have no links of their own", "movement")
    if type(entrant) is not int or not 1 <= entrant <= len(made.entrants):
        raise TournamentError(f"{field_prefix}entrant: an entrant's number, 1 to "
                              f"{len(made.entrants)}", f"{field_prefix}entrant")
    places = places_of(made.entrants[entrant - 1], made.movement.kind.teams,
                       made.movement.kind is MovementKind.INDIVIDUAL)
    if type(place) is not int or not 1 <= place <= places:
        raise TournamentError(f"{field_prefix}place: a player's place in entrant {entrant}, "
                              f"1 to {places}", f"{field_prefix}place")


def moved_event(made: Tournament, given: Mapping[str, Any]) -> dict[str, Any]:
    """The `player_moved` event for the Director's move of player (`entrant`, `place`) to sit
    as (`to_entrant`, `to_place`), checked (a 400-worthy `TournamentError` naming the field)."""
    check_player(made, given.get("entrant"), given.get("place"))
    check_player(made, given.get("to_entrant"), given.get("to_place"), "to_")
    return {"type": PLAYER_MOVED, **{k: given[k] for k in (
        "entrant", "place", "to_entrant", "to_place")}}
