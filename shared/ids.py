"""The formats of ids: a table's, a director alert's, an imported event's. Pure, shared by the
fold (`shared.table.table_run`), the gateway's checks and routes, and the importer."""

from __future__ import annotations

import re

TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,62}")


# a director alert's id: table:board:offset:n (the n-th alert the event at offset raised), or
# table:poison:offset for a record that could not be folded; deterministic, so a replay
# raises the same ids
ALERT_ID = re.compile(rf"{TABLE_ID.pattern}:(?:\d+:\d+:\d+|poison:\d+)")


def alert_id(table: str, board: int, offset: int, n: int) -> str:
    return f"{table}:{board}:{offset}:{n}"


def poison_id(table: str, offset: int) -> str:
    return f"{table}:poison:{offset}"


# the ids `tableserver import` gives the events it appends (import:<board digest>:<n>:<i>), by
# which it finds what a table has already: no event from the gateway may carry one
IMPORT_ID_PREFIX = "import:"
