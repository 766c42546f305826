"""Which of a tournament's boards the public may not see yet: those a table of the movement
has still to finish.

A tournament's vugraph link hands out every table's spectator link, and anyone may open it, a
player of the tournament too. Online events keep their own players from watching a board they
have still to play (BBO, RealBridge); here the tournament's regulation (Law 80B) keeps every
board (its deal, calls, cards and result) from the public until every table that plays it has
finished it, so that no player learns of a board he has still to play at his table from
another table (Law 16C1). It is the rule the public results follow (`complete`,
`shared.tournament.results`): a board's traveller and its play are public at the same time.

The Director may show a table live (a vugraph match: its players kept from the public page, as
in a match's two rooms): its boards are then the delay's alone. That, and what is withheld of
a board, is the gateway's (`services/gateway/tournaments/public_boards.py`, `views.withheld`).

Pure: the gateway gives the public results' `complete` boards (a tournament with a movement)
or each table's boards finished (without one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shared.tournament.session import Tournament


def withheld_boards(made: Tournament, complete: Iterable[int] | None,
                    finished: Mapping[str, Iterable[int]], closed: bool = False
                    ) -> frozenset[int]:
    """The deals of tournament `made` the public may not see yet (Laws 80B, 16C1).

    With a movement, every deal but the boards `complete` in the public results (each table
    the whole movement seats at the board, in its rounds started and to come, has a result
    or the Director's score there; a board of a Swiss round not yet paired is not complete).
    Without one (the Director's own rounds, which may give any table any deal in a round to
    come), every deal some table of the tournament has not `finished` (table → the boards
    over there). A `closed` tournament plays no more: nothing is withheld. A board that is
    not among the deals (one the Director started by hand with a deal of his own) is no
    movement's: it is not withheld."""
    if closed:
        return frozenset()
    deals = frozenset(made.deals)
    if made.movement is not None:
        return deals - frozenset(complete or ())
    over = [frozenset(finished.get(table, ())) for table in made.tables]
    return frozenset(b for b in deals if not all(b in done for done in over))
