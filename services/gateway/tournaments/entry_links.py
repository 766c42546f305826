"""A player's link from his entry (the player's evening from its first step): the answer to his
entry gives each of its players his own `/play#<player token>`, a token naming him by his ENTRY
(its number of arrival, which never changes; entrant numbers shift while a refusal moves later
entries up) and his place in it (`tokens.PlayerScope.by_entry`).

`GET /api/play` and the play socket read such a link as the entries leave him
(`shared.tournament.entry_players`): while they are open, the lobby (entered, waiting for the
Director's close, the entries standing so far); his entry refused, a 403 that says so; after
the close, the entrant his entry became, read as that entrant's own link
(`services.gateway.tournaments.players`): it seats him each round, and the Director's reissue
of that player's link revokes it too (both are of generation 1 until then).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from services.common.public_links import public_link
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tokens import PlayerScope, sign_player
from services.gateway.tournaments import players, service as tournaments
from services.gateway.tournaments.entries import entries_of
from services.gateway.tournaments.fresh_reads import FreshReads
from shared.tournament.entries import Entries, Entry
from shared.tournament.entry_players import EntryStanding, entry_player, partners_in
from shared.tournament.player_seats import Phase
from shared.tournament.session import Tournament

FIRST = 1  # a link's generation until the Director reissues it


def entry_links(gw: Gateway, tournament: str, entry: int, names: Sequence[str]
                ) -> list[dict[str, Any]]:
    """Each player's own link of entry `entry` (its players' `names`): his place, his name,
    his token and his page."""
    expires = int(time.time()) + gw.settings.token_ttl_s
    out = []
    for place, name in enumerate(names, 1):
        token = sign_player(gw.signing_key, PlayerScope(tournament, entry, place, FIRST,
                                                        by_entry=True), expires)
        out.append({"place": place, "name": name, "token": token,
                    "link": players.play_link(gw, token)})
    return out


async def play_view(gw: Gateway, player: PlayerScope, with_token: bool = True
                    ) -> dict[str, Any]:
    """Where the player of a player's link is now: a link by entry read as the entries leave
    him (the lobby while they are open; after the close, his entrant's link); any other link
    as `players.play_view` reads it."""
    if not player.by_entry:
        return await players.play_view(gw, player, with_token)
    entries, made = await entries_now(gw, player.tournament)
    found = entry_player(entries, player.entrant, player.place)
    if found.standing is EntryStanding.NONE or found.entry is None:
        raise Refused(f"this link names no player of an entry of {player.tournament} (entry "
                      f"{player.entrant}, player {player.place})", kind=Kind.FORBIDDEN)
    if found.standing is EntryStanding.REFUSED:
        raise Refused(f"your entry was refused by the Director: {found.entry.refused}. This "
                      "link is void: enter again for a new one, or ask the Director (entry "
                      f"{player.entrant}, {found.entry.name})", kind=Kind.FORBIDDEN)
    if found.standing is EntryStanding.WAITING or made is None or found.number is None:
        if player.generation != FIRST:
            raise Refused(f"this link of player {player.place} of entry {player.entrant} was "
                          "never issued", kind=Kind.FORBIDDEN)
        return _waiting(gw, entries, found.entry, found.number, player)
    return await players.play_view(
        gw, replace(player, entrant=found.number, by_entry=False), with_token)


Now = tuple[Entries, Tournament | None]
_read: FreshReads[Now] = FreshReads(players.FRESH_S)


async def entries_now(gw: Gateway, tournament: str) -> Now:
    """The tournament's entries and the tournament (None: not created yet), read again once
    `players.FRESH_S` old, one read for every link's socket (a lobby of the whole field costs
    one read a tick), as `players.moment` does once it is created."""
    return await _read.get(gw, tournament, lambda: _read_now(gw, tournament))


async def _read_now(gw: Gateway, tournament: str) -> Now:
    return await entries_of(gw, tournament), await tournaments.find(gw, tournament)


def _waiting(gw: Gateway, entries: Entries, entry: Entry, number: int | None,
             player: PlayerScope) -> dict[str, Any]:
    """The lobby before the tournament exists: entered, waiting for the Director's close (or,
    closed, for the tournament's creation), the entries standing so far."""
    opening = entries.opening
    session = opening.session if opening is not None else {}
    teams = opening.teams if opening is not None else False
    kind = (opening.movement.get("kind") if opening is not None else None) or \
        ("teams" if teams else "")
    return {"tournament": player.tournament, "name": session.get("name", ""),
            "date": session.get("date", ""), "movement": kind, "rounds": None,
            "phase": str(Phase.LOBBY), "round": 0,
            "entries": "open" if entries.closed is None else "closed",
            "entry": entry.entry,
            "entrant": {"number": number, "name": entry.name,
                        "players": [p.name for p in entry.players]},
            "place": player.place, "player": entry.players[player.place - 1].name,
            "partner": partners_in(entry, player.place), "seat": None,
            "results": public_link(gw.settings.link_base, f"/results#{player.tournament}"),
            "entrants": [{"number": i, "name": e.name, "players": [p.name for p in e.players]}
                         for i, e in enumerate(entries.standing, 1)]}
