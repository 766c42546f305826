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
from shared.engine import fold
from shared.events import BoardStarted, CallMade
from shared.notation.errors import RecordError
from shared.seats import NotationError, Seat, Vulnerability

_DEALERS = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
_VUL = {"o": "None", "0": "None", "n": "NS", "e": "EW", "b": "Both"}


_HAND_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
_HIGH_TO_LOW = "AKQJT98765432"
_HOLDING = "(A?K?Q?J?T?9?8?7?6?5?4?3?2?)"  # high to low, as BBO writes it
_CANONICAL = re.compile(f"S{_HOLDING}H{_HOLDING}D{_HOLDING}C{_HOLDING}")
_BACKWARDS = re.compile(f"{_HOLDING}C{_HOLDING}D{_HOLDING}H{_HOLDING}S")  # low to high, reversed

Hand = tuple[str, ...]
"""Spades, hearts, diamonds and clubs, each high to low."""


def _hand(text: str) -> Hand:
    """The holdings of a LIN hand (`SAK2HQJ3D…C…`)."""
    upper = text.upper()
    match = _CANONICAL.fullmatch(upper)
    if match is not None:  # the usual form: every suit named, in order, high to low
        return match.groups()
    match = _BACKWARDS.fullmatch(upper[::-1])
    if match is not None:  # each suit low to high (BBO's robots), read from the end
        clubs, diamonds, hearts, spades = match.groups()
        return spades, hearts, diamonds, clubs
    suits = {"S": "", "H": "", "D": "", "C": ""}
    current = None
    for char in upper:
        if char in suits:
            current = char
        elif char in RANKS and current is not None:
            suits[current] += char
        else:
            raise NotationError(f"hand {text!r}: {char!r} is neither a suit nor a rank")
    return tuple("".join(sorted(suits[s], key=_HIGH_TO_LOW.index)) for s in "SHDC")


def _deal(value: str) -> tuple[Seat, str, list[Hand | None]]:
    """The dealer, the deal (canonical PBN, from North, as the PBN reader gives it) and the
    hands of South, West, North and East (None where the record does not give one)."""
    if not value or value[0] not in _DEALERS:
        raise NotationError(f"md: {value[:20]!r} does not start with a dealer digit 1–4")
    texts = value[1:].split(",")[:4]
    hands = [_hand(text) if text else None for text in texts]
    hands += [None] * (4 - len(hands))
    known = [h for h in hands if h is not None]
    if len(known) == 3 and sum(len(s) for h in known for s in h) == 39:  # BBO leaves the
        held = ("".join(h[i] for h in known) for i in range(4))  # last hand out
        hands[hands.index(None)] = tuple(_HIGH_TO_LOW.translate(str.maketrans("", "", suit))
                                         for suit in held)
    south, west, north, east = ("-" if h is None else ".".join(h) for h in hands)
    return _DEALERS[value[0]], f"N:{north} {east} {south} {west}", hands


def lin_events(text: str) -> list[dict[str, Any]]:
    """The events of every board of a LIN file, in file order."""
    events: list[dict[str, Any]] = []
    board_events: list[dict[str, Any]] = []
    calls: list[tuple[Seat, Call]] = []  # the board's calls, for the opening leader
    deals: dict[str, tuple[Seat, str, list[Hand | None]]] = {}  # vugraph: a deal per room
    hands: list[Hand | None] = []
    number, board_no = 0, 0
    seat = Seat.N
    pairs = _Pairs(text)
    for index, tag, value in pairs:
        try:
            if tag == "pc":  # the opening lead
                card = Card.parse(value)
                leader = _holder(hands, card)
                if leader is None:
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
                    calls.append((seat, call))
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
                if value not in deals:
                    deals[value] = _deal(value)
                seat, deal, hands = deals[value]
                number += 1
                board_events = [{"type": "board_started", "board": board_no or number,
                                 "dealer": seat.name, "deal": deal}]
                calls = []
            elif tag == "sv" and board_events:
                board_events[0]["vulnerability"] = _VUL[value.strip().lower()[:1] or "o"]
        except (NotationError, KeyError, ValueError) as exc:
            raise RecordError(pairs.line(index), f"{tag}|{value[:30]}|: {exc}") from None
    events += board_events
    return events


_USED = ("pc", "mb", "an", "qx", "ah", "md", "sv")  # the tags the reader uses


class _Pairs:
    """(index, tag, value) of each `tag|value|` pair whose tag the reader uses, in order; the
    tag lower case, without blanks; newlines (BBO breaks lines anywhere) are not part of a
    value. Of the cards played, only the first after each deal (the opening lead). Most of a
    vugraph record is the play and the commentary: the text is cut at every `|` in one go,
    and Python visits only the pairs it reads."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.parts = text.split("|")  # tag, value, tag, value, …, what follows the last `|`

    def __iter__(self) -> Iterator[tuple[int, str, str]]:
        parts = self.parts
        tags = parts[0:len(parts) - 2:2]  # a value's closing `|` is required
        used = {}
        for tag in set(tags):
            name = tag.replace("\r", "").replace("\n", "").strip(" \t").lower()
            if name in _USED:
                used[tag] = name
        cards = [tag for tag, name in used.items() if name == "pc"]  # as the file spells it
        indices = [i for i, tag in enumerate(tags) if tag in used and tag not in cards]
        leads = {lead for i in indices if used[tags[i]] == "md"
                 if (lead := _first(tags, cards, i)) is not None}
        for index in sorted([*indices, *leads]):
            value = parts[2 * index + 1]
            if "\n" in value or "\r" in value:
                value = value.replace("\r", "").replace("\n", "")
            yield index, used[tags[index]], value

    def line(self, index: int) -> int:
        """The line (1-based) where pair `index` begins."""
        skipped, tag = self.parts[:2 * index], self.parts[2 * index]
        position = sum(map(len, skipped)) + len(skipped) + len(tag) - len(tag.lstrip("\r\n"))
        return self.text.count("\n", 0, position) + 1


def _first(tags: list[str], spellings: list[str], start: int) -> int | None:
    """The index of the first of `tags` from `start` that is one of `spellings`."""
    found = None
    for spelling in spellings:
        try:
            index = tags.index(spelling, start)
        except ValueError:
            continue
        found = index if found is None else min(found, index)
    return found


def _holder(hands: list[Hand | None], card: Card) -> Seat | None:
    """Who held `card` (None if the record does not say): the player who led it, be it in
    turn or not (a lead out of turn, Law 54, is the engine's to judge)."""
    suit = "SHDC".index(card.suit)
    for seat, hand in zip(_HAND_ORDER, hands, strict=True):
        if hand is not None and card.rank in hand[suit]:
            return seat
    return None


def _leader(start: dict[str, Any], calls: list[tuple[Seat, Call]]) -> Seat | None:
    """Declarer's LHO, from the fold of the auction (the Laws engine decides who declares,
    whatever the auction): the opening leader when the record does not say who held the card
    led."""
    board = fold([BoardStarted(1, Seat.parse(start["dealer"]), Vulnerability.NONE),
                  *(CallMade(seat, call) for seat, call in calls)]
                 ).board
    if board is None or board.declarer is None:
        return None
    return board.declarer.lho
