"""A tournament's session in one file: every board of every table, in PBN, LIN or JSON.

PBN and LIN are written by `shared.notation.export`, table after table, each board with the
tournament's name, site and date and its table (PBN `[Event]`, `[Site]`, `[Date]`, `[Table]`;
LIN's `vg` line), each PBN game with its board's double-dummy table and par once solved
(`shared.tournament.hand_records`); JSON is the tournament as created and each table's events
as its log holds them, which a fold turns back into exactly the same states. The export is the
Director's: the think times (`shared.table.think_times`) go with it, JSON's `think_times`
(table → its times) and PBN's commentary after each board (`shared.notation.think_notes`)."""

from __future__ import annotations

import json
from typing import Any

from shared.notation.export import ExportHeader, pbn_document, to_lin
from shared.notation.think_notes import pbn_games_timed, times_of
from shared.tournament.hand_records import tags_by_board
from shared.tournament.session import Tournament

MEDIA = {"pbn": "application/x-bridge-pbn", "lin": "text/plain", "json": "application/json"}


def write_export(made: Tournament, logs: dict[str, list[dict[str, Any]]], form: str,
                 hand_records: dict[int, dict[str, Any]] | None = None) -> str:
    """The session: `logs` is each table's events (maps), in the tournament's table order;
    PBN's games carry their board's hand record (`hand_records`, board → record solved:
    `[OptimumScore]`, `[ParContract]`, `[OptimumResultTable]`)."""
    if form == "json":
        return json.dumps({"tournament": made.to_map(), "tables": logs,
                           "think_times": {t: times_of(events)[1].to_map()
                                           for t, events in logs.items()}})
    headers = {table: ExportHeader(event=made.name, site=made.site or None,
                                   date=made.date or None, table=table)
               for table in logs}
    if form == "lin":
        return "".join(to_lin(events, headers[t]) for t, events in logs.items() if events)
    tags = tags_by_board(hand_records or {})
    return pbn_document(game for t, events in logs.items()
                        for game in pbn_games_timed(events, headers[t], tags=tags))
