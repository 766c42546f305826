"""The think times of a table's boards (`shared.table.think_times`) as PBN commentary after
each board: each call's think, `!` after one marked (Law 16B1: a break in tempo, the Director
decides), the cards' in all, each side's on the board and in its round. For the Director's
records only (the tournament's export, his PBN of a table): no player's record carries them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from shared.codec import from_map
from shared.notation.export import ExportHeader, _commentary, pbn_games
from shared.table.think_times import TableTimes, ThinkKind, folded_times


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.0f}"


def think_words(times: TableTimes, deal: int) -> str | None:
    """The think times of the table's `deal`th board in words (None: no think)."""
    board = times.board(deal)
    if board is None:
        return None
    thinks = [t for t in times.thinks if t.deal == deal]
    calls = ", ".join(f"{t.seat.letter} {_seconds(t.ms)}{'!' if t.tempo else ''}"
                      for t in thinks if t.kind is ThinkKind.CALL)
    cards = sum(t.ms for t in thinks if t.kind is ThinkKind.CARD)
    marked = [t for t in thinks if t.tempo]
    words = (f"Think times (s): calls {calls or 'none'}; cards {_seconds(cards)} in all; "
             f"NS {_seconds(board.sides.ns_ms)}, EW {_seconds(board.sides.ew_ms)}")
    rnd = times.rounds.get(board.round) if board.round is not None else None
    if rnd is not None:
        words += f"; round {board.round}: NS {_seconds(rnd.ns_ms)}, EW {_seconds(rnd.ew_ms)}"
    if marked:
        words += ("; a break in tempo (Law 16B1, the Director decides): "
                  + ", ".join(f"{t.player} ({t.seat.letter}) {_seconds(t.ms)} s"
                              for t in marked))
    return words + "."


def times_of(events: Iterable[dict[str, Any]]) -> tuple[list[int], TableTimes]:
    """A table's log (event maps): its boards' numbers in the order started, its times."""
    state, times = folded_times((i, from_map(e)) for i, e in enumerate(events))
    return [b.board for b in state.boards], times


def pbn_games_timed(events: list[dict[str, Any]], header: ExportHeader | None = None,
                    only: int | None = None,
                    tags: Mapping[int, Sequence[str]] | None = None) -> list[str]:
    """`pbn_games` (every board, or those numbered `only`, each with `tags`' lines of its
    board number), each followed by its think times as commentary."""
    games = pbn_games(events, header, only, tags=tags)
    numbers, times = times_of(events)
    deals = [d for d, n in enumerate(numbers, start=1) if only is None or n == only]
    out = []
    for game, deal in zip(games, deals, strict=False):
        words = think_words(times, deal)
        out.append(game if words is None else "\n".join([game, *_commentary(words)]))
    return out
