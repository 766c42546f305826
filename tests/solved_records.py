"""The hand records of the unit tests' deals (tests/data/deals-32.pbn, which their tournaments
deal), as the robots' solver makes them (`services.robots.hand_records`: DDS, 0.5 s a deal),
solved once and kept in tests/data/deals-32-hand-records.json: the in-process off-loop of the
unit tests (`tests.fakes.InProcess`) answers them from here. tests/unit/test_hand_records.py
holds the kept records to the solver's own; `python -m tests.solved_records` writes them again
(after a change of the solver or of a record's shape)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from services.robots.hand_records import hand_record
from shared.tournament.session import deals_of

DEALS = Path(__file__).parent / "data" / "deals-32.pbn"
KEPT = Path(__file__).parent / "data" / "deals-32-hand-records.json"


def key_of(board: int, fields: Mapping[str, Any]) -> str:
    """A board's deal as the solver is asked for it, as a key."""
    return json.dumps([board, fields], sort_keys=True)


def kept() -> dict[str, dict[str, Any]]:
    """The kept records, by `key_of` their board and deal."""
    return {key_of(r["board"], r["fields"]): r["record"] for r in json.loads(KEPT.read_text())}


def solve_all() -> list[dict[str, Any]]:
    return [{"board": board, "fields": fields, "record": hand_record(board, fields)}
            for board, fields in sorted(deals_of(DEALS.read_text()).items())]


if __name__ == "__main__":
    KEPT.write_text(json.dumps(solve_all(), indent=None, separators=(",", ":")) + "\n")
