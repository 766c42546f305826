"""Counts in words for the command line's lines: `1 board`, `2 boards`, `1 match`."""

from __future__ import annotations

PLURALS = {"match": "matches", "entry": "entries"}  # the nouns not made plural by an `s`


def counted(count: int, noun: str, thousands: bool = False) -> str:
    """`count` and `noun`, made plural unless the count is one: `counted(1, "board")` is
    `1 board`, `counted(2, "board")` `2 boards`; `thousands`: `1,079 events`."""
    number = f"{count:,}" if thousands else str(count)
    return f"{number} {noun if count == 1 else PLURALS.get(noun, noun + 's')}"
