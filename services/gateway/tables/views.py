"""What each reader may see of a board: the core's `shared.table.visibility` (the Laws of who sees
what: 16, 20F, 41D, 54, 61, 62, 68A; the playable cards), for the reader a token names. Every
channel reads through here: the state (`routes.reading`), the feed (`routes.feeds`), the
history (`routes.reading`, `history_reads`) and the exports (`hides_holdings`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from services.gateway.tokens import Grant
from shared.seats import Seat
from shared.table import visibility
from shared.table.board_view import BoardView, WithheldView
from shared.table.history_view import HistoryEntryView, HistoryView
from shared.table.visibility import Reader, dummy_of, shown_hands, withheld, without_withheld

__all__ = ["board_for", "dummy_of", "entry_for", "for_public", "hides_holdings", "reader_of",
           "shown_hands", "think_times_for", "withheld", "without_withheld"]


@functools.lru_cache(maxsize=1024)
def reader_of(grant: Grant) -> Reader:
    """The reader `grant` names: its role, and its seat for a player."""
    return Reader(visibility.Role(grant.role),
                  Seat.parse(grant.seat) if grant.seat else None)


def board_for(grant: Grant, board: BoardView, spectator_delay_s: int, now_ms: int
              ) -> BoardView:
    """The board state as `grant` may see it (`shared.table.visibility.board_for`)."""
    return visibility.board_for(reader_of(grant), board, spectator_delay_s, now_ms)


def for_public(grant: Grant, board: BoardView, hides: Callable[[int | None], bool],
               spectator_delay_s: int, now_ms: int) -> BoardView | WithheldView:
    """A board as the public sees it (`shared.table.visibility.for_public`)."""
    return visibility.for_public(reader_of(grant), board, hides, spectator_delay_s, now_ms)


def for_round_seat(grant: Grant, board: BoardView, spectator_delay_s: int, now_ms: int
                   ) -> BoardView | WithheldView:
    """A board as a seat bound to a player's round sees it (`tokens.Bound`): a board of its
    round as the seat sees it, but without the board before when that one is of another
    round; a board of another round withheld (its tray only). Both are boards of other
    players' rounds at the table, which this player may meet later (Law 16C1)."""
    bound = grant.bound
    assert bound is not None
    return visibility.for_public(reader_of(grant), board, lambda n: n not in bound.boards,
                                 spectator_delay_s, now_ms)


def entry_for(grant: Grant, entry: HistoryEntryView, spectator_delay_s: int, now_ms: int
              ) -> HistoryEntryView:
    """One entry of a table's history as `grant` may see it (`visibility.entry_for`)."""
    return visibility.entry_for(reader_of(grant), entry, spectator_delay_s, now_ms)


def hides_holdings(grant: Grant) -> bool:
    """Whether `grant` reads as a player (`shared.table.visibility.hides_holdings`): his history's
    alerts and his PBN and LIN records keep what hands he may not see tell."""
    return visibility.hides_holdings(reader_of(grant))


def think_times_for(grant: Grant, document: HistoryView) -> HistoryView:
    """A history with its think times for the Director alone (`shared.table.visibility.
    think_times_for`, Law 16B)."""
    return visibility.think_times_for(reader_of(grant), document)
