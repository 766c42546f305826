"""BBO's LIN records as events.

LIN is `tag|value|` pairs: `qx|o12|` (room and board), `ah|Board 12|`, `md|<dealer><S>,<W>,<N>,<E>|`
(dealer 1=S 2=W 3=N 4=E; the last hand may be left out), `sv|o/n/e/b|` (vulnerability),
`mb|1H|` (a call; `p`, `d`, `r`; a trailing `!` alerts it), `an|text|` (explains the last
call), `pc|SK|` (a card played: the first is the opening lead).
"""

from __future__ import annotations

from typing import Any

from shared.calls import Call
from shared.cards import RANKS, Card
from shared.deal import format_deal
from shared.engine import fold
from shared.events import BoardStarted, CallMade
from shared.notation.errors import RecordError
from shared.seats import NotationError, Seat, Vulnerability

_DEALERS = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
_VUL = {"o": "None", "0": "None", "n": "NS", "e": "EW", "b": "Both"}
_HAND_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)


_HIGH_FIRST = {rank: -i for i, rank in enumerate(RANKS)}  # A first, 2 last


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
    tidy = {seat: ".".join("".join(sorted(suit, key=_HIGH_FIRST.__getitem__))
                           for suit in hand.split("."))
            for seat, hand in hands.items()}
    return _DEALERS[value[0]], format_deal(tidy)  # canonical: from North, as the PBN reader


def lin_events(text: str) -> list[dict[str, Any]]:
    """The events of every board of a LIN file, in file order."""
    parts = text.replace("\r", "").replace("\n", "").split("|")
    events: list[dict[str, Any]] = []
    board_events: list[dict[str, Any]] = []
    calls: list[CallMade] = []  # the board's calls, for the opening leader
    number, lead_done, board_no = 0, False, 0
    seat = Seat.N
    for index, (tag, value) in enumerate(zip(parts[0::2], parts[1::2], strict=False)):
        if tag not in _READ:
            if tag in _PASSED_OVER:
                continue
            tag = tag.strip().lower()
            if tag not in _READ:
                continue
        if tag == "pc" and (lead_done or not board_events):
            continue  # the play after the opening lead
        try:
            if tag == "pc":  # the opening lead
                lead_done = True
                card = Card.parse(value)
                leader = _leader(board_events[0], calls)
                if leader is not None:
                    board_events.append({"type": "opening_lead", "seat": leader.name,
                                         "card": str(card)})
            elif tag == "mb":
                if board_events:
                    alerted = value.endswith("!")
                    raw = value.rstrip("!").strip().upper()
                    call = Call.parse(_LIN_CALLS.get(raw, raw))
                    event: dict[str, Any] = {"type": "call", "seat": seat.name,
                                             "call": str(call)}
                    if alerted:
                        event["alert"] = True
                    board_events.append(event)
                    calls.append(CallMade(seat, call))
                    seat = seat.lho
            elif tag == "an":
                if board_events and board_events[-1]["type"] == "call":
                    board_events[-1]["explanation"] = value
            elif tag == "qx":
                board_no = int(value[1:]) if value[1:].isdigit() else board_no
            elif tag == "ah":
                if value.startswith("Board "):
                    board_no = int(value.split()[1])
                    if board_events and board_events[0]["type"] == "board_started":
                        board_events[0]["board"] = board_no
            elif tag == "md":
                events += board_events
                seat, deal = _deal(value)
                number += 1
                board_events = [{"type": "board_started", "board": board_no or number,
                                 "dealer": seat.name, "deal": deal}]
                calls, lead_done = [], False
            elif tag == "sv" and board_events:
                board_events[0]["vulnerability"] = _VUL[value.strip().lower()[:1] or "o"]
        except (NotationError, KeyError, ValueError) as exc:
            start = sum(len(part) + 1 for part in parts[:2 * index])
            line = _line_of(text, start)
            raise RecordError(line, f"{tag}|{value[:30]}|: {exc}") from None
    events += board_events
    return events


_READ = {"pc", "mb", "an", "qx", "ah", "md", "sv"}  # the tags the reader uses
_PASSED_OVER = {"nt", "pg", "pn", "st", "rh", "mc", "sk", "vg", "pw", "px", "up"}  # commonest
_LIN_CALLS = {"P": "P", "D": "X", "R": "XX"}


def _leader(start: dict[str, Any], calls: list[CallMade]) -> Seat | None:
    """The opening leader: declarer's LHO, from the fold of the auction (the Laws engine
    decides who declares, whatever the auction)."""
    board = fold([BoardStarted(1, Seat.parse(start["dealer"]), Vulnerability.NONE), *calls]
                 ).board
    if board is None or board.declarer is None:
        return None
    return board.declarer.lho


def _line_of(text: str, flat_position: int) -> int:
    """The line (1-based) of a position counted in the text without its newlines."""
    seen = 0
    for number, line in enumerate(text.replace("\r", "").split("\n"), start=1):
        seen += len(line)
        if flat_position < seen:
            return number
    return number
