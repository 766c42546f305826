"""The IDs of the players a round seats at a table, beside their names (`seat_names`), so that
the table's record (`players_named`'s `ids`) knows who sat where: an entrant's `player_ids`,
one a player, at the seats his names take. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from shared.scores.individuals import is_partnership
from shared.scores.movements import Seating
from shared.tournament.entrants import Entrant, seat_names


def seat_ids(seating: Seating, entrants: Sequence[Entrant], teams: bool) -> dict[str, str]:
    """Seat → ID of the player `seat_names` seats there, for those with one (and a name:
    an ID alone names nobody)."""
    named = seat_names(seating, entrants, teams)
    if is_partnership(seating.ns):  # an individual: each player at his seat
        ids = seat_names(seating, [replace(e, players=e.player_ids) for e in entrants], teams)
        return {seat: pid for seat, pid in ids.items() if seat in named}
    ns, ew = entrants[seating.ns - 1], entrants[seating.ew - 1]
    if not ns.player_ids and not ew.player_ids:
        return {}
    as_names = [replace(e, players=e.player_ids) for e in (ns, ew)]  # the same places
    ids = seat_names(replace(seating, ns=1, ew=2), as_names, teams)
    return {seat: pid for seat, pid in ids.items() if seat in named}
