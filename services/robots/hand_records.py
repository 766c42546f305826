"""A tournament's board solved for its hand record (docs/scoring.md), by the robots' solver
(`solver`: endplay's DDS). Run in the gateway's worker process (`off_loop`), which imports the
solver at its first board: endplay's imports (matplotlib among them) and DDS's memory, 110 MB
measured, stay out of the gateway's process, which imports this module alone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.tournament.hand_records import HandRecord, started_of


def hand_record(board: int, fields: Mapping[str, Any]) -> dict[str, Any]:
    """A board's record (`HandRecord.to_map()`) from its deal's fields (`Tournament.deals`):
    its double-dummy table, then its par at the board's vulnerability and dealer."""
    from services.robots.solver import double_dummy, par_of  # the worker's, at its first

    started = started_of(board, fields)
    if started.deal is None:
        raise ValueError(f"board {board} has no deal")
    table, solved = double_dummy(started.deal)
    par = par_of(solved, started.vulnerability, started.dealer)
    return HandRecord(board, started.dealer, started.vulnerability, started.deal, table,
                      par).to_map()
