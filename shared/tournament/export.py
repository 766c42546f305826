"""A tournament's session in one file: every board of every table, in PBN, LIN or JSON.

PBN and LIN are written by `shared.notation.export`, table after table, each board with the
tournament's name, site and date and its table (PBN `[Event]`, `[Site]`, `[Date]`, `[Table]`;
LIN's `vg` line); JSON is the tournament as created and each table's events as its log holds
them, which a fold turns back into exactly the same states."""

from __future__ import annotations

import json
from typing import Any

from shared.notation.export import ExportHeader, pbn_document, pbn_games, to_lin
from shared.tournament.session import Tournament

MEDIA = {"pbn": "application/x-bridge-pbn", "lin": "text/plain", "json": "application/json"}


def write_export(made: Tournament, logs: dict[str, list[dict[str, Any]]], form: str) -> str:
    """The session: `logs` is each table's events (maps), in the tournament's table order."""
    if form == "json":
        return json.dumps({"tournament": made.to_map(), "tables": logs})
    headers = {table: ExportHeader(event=made.name, site=made.site or None,
                                   date=made.date or None, table=table)
               for table in logs}
    if form == "lin":
        return "".join(to_lin(events, headers[t]) for t, events in logs.items() if events)
    return pbn_document(game for t, events in logs.items()
                        for game in pbn_games(events, headers[t]))
