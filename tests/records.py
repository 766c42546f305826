"""A small reader of the auctions in PBN files, for checking the engine on real records.

It reads only what the tests need (dealer, board, auction, contract, declarer); the full
PBN and LIN notation belongs to `shared` (issue 4).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


@dataclass
class Record:
    tags: dict[str, str] = field(default_factory=dict)
    auction: list[tuple[str, bool]] = field(default_factory=list)  # (call, alerted)
    notes: dict[int, str] = field(default_factory=dict)  # call index → note text

    def log(self) -> list[dict[str, Any]]:
        """The record as tableserver events."""
        board = int(self.tags.get("Board", "1") or 1)
        dealer = self.tags["Auction"]
        events: list[dict[str, Any]] = [{"type": "board_started", "board": board,
                                         "dealer": dealer,
                                         "vulnerability": self.tags.get("Vulnerable", "None")}]
        seat = "NESW".index(dealer)
        for call, alerted in self.auction:
            note = self.notes.get(len(events) - 1)
            events.append({"type": "call", "seat": "NESW"[seat % 4], "call": call,
                           **({"alert": True} if alerted else {}),
                           **({"explanation": note} if note is not None else {})})
            seat += 1
        return events


def read_pbn(path: Path) -> list[Record]:
    """The games of a PBN file that have an auction."""
    records: list[Record] = []
    current = Record()
    in_auction = False
    pending_notes: dict[int, str] = {}  # call index → note number, until the [Note] tags
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            if not line and current.tags:
                records.append(current)
                current, in_auction, pending_notes = Record(), False, {}
            continue
        match = _TAG.match(line)
        if match:
            tag, value = match.groups()
            if tag == "Note" and ":" in value:
                number, text = value.split(":", 1)
                for index, note in pending_notes.items():
                    if note == number:
                        current.notes[index] = text.strip()
            else:
                current.tags[tag] = value
            in_auction = tag == "Auction"
            continue
        if in_auction:
            for token in line.split():
                if token.startswith("=") and token.endswith("=") and len(token) > 2:
                    pending_notes[len(current.auction) - 1] = token.strip("=")
                    continue
                if token in ("*", "-", "+"):
                    continue
                if token == "AP":
                    current.auction.extend([("Pass", False)] * 3)
                    continue
                current.auction.append((token.rstrip("!?"), token.endswith("!")))
    if current.tags:
        records.append(current)
    return [r for r in records if "Auction" in r.tags]


def expected_contract(record: Record) -> dict[str, Any] | None:
    """The contract the record states, in the engine's form (None when passed out)."""
    text = record.tags.get("Contract", "")
    if text in ("", "Pass"):
        return None
    match = re.fullmatch(r"([1-7])(NT|[CDHS])(X{0,2})", text.upper())
    assert match, f"unexpected contract {text!r}"
    return {"level": int(match.group(1)), "strain": match.group(2), "risk": match.group(3),
            "declarer": record.tags["Declarer"]}
