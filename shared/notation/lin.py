"""BBO's LIN records as events.

LIN is `tag|value|` pairs: `qx|o12|` (room and board), `ah|Board 12|`, `md|<dealer><S>,<W>,<N>,<E>|`
(dealer 1=S 2=W 3=N 4=E; the last hand may be left out), `sv|o/n/e/b|` (vulnerability),
`mb|1H|` (a call; `p`, `d`, `r`; a trailing `!` alerts it), `an|text|` (explains the last
call), `pc|SK|` (a card played: the first is the opening lead).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
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


_SUITED = re.compile(r"S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*)")
_HIGH_TO_LOW = "AKQJT98765432"
_DESCENDING = re.compile("A?K?Q?J?T?9?8?7?6?5?4?3?2?")  # already high to low (BBO writes so)


def _hand(text: str) -> tuple[str, str, str, str]:
    """The spades, hearts, diamonds and clubs of a LIN hand (`SAK2HQJ3D…C…`), high to low."""
    upper = text.upper()
    match = _SUITED.fullmatch(upper)
    if match is not None:  # the usual form: every suit named, in order
        holdings = match.groups()
    else:
        suits = {"S": "", "H": "", "D": "", "C": ""}
        current = None
        for char in upper:
            if char in suits:
                current = char
            elif char in RANKS and current is not None:
                suits[current] += char
            else:
                raise NotationError(f"hand {text!r}: {char!r} is neither a suit nor a rank")
        holdings = (suits["S"], suits["H"], suits["D"], suits["C"])
    spades, hearts, diamonds, clubs = (h if _DESCENDING.fullmatch(h) else
                                       "".join(sorted(h, key=_HIGH_FIRST.__getitem__))
                                       for h in holdings)
    return spades, hearts, diamonds, clubs


def _deal(value: str) -> tuple[Seat, str]:
    if not value or value[0] not in _DEALERS:
        raise NotationError(f"md: {value[:20]!r} does not start with a dealer digit 1–4")
    hands: dict[Seat, str] = {}
    held = ["", "", "", ""]  # per suit, the cards of the hands given
    for seat, text in zip(_HAND_ORDER, value[1:].split(","), strict=False):
        if text:
            holdings = _hand(text)
            hands[seat] = ".".join(holdings)
            for i in range(4):
                held[i] += holdings[i]
    missing = [s for s in _HAND_ORDER if s not in hands]
    if len(missing) == 1 and sum(map(len, held)) == 39:  # BBO leaves the last hand out
        hands[missing[0]] = ".".join("".join(r for r in _HIGH_TO_LOW if r not in suit)
                                     for suit in held)
    return _DEALERS[value[0]], format_deal(hands)  # canonical: from North, as the PBN reader


def lin_events(text: str) -> list[dict[str, Any]]:
    """The events of every board of a LIN file, in file order."""
    events: list[dict[str, Any]] = []
    board_events: list[dict[str, Any]] = []
    calls: list[CallMade] = []  # the board's calls, for the opening leader
    number, board_no = 0, 0
    seat = Seat.N
    pairs = _Pairs(text)
    for position, tag, value in pairs:
        try:
            if tag == "pc":  # the opening lead
                pairs.play = False
                card = Card.parse(value)
                leader = _leader(board_events[0], calls)
                if leader is not None:
                    board_events.append({"type": "opening_lead", "seat": leader.name,
                                         "card": str(card)})
            elif tag == "mb":
                if board_events:
                    call = Call.parse(value.rstrip("!"))  # `p`, `d`, `r` are Call's words too
                    event: dict[str, Any] = {"type": "call", "seat": seat.letter,
                                             "call": call.text}
                    if value.endswith("!"):
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
                calls, pairs.play = [], True  # cards are read up to the opening lead
            elif tag == "sv" and board_events:
                board_events[0]["vulnerability"] = _VUL[value.strip().lower()[:1] or "o"]
        except (NotationError, KeyError, ValueError) as exc:
            raise RecordError(_line_of(text, position), f"{tag}|{value[:30]}|: {exc}") from None
    events += board_events
    return events


# The tags the reader uses, found by a regular expression: most of a vugraph record is the
# play and the commentary, which Python never visits. A match is a tag only if an odd number of
# `|` precede it (in the text with a `|` put in front): otherwise it is a value that happens to
# read like a tag (`nt|mb|`), and the search goes on after it.
_TAGS = re.compile(r"\|[ \t]*(pc|mb|an|qx|ah|md|sv)[ \t]*\|([^|]*)\|", re.I)
_TAGS_BUT_PLAY = re.compile(r"\|[ \t]*(mb|an|qx|ah|md|sv)[ \t]*\|([^|]*)\|", re.I)


class _Pairs:
    """(position, tag, value) of each pair the reader uses, in order; cards played (`pc`) only
    while `play` is true (from a deal to its opening lead). Positions count in the text without
    its newlines."""

    def __init__(self, text: str) -> None:
        self.flat = "|" + text.replace("\r", "").replace("\n", "")
        self.play = False

    def __iter__(self) -> Iterator[tuple[int, str, str]]:
        flat = self.flat
        position, pipes = 0, 0  # pipes: how many `|` come before `position`
        while True:
            match = (_TAGS if self.play else _TAGS_BUT_PLAY).search(flat, position)
            if match is None:
                return
            pipes += flat.count("|", position, match.start() + 1)
            if pipes % 2 == 0:  # a value that reads like a tag: look again from the next `|`
                position = match.start() + 1
                continue
            yield match.start(), match.group(1).lower(), match.group(2)
            pipes += 1  # the `|` between tag and value; the value's closing `|` is counted
            position = match.end() - 1  # by the next search, which starts there


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
