"""A tournament's session in one file: every board of every table, in PBN, LIN or JSON.

PBN and LIN are written by `shared.notation.export`, table after table, each board with the
tournament's name, site and date and its table (PBN `[Event]`, `[Site]`, `[Date]`, `[Table]`;
LIN's `vg` line); JSON is the tournament as created and each table's events as its log holds
them, which a fold turns back into exactly the same states. The export is the Director's: the
think times (`shared.table.think_times`) go with it, JSON's `think_times` (table → its times)
and PBN's commentary after each board (each call's think, the tempo marks of Law 16B1, each
side's and the round's sums)."""

from __future__ import annotations

import json
from typing import Any

from shared.codec import from_map
from shared.notation.export import (
    ExportHeader,
    _commentary as commentary,
    pbn_document,
    pbn_games,
    to_lin,
)
from shared.table.think_times import TableTimes, ThinkKind, table_times
from shared.tournament.session import Tournament

MEDIA = {"pbn": "application/x-bridge-pbn", "lin": "text/plain", "json": "application/json"}


def write_export(made: Tournament, logs: dict[str, list[dict[str, Any]]], form: str) -> str:
    """The session: `logs` is each table's events (maps), in the tournament's table order."""
    if form == "json":
        return json.dumps({"tournament": made.to_map(), "tables": logs,
                           "think_times": {t: _times(events).to_map()
                                           for t, events in logs.items()}})
    headers = {table: ExportHeader(event=made.name, site=made.site or None,
                                   date=made.date or None, table=table)
               for table in logs}
    if form == "lin":
        return "".join(to_lin(events, headers[t]) for t, events in logs.items() if events)
    return pbn_document(game for t, events in logs.items()
                        for game in _with_times(pbn_games(events, headers[t]), _times(events)))


def _times(events: list[dict[str, Any]]) -> TableTimes:
    return table_times((i, from_map(e)) for i, e in enumerate(events))


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.0f}"


def think_words(times: TableTimes, deal: int) -> str | None:
    """The think times of the table's `deal`th board in words (None: no think): each call's
    think in seconds, `!` after one marked (Law 16B1), each side's on the board and in its
    round."""
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


def _with_times(games: list[str], times: TableTimes) -> list[str]:
    """Each game (the table's boards in the order played) with its think times as commentary
    after it."""
    out = []
    for deal, game in enumerate(games, start=1):
        words = think_words(times, deal)
        out.append(game if words is None else "\n".join([game, *commentary(words)]))
    return out
