"""Each Table Manager line read and written, both directions, as the clients send them.

Reading is lenient where the clients differ: seats in any case (`WEST`, `West`, `west`), runs
of spaces, a trailing dot, `Teams` with or without its colons, a card as rank then suit in
either case (`ck`, `KC`, `10h`), `Alert.` with or without a text after it, BEN's `Infos.`.
Writing follows the protocol's own spelling, the one every client reads: seats as `North`,
`Teams : N/S : "…" E/W : "…"`, `Board number 8. Dealer West. Neither vulnerable.`,
`North's cards : S A K. H -. D Q 7. C 9 8 7 6 5 4 3 2.`, a card as rank then suit (`KC`).
A line that is none of these raises `ProtocolError` with what was expected.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from shared.calls import Call, CallKind
from shared.cards import RANKS, SUITS, Card
from shared.seats import NotationError, Seat, Vulnerability
from shared.table_manager.messages import (
    PROTOCOL_VERSION,
    BoardInfo,
    CallMade,
    CardPlayed,
    ClientMessage,
    Connect,
    DummyCards,
    EndOfSession,
    HandCards,
    HostError,
    HostMessage,
    Ready,
    ReadyFor,
    ReadyForCall,
    ReadyForCard,
    Seated,
    StartOfBoard,
    Teams,
    Timing,
    ToLead,
)


class ProtocolError(ValueError):
    """A line that is not a message of the protocol (the text says what was expected)."""


SEAT_WORDS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
_SEAT_OF = {word.upper(): seat for seat, word in SEAT_WORDS.items()}
ANY_SEAT = "ANYPL"
VULNERABLE_WORDS = {Vulnerability.NONE: "Neither", Vulnerability.NS: "N/S",
                    Vulnerability.EW: "E/W", Vulnerability.BOTH: "Both"}  # fmt: skip
_VULNERABILITY_OF = {word.upper(): v for v, word in VULNERABLE_WORDS.items()} | {
    "NONE": Vulnerability.NONE, "ALL": Vulnerability.BOTH, "NS": Vulnerability.NS,
    "EW": Vulnerability.EW}  # fmt: skip
_CALL_WORDS = {CallKind.PASS: "passes", CallKind.DOUBLE: "doubles",
               CallKind.REDOUBLE: "redoubles"}  # fmt: skip
_CALL_OF = {word.upper(): Call(kind) for kind, word in _CALL_WORDS.items()}

_I = re.IGNORECASE
_SEAT = r"(?P<seat>north|east|south|west)"
_CONNECT = re.compile(r'connecting\s+"(?P<name>[^"]*)"\s+as\s+(?P<seat>\w+)\s+using\s+'
                      r"protocol\s+version\s+(?P<version>\d+)", _I)
_READY = re.compile(_SEAT + r"\s+(?P<what>ready\s+(?:for\s+teams|to\s+start|for\s+deal|"
                    r"for\s+cards|for\s+dummy))", _I)
_READY_CALL = re.compile(_SEAT + r"\s+ready\s+for\s+(?P<other>\w+)'s\s+bid", _I)
_READY_CARD = re.compile(_SEAT + r"\s+ready\s+for\s+(?P<other>\w+)'s\s+card\s+to\s+trick\s+"
                         r"(?P<trick>\d+)", _I)
_CALL = re.compile(_SEAT + r"\s+(?:(?P<word>passes|doubles|redoubles)|bids\s+"
                   r"(?P<bid>[1-7]\s*(?:NT|[CDHSN])))\.?(?:\s+(?P<rest>.*))?", _I)
_NOTE = re.compile(r"(?P<kind>Alert|Infos)\.\s*(?P<text>.*)", _I)
_CARD = re.compile(_SEAT + r"\s+plays\s+(?P<card>\S+?)\.?", _I)
_SEATED = re.compile(_SEAT + r'\s+\("(?P<name>[^"]*)"\)\s+seated', _I)
_TEAMS = re.compile(r'teams\s*:?\s*N/S\s*:?\s*"(?P<ns>[^"]*)"\s*E/W\s*:?\s*"(?P<ew>[^"]*)".*',
                    _I)
_START = re.compile(r"start\s+of\s+board", _I)
_BOARD = re.compile(r"board\s+number\s+(?P<number>\d+)\s*\.\s*dealer\s+(?P<dealer>\w+)\s*\."
                    r"\s*(?P<vul>neither|none|N/S|NS|E/W|EW|both|all)\s+vulnerable", _I)
_HAND = re.compile(r"(?P<owner>\w+)'s\s+cards\s*:\s*(?P<hand>.*)", _I)
_TO_LEAD = re.compile(_SEAT + r"\s+to\s+lead", _I)
_TIMING = re.compile(r"timing\b\s*-?\s*(?P<text>.*)", _I)
_END = re.compile(r"end\s+of\s+session", _I)
_ERROR = re.compile(r"error\b\s*:?\s*(?P<reason>.*)", _I)
_SUIT_PART = re.compile(r"(?P<suit>[SHDC])\s+(?P<ranks>-|(?:(?:10|[2-9TJQKA])\s*)+)", _I)


def _seat(word: str) -> Seat:
    seat = _SEAT_OF.get(word.upper())
    if seat is None:
        raise ProtocolError(f"not a seat: {word!r} (expected North, East, South or West)")
    return seat


def _clean(line: str) -> str:
    """The line without its CRLF, its outer spaces and one trailing dot."""
    text = line.strip()
    return text[:-1].rstrip() if text.endswith(".") else text


def _card(text: str) -> Card:
    """A card as the protocol writes it, rank then suit (`KC`, `kc`, `10h`). Ranks and suits
    share no letter, so suit then rank (`ck`, as OpenSpiel's docstring has it) reads too."""
    norm = text.upper().replace("10", "T")
    if len(norm) == 2 and norm[0] in SUITS and norm[1] in RANKS:
        norm = norm[1] + norm[0]
    if len(norm) != 2 or norm[0] not in RANKS or norm[1] not in SUITS:
        raise ProtocolError(f"not a card: {text!r} (expected rank then suit, e.g. KC, 5h, TD)")
    return Card.parse(norm[1] + norm[0])


def write_card(card: Card) -> str:
    return card.rank + card.suit


def parse_hand(text: str) -> tuple[Card, ...]:
    """`S A T 9 5. H K 6 5. D Q J 8 7 6. C 7.` → its cards; a void is `-`. Every suit once,
    in any order."""
    parts = [p.strip() for p in text.strip().rstrip(".").split(".")]
    cards: list[Card] = []
    suits: set[str] = set()
    for part in parts:
        match = _SUIT_PART.fullmatch(part)
        if match is None:
            raise ProtocolError(f"not a suit of a hand: {part!r} (expected e.g. 'S A K 5.' "
                                "or 'H -.')")
        suit = match["suit"].upper()
        if suit in suits:
            raise ProtocolError(f"suit {suit} twice in a hand: {text!r}")
        suits.add(suit)
        ranks = match["ranks"].upper().replace("10", "T").replace(" ", "")
        cards += [Card.parse(suit + rank) for rank in ranks if rank != "-"]
    if suits != set(SUITS) or len(set(cards)) != len(cards):
        raise ProtocolError(f"not a hand: {text!r} (each suit once, no card twice)")
    return tuple(cards)


def format_hand(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards → `S A T 9 5. H K 6 5. D Q J 8 7 6. C 7.`, spades first, each suit high to low."""
    parts = []
    for suit in SUITS:
        ranks = sorted((c for c in cards if c.suit == suit), key=lambda c: -c.order)
        parts.append(f"{suit} {' '.join(c.rank for c in ranks) or '-'}.")
    return " ".join(parts)


def _call_made(match: re.Match[str]) -> CallMade:
    seat = _seat(match["seat"])
    call = _CALL_OF[match["word"].upper()] if match["word"] else Call.parse(match["bid"])
    alert = info = None
    rest = (match["rest"] or "").strip()
    if rest:
        note = _NOTE.fullmatch(rest)
        if note is None:
            raise ProtocolError(f"after a call, only 'Alert. <text>' or 'Infos. <text>': "
                                f"{rest!r}")
        text = note["text"].strip()
        if note["kind"].upper() == "ALERT":
            alert = text
        else:
            info = text
    return CallMade(seat, call, alert, info)


def _ready(match: re.Match[str]) -> Ready:
    words = " ".join(match["what"].lower().split())
    return Ready(_seat(match["seat"]), ReadyFor(words))


def _ready_card(match: re.Match[str]) -> ReadyForCard:
    other = match["other"]
    trick = int(match["trick"])
    if not 1 <= trick <= 13:
        raise ProtocolError(f"no trick {trick} (tricks are 1 to 13)")
    return ReadyForCard(_seat(match["seat"]),
                        None if other.upper() == "DUMMY" else _seat(other), trick)


def _connect(match: re.Match[str]) -> Connect:
    word = match["seat"]
    return Connect(match["name"], None if word.upper() == ANY_SEAT else _seat(word),
                   int(match["version"]))


_CLIENT: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], ClientMessage]], ...] = (
    (_CONNECT, _connect),
    (_READY_CARD, _ready_card),
    (_READY_CALL, lambda m: ReadyForCall(_seat(m["seat"]), _seat(m["other"]))),
    (_READY, _ready),
    (_CALL, _call_made),
    (_CARD, lambda m: CardPlayed(_seat(m["seat"]), _card(m["card"]))),
)


M = TypeVar("M", ClientMessage, HostMessage)


def parse_client_line(line: str) -> ClientMessage:
    """A line a robot sends → its message; `ProtocolError` (saying what was expected) else."""
    return _parse(line, _CLIENT, "not a line of the protocol: {!r} (expected e.g. 'Connecting "
                  '"name" as North using protocol version 18\', \'North ready for teams\', '
                  "'North bids 1NT', 'North plays KC')")


def _parse(line: str, table: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], M]], ...],
           refusal: str) -> M:
    """The message of the first pattern of `table` the line matches (a call's alert text may
    end with its own dot: the whole line is tried first, then without its trailing dots)."""
    text = line.strip()
    for pattern, build in table:
        match = pattern.fullmatch(text) or pattern.fullmatch(_clean(text))
        if match is not None:
            try:
                return build(match)
            except NotationError as error:
                raise ProtocolError(str(error)) from None
    raise ProtocolError(refusal.format(text))


def _hand_cards(match: re.Match[str]) -> HandCards | DummyCards:
    cards = parse_hand(match["hand"])
    if match["owner"].upper() == "DUMMY":
        return DummyCards(cards)
    return HandCards(_seat(match["owner"]), cards)


def _board(match: re.Match[str]) -> BoardInfo:
    return BoardInfo(int(match["number"]), _seat(match["dealer"]),
                     _VULNERABILITY_OF[match["vul"].upper()])


_HOST: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], HostMessage]], ...] = (
    (_SEATED, lambda m: Seated(_seat(m["seat"]), m["name"])),
    (_TEAMS, lambda m: Teams(m["ns"], m["ew"])),
    (_START, lambda m: StartOfBoard()),
    (_BOARD, _board),
    (_HAND, _hand_cards),
    (_TO_LEAD, lambda m: ToLead(_seat(m["seat"]))),
    (_TIMING, lambda m: Timing(m["text"].strip())),
    (_END, lambda m: EndOfSession()),
    (_ERROR, lambda m: HostError(m["reason"].strip())),
    (_CALL, _call_made),
    (_CARD, lambda m: CardPlayed(_seat(m["seat"]), _card(m["card"]))),
)


def parse_host_line(line: str) -> HostMessage:
    """A line a host sends → its message; `ProtocolError` else."""
    return _parse(line, _HOST, "not a line a host sends: {!r}")


def _write_call(message: CallMade) -> str:
    call = message.call
    words = (f"bids {call.text}" if call.kind is CallKind.BID else _CALL_WORDS[call.kind])
    line = f"{SEAT_WORDS[message.seat]} {words}"
    if message.alert is not None:
        line += f" Alert. {message.alert}".rstrip()
    if message.info is not None:
        line += f" Infos. {message.info}".rstrip()
    return line


def write(message: ClientMessage | HostMessage) -> str:
    """A message → its line, without the CRLF that ends it on the wire."""
    match message:
        case Connect(name, seat, version):
            who = ANY_SEAT if seat is None else SEAT_WORDS[seat]
            return f'Connecting "{name}" as {who} using protocol version {version}'
        case Ready(seat, what):
            return f"{SEAT_WORDS[seat]} {what}"
        case ReadyForCall(seat, other):
            return f"{SEAT_WORDS[seat]} ready for {SEAT_WORDS[other]}'s bid"
        case ReadyForCard(seat, other, trick):
            whose = "dummy" if other is None else SEAT_WORDS[other]
            return f"{SEAT_WORDS[seat]} ready for {whose}'s card to trick {trick}"
        case CallMade():
            return _write_call(message)
        case CardPlayed(seat, card):
            return f"{SEAT_WORDS[seat]} plays {write_card(card)}"
        case Seated(seat, name):
            return f'{SEAT_WORDS[seat]} ("{name}") seated'
        case Teams(ns, ew):
            return f'Teams : N/S : "{ns}" E/W : "{ew}"'
        case StartOfBoard():
            return "Start of board"
        case BoardInfo(number, dealer, vulnerability):
            return (f"Board number {number}. Dealer {SEAT_WORDS[dealer]}. "
                    f"{VULNERABLE_WORDS[vulnerability]} vulnerable.")
        case HandCards(seat, cards):
            return f"{SEAT_WORDS[seat]}'s cards : {format_hand(cards)}"
        case DummyCards(cards):
            return f"Dummy's cards : {format_hand(cards)}"
        case ToLead(seat):
            return f"{SEAT_WORDS[seat]} to lead"
        case Timing(text):
            return f"Timing - {text}"
        case EndOfSession():
            return "End of session"
        case HostError(reason):
            return f"Error {reason}"
    raise TypeError(f"not a Table Manager message: {message!r}")


__all__ = ["PROTOCOL_VERSION", "SEAT_WORDS", "ProtocolError", "format_hand", "parse_client_line",
           "parse_hand", "parse_host_line", "write", "write_card"]  # fmt: skip
