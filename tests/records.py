"""A small reader of the auctions in PBN files, for checking the engine on real records.

It reads only what the tests need (dealer, board, auction, contract, declarer); the full
PBN and LIN notation belongs to `shared` (the pure core, docs/architecture.md).
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


_LIN_DEALER = {"1": "S", "2": "W", "3": "N", "4": "E"}
_LIN_VUL = {"o": "None", "n": "NS", "e": "EW", "b": "Both"}


@dataclass
class LinBoard:
    board: int
    dealer: str
    vulnerability: str
    calls: list[tuple[str, bool, str | None]] = field(default_factory=list)  # call, alert, text
    cards: int = 0  # `pc`: the cards played
    claimed: int | None = None  # `mc`: declarer's tricks, agreed

    def log(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = [{"type": "board_started", "board": self.board,
                                         "dealer": self.dealer,
                                         "vulnerability": self.vulnerability}]
        seat = "NESW".index(self.dealer)
        for call, alert, text in self.calls:
            event: dict[str, Any] = {"type": "call", "seat": "NESW"[seat % 4], "call": call}
            if alert:
                event["alert"] = True
            if text is not None:
                event["explanation"] = text
            events.append(event)
            seat += 1
        return events


def read_lin(path: Path) -> tuple[list[LinBoard], list[str]]:
    """The boards of a LIN file (`md` starts one; `mb` calls, `!` alerts, `an` explanations)
    and its `rs` results list."""
    tokens = path.read_text(encoding="utf-8", errors="replace").replace("\n", "").split("|")
    boards: list[LinBoard] = []
    results: list[str] = []
    number = 0
    for tag, value in zip(tokens[::2], tokens[1::2], strict=False):
        if tag == "rs":
            results = value.split(",")
        elif tag == "qx":
            number = int(value[1:])
        elif tag == "ah" and value.startswith("Board "):
            number = int(value.split()[1])
            if boards and boards[-1].board == 0:  # BBO's own files put `ah` after `md`
                boards[-1].board = number
        elif tag == "md":
            boards.append(LinBoard(number, _LIN_DEALER[value[0]], "None"))
            number = 0
        elif tag == "sv" and boards:
            boards[-1].vulnerability = _LIN_VUL[value.lower()]
        elif tag == "mb" and boards:
            text = value.upper()
            alert = text.endswith("!")
            text = text.rstrip("!")
            call = {"P": "P", "D": "X", "R": "XX"}.get(text, text)
            boards[-1].calls.append((call, alert, None))
        elif tag.lower() == "pc" and boards:
            boards[-1].cards += 1
        elif tag == "mc" and boards:
            boards[-1].claimed = int(value)
        elif tag == "an" and boards and boards[-1].calls:
            call, alert, _ = boards[-1].calls[-1]
            boards[-1].calls[-1] = (call, alert, value)
    return boards, results


def lin_contract(result: str) -> dict[str, Any] | None:
    """A LIN `rs` entry (`4HE=`, `4SWx-4`, `3NN+3`) as the engine's contract."""
    match = re.fullmatch(r"([1-7])([CDHSN])([NESW])(x{0,2})[-+=].*", result)
    if match is None:
        return None
    strain = "NT" if match.group(2) == "N" else match.group(2)
    return {"level": int(match.group(1)), "strain": strain, "risk": match.group(4).upper(),
            "declarer": match.group(3)}
