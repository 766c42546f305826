"""What one entry is (`EntryKind`): a pair's two players, a team's four to six, or an
individual's one player. The entries' kind follows the opening: teams enter when the Director
opened entries for teams; one player an entry when the movement he named is an individual
(`MovementKind.INDIVIDUAL`, `shared.scores.individuals`); a pair otherwise.

An individual's entries close into an individual only when they stand at a size it seats
(`SIZES`: 8, 12, 16, 20 or 24 players), and a close cannot turn entries of one kind into a
movement of another (pairs into an individual, or players into pairs): `TournamentError`
naming the field.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from shared.scores.individual_movements import SIZES
from shared.tournament.entrants import MovementKind
from shared.tournament.errors import TournamentError

TEAM_LEAST, TEAM_MOST = 4, 6


class EntryKind(enum.StrEnum):
    """What one entry is: each the string on the wire (the entry form's `kind`)."""

    PAIR = "pair"  # two players: the one entering and his partner
    TEAM = "team"  # four to six players, and the team's name
    PLAYER = "player"  # one player alone: an individual's entry

    @property
    def least(self) -> int:
        return {EntryKind.PAIR: 2, EntryKind.TEAM: TEAM_LEAST, EntryKind.PLAYER: 1}[self]

    @property
    def most(self) -> int:
        return {EntryKind.PAIR: 2, EntryKind.TEAM: TEAM_MOST, EntryKind.PLAYER: 1}[self]

    @property
    def players_wanted(self) -> str:
        """The players an entry of this kind gives, in words (a refusal's)."""
        return {EntryKind.PAIR: "the pair's two players, you and your partner",
                EntryKind.TEAM: f"a team's {TEAM_LEAST} to {TEAM_MOST} players",
                EntryKind.PLAYER: "one player: an individual's entry is the player alone"
                }[self]


def entry_kind(teams: bool, movement: Mapping[str, Any]) -> EntryKind:
    """The kind of entry an opening takes: teams', an individual's (its movement's kind
    named `individual`), or pairs'."""
    if teams:
        return EntryKind.TEAM
    if movement.get("kind") == MovementKind.INDIVIDUAL:
        return EntryKind.PLAYER
    return EntryKind.PAIR


def check_close_kind(opened: EntryKind, movement: Mapping[str, Any]) -> None:
    """The Director's movement at the close (instead of the opening's) fits the entries:
    an individual for entries of one player, not for pairs' (`movement.kind` named)."""
    individual = movement.get("kind") == MovementKind.INDIVIDUAL
    if individual and opened is not EntryKind.PLAYER:
        raise TournamentError(f"movement.kind: an individual's entries are one player each; "
                              f"these are {opened}s' (open entries for an individual)",
                              "movement.kind")
    if opened is EntryKind.PLAYER and not individual:
        raise TournamentError("movement.kind: these entries are one player each: they close "
                              "into an individual only", "movement.kind")


def check_individual_size(count: int) -> None:
    """An individual's entries standing at a size it seats (`SIZES`), else a
    `TournamentError` naming `entrants` with the sizes and how many stand."""
    if count in SIZES:
        return
    sizes = ", ".join(map(str, SIZES[:-1])) + f" or {SIZES[-1]}"
    fewer = max((s for s in SIZES if s < count), default=None)
    more = min((s for s in SIZES if s > count), default=None)
    hint = " or ".join(f"{'refuse' if s == fewer else 'wait for'} {abs(count - s)}"
                       for s in (fewer, more) if s is not None)
    raise TournamentError(f"entrants: an individual seats {sizes} players (four a table); "
                          f"{count} entries stand ({hint})", "entrants")
