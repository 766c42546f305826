"""BBO's LIN records as events.

LIN is `tag|value|` pairs: `qx|o12|` (room and board), `ah|Board 12|`, `md|<dealer><S>,<W>,<N>,<E>|`
(dealer 1=S 2=W 3=N 4=E; the last hand may be left out), `sv|o/n/e/b|` (vulnerability),
`mb|1H|` (a call; `p`, `d`, `r`; a trailing `!` alerts it), `an|text|` (explains the last
call), `pc|SK|` (a card played: the first is the opening lead).
"""

from __future__ import annotations

import bisect
from typing import Any

from shared.calls import Call
from shared.cards import RANKS, Card
from shared.codec import from_map
from shared.deal import format_deal
from shared.engine import fold
from shared.notation.errors import RecordError
from shared.seats import NotationError, Seat

_DEALERS = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
_VUL = {"o": "None", "0": "None", "n": "NS", "e": "EW", "b": "Both"}
_HAND_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)


def _hand(text: str) -> dict[str, str]:
    suits = {"S": "", "H": "", "D": "", "C": ""}
    current = None
    for char in text.upper():
        if char in suits:
            current = char
        elif char in RANKS and current is not None:
            suits[current] += char
        else:
            raise NotationError(f"hand {text!r}: {char!r} is neither a suit nor a rank")
    return suits


def _deal(value: str) -> tuple[Seat, str]:
    if not value or value[0] not in _DEALERS:
        raise NotationError(f"md: {value[:20]!r} does not start with a dealer digit 1–4")
    hands_text = value[1:].split(",")
    hands: dict[Seat, str] = {}
    held: set[str] = set()
    for seat, text in zip(_HAND_ORDER, hands_text, strict=False):
        if text:
            suits = _hand(text)
            hands[seat] = ".".join(suits[s] for s in "SHDC")
            held |= {s + r for s in "SHDC" for r in suits[s]}
    missing = [s for s in _HAND_ORDER if s not in hands]
    if len(missing) == 1 and len(held) == 39:  # BBO leaves the last hand out
        hands[missing[0]] = ".".join("".join(r for r in reversed(RANKS) if s + r not in held)
                                     for s in "SHDC")
    order = {"A": 0, "K": 1, "Q": 2, "J": 3, "T": 4}
    tidy = {seat: ".".join("".join(sorted(suit, key=lambda r: order.get(r, 14 - int(r)
                                                                      if r.isdigit() else 9)))
                           for suit in hand.split("."))
            for seat, hand in hands.items()}
    return _DEALERS[value[0]], format_deal(tidy)  # canonical: from North, as the PBN reader


def lin_events(text: str) -> list[dict[str, Any]]:
    """The events of every board of a LIN file, in file order."""
    flat = text.replace("\r", "").replace("\n", "")
    parts = flat.split("|")
    events: list[dict[str, Any]] = []
    board_events: list[dict[str, Any]] = []
    number, lead_done, board_no = 0, False, 0
    line_of = _line_finder(text)
    position = 0
    for index in range(0, len(parts) - 1, 2):
        tag, value = parts[index].strip().lower(), parts[index + 1]
        where = line_of(position)
        position += len(parts[index]) + len(value) + 2
        try:
            if tag == "qx":
                board_no = int(value[1:]) if value[1:].isdigit() else board_no
            elif tag == "ah" and value.startswith("Board "):
                board_no = int(value.split()[1])
                if board_events and board_events[0]["type"] == "board_started":
                    board_events[0]["board"] = board_no
            elif tag == "md":
                events += board_events
                dealer, deal = _deal(value)
                number += 1
                board_events = [{"type": "board_started", "board": board_no or number,
                                 "dealer": dealer.name, "deal": deal}]
                lead_done = False
            elif tag == "sv" and board_events:
                board_events[0]["vulnerability"] = _VUL[value.strip().lower()[:1] or "o"]
            elif tag == "mb" and board_events:
                alerted = value.endswith("!")
                raw = value.rstrip("!").strip().upper()
                call = Call.parse({"P": "P", "D": "X", "R": "XX"}.get(raw, raw))
                event: dict[str, Any] = {"type": "call", "seat": "", "call": str(call)}
                if alerted:
                    event["alert"] = True
                board_events.append(event)
            elif tag == "an" and board_events and board_events[-1]["type"] == "call":
                board_events[-1]["explanation"] = value
            elif tag == "pc" and board_events and not lead_done:
                lead_done = True
                card = Card.parse(value)
                leader = _leader(board_events)
                if leader is not None:
                    board_events.append({"type": "opening_lead", "seat": leader.name,
                                         "card": str(card)})
        except (NotationError, KeyError, ValueError) as exc:
            raise RecordError(where, f"{tag}|{value[:30]}|: {exc}") from None
    events += board_events
    return _seat_calls(events)


def _seat_calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """LIN calls do not name their seat: they go in rotation from the dealer."""
    seat = Seat.N
    for event in events:
        if event["type"] == "board_started":
            seat = Seat.parse(event["dealer"])
        elif event["type"] == "call":
            event["seat"] = seat.name
            seat = seat.lho
    return events


def _leader(board_events: list[dict[str, Any]]) -> Seat | None:
    """The opening leader: declarer's LHO, from the fold of the auction so far."""
    board = fold(from_map(e) for e in _seat_calls([dict(e) for e in board_events])).board
    if board is None or board.declarer is None:
        return None
    return board.declarer.lho


def _line_finder(text: str) -> Any:
    """Map a position in the text without newlines to its line number (1-based)."""
    flat_starts = []  # where each line starts, counted without the newlines before it
    seen = 0
    for line in text.replace("\r", "").split("\n"):
        flat_starts.append(seen)
        seen += len(line)

    def line_of(flat_position: int) -> int:
        return bisect.bisect_right(flat_starts, flat_position)

    return line_of
