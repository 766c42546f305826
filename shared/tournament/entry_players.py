"""A player named by his entry (the personal link his entry's answer gives him, before the
tournament exists): where the entries leave him. While they are open he is an entry waiting
for the Director's close; once his entry is refused his link says so; after the close he is
the entrant his entry became (its number among the standing entries, `Entries.number_of`),
so the link seats him as the Director's players list does.

Pure: no I/O.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from shared.tournament.entries import Entries, Entry


class EntryStanding(enum.StrEnum):
    """Where a player's entry stands: each the string on the wire."""

    NONE = "none"  # no such entry, or no such player in it
    WAITING = "waiting"  # entered: the Director has not closed the entries
    REFUSED = "refused"  # the Director refused the entry
    ENTRANT = "entrant"  # closed: the entry is entrant `number`


@dataclass(frozen=True, slots=True)
class EntryPlayer:
    """Player `place` of entry `entry` as the entries leave him: his standing, his entry (None
    for `NONE`) and his entrant number as the entries stand (None once refused)."""

    standing: EntryStanding
    entry: Entry | None = None
    number: int | None = None


def entry_player(entries: Entries, entry: int, place: int) -> EntryPlayer:
    """Player `place` of entry `entry` (numbers of arrival, from 1): his standing."""
    if not 1 <= entry <= len(entries.entries):
        return EntryPlayer(EntryStanding.NONE)
    found = entries.entries[entry - 1]
    if not 1 <= place <= len(found.players):
        return EntryPlayer(EntryStanding.NONE)
    if found.refused is not None:
        return EntryPlayer(EntryStanding.REFUSED, found)
    number = entries.number_of(entry)
    standing = EntryStanding.WAITING if entries.closed is None else EntryStanding.ENTRANT
    return EntryPlayer(standing, found, number)


def partners_in(entry: Entry, place: int) -> list[str]:
    """The player's partner in his entry: the other player of his pair (a team's places 1–2,
    3–4; its fifth and sixth have none yet), as the players' links say it."""
    other = place + 1 if place % 2 else place - 1
    return [entry.players[other - 1].name] if other <= min(len(entry.players), 4) else []
