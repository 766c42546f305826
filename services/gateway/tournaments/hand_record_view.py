"""What a reader may see of a tournament's hand records (docs/scoring.md): the Director every
board; anyone else a board's deal, double-dummy table and par only once no table of the
movement has it still to play (`public_boards`: the public results' rule, Laws 80B and 16C1),
since a deal seen before one's own table plays it is unauthorised information (Law 16C1)."""

from __future__ import annotations

from typing import Any

from services.gateway.tables.service import Gateway
from services.gateway.tournaments import hand_records
from services.gateway.tournaments.public_boards import public_of
from shared.tournament.hand_records import document
from shared.tournament.session import Tournament


async def view(gw: Gateway, made: Tournament, everything: bool) -> dict[str, Any]:
    """The hand-records document for the Director (`everything`) or the public."""
    records, failed = await hand_records.records_of(gw, made)
    if everything:
        shown = frozenset(made.deals)
    else:
        withheld = await public_of(gw).of_tournament(made.tournament)
        shown = frozenset() if withheld.everything else frozenset(made.deals) - withheld.boards
    return document(made, records, shown, failed)
