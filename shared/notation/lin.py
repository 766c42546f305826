"""BBO's LIN records as events.

LIN is `tag|value|` pairs: `qx|o12|` (room and board), `ah|Board 12|`, `md|<dealer><S>,<W>,<N>,<E>|`
(dealer 1=S 2=W 3=N 4=E; the last hand may be left out), `sv|o/n/e/b|` (vulnerability),
`mb|1H|` (a call; `p`, `d`, `r`; a trailing `!` alerts it), `an|text|` (explains the last
call), `pc|SK|` (a card played, in the order played: the first is the opening lead), `mc|10|`
(declarer's tricks in all, agreed: a claim; `shared.notation.play_record` folds it), and of
the notes (`nt|…|`) only the claim our writer notes (`shared.notation.claim_note`: who
claimed, his statement).

Old vugraph archives (1997–2015) are read as BBO shows them:

- tags and calls in any case (`MB|1h|`, `Md|`, `mb|P|`), cards too (`pc|s4|`, `pc|C10|`);
- an alert mark anywhere in a call (`mb|!1C|`, `mb|1c!!|`, `mb|p!|`);
- `mb|-|` (or `mb||`) holds a seat's place: BBO shows a dash in that seat's column and the
  auction goes on with the next seat, and the Laws let a turn go by only as a pass, so it is
  a pass; after the auction has ended, dashes are padding and are left out;
- an `an|` that follows no call of the board (after the deal, after the lead) is left out, and
  so is an empty one;
- `qx` begins a board, and so does an `md` on a board that already has its deal or its calls (a
  second room's board without `qx`: with the same deal it keeps the board number, with another
  deal it is the next board);
- a board without `md` (a second room's board) has the deal of the other room's board with the
  same number; with none, its deal is unknown and its dealer is the board's (16-board cycle);
- `md|3|` (a dealer and no hands) and hands of fewer than 13 cards: those hands are unknown;
- `qx|o12,board 12|`, `ah|12|`: the number is the first digits; `sv` in words (`None`, `All`).
- a token where a tag belongs that the reader does not know (`PU|` after the auction, alone;
  `zz|text|`, with a value) is passed over, the pairs after it read as pairs, and named in
  `ReadResult.passed_over` (`_Pairs`); the tags BBO writes that the reader has no use for
  (`_KNOWN`) pass silently.

A board that cannot be read (a call or a card that is none, a card dealt twice, …) is skipped
and reported by `lin_boards`; `lin_events` reads all or nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from shared.calls import ALL_CALLS, PASS, Call
from shared.cards import RANKS, Card
from shared.notation.claim_note import PREFIX, ClaimNote, read_claim_note
from shared.notation.errors import PassedOver, ReadResult, SkippedBoard
from shared.notation.play_record import RecordedPlay
from shared.seats import NotationError, Seat, board_dealer

_DEALERS = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
_VUL = {"o": "None", "0": "None", "-": "None", "": "None", "none": "None", "love": "None",
        "n": "NS", "ns": "NS", "e": "EW", "ew": "EW", "b": "Both", "both": "Both",
        "all": "Both"}
_NUMBER = re.compile(r"\s*[a-z]?\s*(\d+)", re.I)  # qx: the room, o or c, then the number
_BOARD = re.compile(r"\s*(?:board|bd\.?)?\s*(\d+)", re.I)  # ah: `Board 12`, `12`
_LIN_WORDS = {"P": "p", "X": "d", "XX": "r"}
_PLAIN = {spelling: call for call in ALL_CALLS  # most calls: `p`, `1H`, `3N`, any case
          for text in (_LIN_WORDS.get(call.text, call.text), call.text.replace("NT", "N"))
          for spelling in (text, text.lower(), text.upper())}


_HAND_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
_HIGH_TO_LOW = "AKQJT98765432"
_HOLDING = "(A?K?Q?J?T?9?8?7?6?5?4?3?2?)"  # high to low, as BBO writes it
_CANONICAL = re.compile(f"S{_HOLDING}H{_HOLDING}D{_HOLDING}C{_HOLDING}")
_BACKWARDS = re.compile(f"{_HOLDING}C{_HOLDING}D{_HOLDING}H{_HOLDING}S")  # low to high, reversed

Hand = tuple[str, ...]
"""Spades, hearts, diamonds and clubs, each high to low."""

Deal = tuple[Seat, str, list[Hand | None]]
"""The dealer, the deal (canonical PBN, from North) and the hands of South, West, North and
East (None where the record does not give one)."""


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


def _deal(value: str) -> Deal:
    """The deal of an `md` value. A hand of fewer than 13 cards is unknown in the deal (but
    kept, to find who led a card); when three hands are whole, the fourth is the rest."""
    if not value or value[0] not in _DEALERS:
        raise NotationError(f"md: {value[:20]!r} does not start with a dealer digit 1–4")
    hands = [_hand(text) if text.strip() else None for text in value[1:].split(",")[:4]]
    hands += [None] * (4 - len(hands))
    sizes = [0 if h is None else sum(map(len, h)) for h in hands]
    if max(sizes) > 13:
        raise NotationError(f"a hand of {max(sizes)} cards")
    whole = [h for h, n in zip(hands, sizes, strict=True) if h is not None and n == 13]
    if len(whole) == 3:  # BBO leaves the last hand out: the 13 cards left, if no card of the
        held = ["".join([h[i] for h in whole]) for i in range(4)]  # three is dealt twice
        rest = sizes.index(next(n for n in sizes if n != 13))
        completed = tuple(_HIGH_TO_LOW.translate(str.maketrans("", "", suit)) for suit in held)
        hands[rest], sizes[rest] = completed, sum(map(len, completed))
        if sizes[rest] != 13:
            _dealt_once(whole)
    else:
        _dealt_once(whole)
    south, west, north, east = (".".join(h) if h is not None and n == 13 else "-"
                                for h, n in zip(hands, sizes, strict=True))
    return _DEALERS[value[0]], f"N:{north} {east} {south} {west}", hands


def _dealt_once(hands: list[Hand]) -> None:
    """No card is in two of `hands`."""
    for index, suit in enumerate("SHDC"):
        held = "".join([h[index] for h in hands])
        if len(set(held)) != len(held):
            twice = next(rank for rank in held if held.count(rank) > 1)
            raise NotationError(f"{suit}{twice} is dealt twice")


def _vulnerability(value: str) -> str:
    """The vulnerability of an `sv` value: `o`, `n`, `e`, `b`, `0`, or in words."""
    text = value.strip().lower()
    known = _VUL.get(text, _VUL.get(text[:1]))
    if known is None:
        raise NotationError(f"not a vulnerability: {value!r} (expected o, n, e or b)")
    return known


@dataclass(slots=True)
class _Board:
    """A board as the record gives it, while it is read."""

    number: int
    numbered: bool  # the record gave the number (`qx`, `ah`)
    named: bool = False  # by an `ah`, which names the board BBO shows
    md: str | None = None  # the `md` value, once given
    deal: Deal | None = None
    vulnerability: str | None = None
    calls: list[tuple[Call, bool, str | None]] = field(default_factory=list)  # alert, text
    cards: list[Card] = field(default_factory=list)  # played, in order
    tricks: int | None = None  # `mc`: declarer's tricks, agreed
    claim: ClaimNote | None = None  # a claim agreed, as an `nt` notes it (ours)
    first_card: int = -1  # the pair of the first card (its line, if the play is refused)
    error: tuple[int, str] | None = None  # the line and the first problem

    @property
    def begun(self) -> bool:
        """The auction (or the play) has begun: what the record says next of a deal, a
        number or a vulnerability is another board's."""
        return bool(self.calls) or bool(self.cards)

    def auction_over(self) -> bool:
        """Three passes after the fourth call (or four passes) end the auction (Law 17E)."""
        calls = self.calls
        return len(calls) >= 4 and all(c[0] is PASS for c in calls[-3:])


class _Reader:
    """The boards of a LIN text, pair by pair."""

    def __init__(self) -> None:
        self.boards: list[_Board] = []
        self.board: _Board | None = None  # the last begun
        self.deals: dict[str, Deal] = {}  # vugraph: the same `md` in both rooms
        self.next_number: int | None = None  # an `ah` given after its board had begun

    def begin(self, number: int | None) -> _Board:
        """A new board: numbered by the record, or else after the board before it."""
        previous = self.board
        named = number is None and self.next_number is not None
        if named:
            number, self.next_number = self.next_number, None
        board = _Board(number or (previous.number + 1 if previous else 1), number is not None,
                       named)
        self.boards.append(board)
        self.board = board
        return board

    def read(self, tag: str, value: str) -> None:
        """One pair of the record (a problem raises)."""
        if tag == "qx":
            match = _NUMBER.match(value)
            self.next_number = None
            self.begin(int(match.group(1)) if match and int(match.group(1)) > 0 else None)
            return
        board = self.board
        if tag == "md":
            if board is None or board.md is not None or board.begun:
                board = self.begin(None)
                self.renumber_second_room(board, value)
            board.md = value
            if value.strip():
                board.deal = self.deal(value)
        elif tag == "ah":
            self.number(value)
        elif board is None or board.error is not None:
            return
        elif tag == "sv":
            board.vulnerability = _vulnerability(value)
        elif tag == "mb":
            self.call(board, value)
        elif tag == "an":
            if board.calls and not board.cards and value.strip():
                call, alert, _ = board.calls[-1]
                board.calls[-1] = (call, alert, value)
        elif tag == "pc":
            board.cards.append(Card.parse(value))
        elif tag == "mc":
            board.tricks = _claimed(value)

    def deal(self, value: str) -> Deal:
        deal = self.deals.get(value)
        if deal is None:
            deal = self.deals[value] = _deal(value)
        return deal

    def renumber_second_room(self, board: _Board, value: str) -> None:
        """A board begun by `md` alone with the deal of the board before it is that board
        played in the other room: the same number."""
        if board.numbered or len(self.boards) < 2:
            return
        previous = self.boards[-2]
        if value.strip() and previous.md is not None and previous.md.strip() == value.strip():
            board.number = previous.number

    def number(self, value: str) -> None:
        """`ah|Board 12|`: the number of the board just dealt, or of the next one."""
        match = _BOARD.match(value)
        if match is None or int(match.group(1)) == 0:
            return
        number, board = int(match.group(1)), self.board
        if board is not None and board.number == number:
            return
        if board is None or board.named or board.begun:
            self.next_number = number
        else:
            board.number, board.numbered, board.named = number, True, True

    def call(self, board: _Board, value: str) -> None:
        alert = "!" in value
        text = value.replace("!", "").strip() if alert else value.strip()
        if text.strip("-"):
            call = Call.parse(text)  # `p`, `d`, `r` are Call's words too
        elif board.auction_over():
            return  # padding after the auction
        else:
            call = PASS  # a seat whose turn went by
        board.calls.append((call, alert, None))


def lin_boards(text: str) -> ReadResult:
    """The events of every board of a LIN file that can be read, in file order, and the boards
    skipped (the line and the problem)."""
    reader = _Reader()
    pairs = _Pairs(text)
    unknown: list[tuple[_Board | None, int, str]] = []  # the board, the line, the token
    for index, tag, value in pairs:
        if tag is UNKNOWN:
            unknown.append((reader.board, pairs.line(index), value))
            continue
        if tag == "mb":  # most pairs: a call without marks, on a board being read
            board, call = reader.board, _PLAIN.get(value)
            if call is not None and board is not None and board.error is None:
                board.calls.append((call, False, None))
                continue
        elif tag == "nt":  # of the notes, only a claim noted (`claim_note`) is read
            board = reader.board
            if board is not None and board.error is None and PREFIX in value:
                board.claim = read_claim_note(value) or board.claim
            continue
        try:
            reader.read(tag, value)
        except (NotationError, KeyError, ValueError) as exc:
            board = reader.board
            if board is not None and board.error is None:
                board.error = (pairs.line(index), f"{tag}|{value[:30]}|: {exc}")
        if tag == "pc" and reader.board is not None and reader.board.first_card < 0:
            reader.board.first_card = index
    dealt: dict[int, _Board] = {}  # by number, the first board with its deal: for the others
    for board in reader.boards:
        if board.deal is not None and board.error is None:
            dealt.setdefault(board.number, board)
    events: list[dict[str, Any]] = []
    skipped: list[SkippedBoard] = []
    for board in reader.boards:
        if board.error is not None:
            skipped.append(SkippedBoard(board.number, *board.error))
        elif board.md is not None or board.begun:
            try:
                events += _events(board, dealt.get(board.number))
            except NotationError as exc:  # a card the play cannot take (played twice, …)
                skipped.append(SkippedBoard(board.number, pairs.line(board.first_card),
                                            f"pc: {exc}"))
    passed_over = [PassedOver(board.number if board is not None else None, line,
                              f"{token[:30]}|: not a LIN tag this reader knows")
                   for board, line, token in unknown]
    return ReadResult(events, skipped, passed_over)


def lin_events(text: str) -> list[dict[str, Any]]:
    """The events of every board of a LIN file, in file order; a board that cannot be read
    raises `RecordError` (all or nothing)."""
    return lin_boards(text).all_or_nothing()


def _events(board: _Board, other_room: _Board | None) -> list[dict[str, Any]]:
    """The events of a board read: its start, its calls and the opening lead. A board without
    a deal has the deal of the other room's board with its number."""
    deal = board.deal if board.deal is not None else (
        other_room.deal if other_room is not None else None)
    start: dict[str, Any] = {"type": "board_started", "board": board.number}
    if deal is not None:
        start["dealer"], start["deal"] = deal[0].name, deal[1]
    vulnerability = board.vulnerability
    if vulnerability is None and board.deal is None and other_room is not None:
        vulnerability = other_room.vulnerability
    if vulnerability is not None:
        start["vulnerability"] = vulnerability
    events = [start]
    seat = deal[0] if deal is not None else board_dealer(board.number)
    for call, alert, explanation in board.calls:
        event: dict[str, Any] = {"type": "call", "seat": seat.letter, "call": call.text}
        if alert:
            event["alert"] = True
        if explanation is not None:
            event["explanation"] = explanation
        events.append(event)
        seat = seat.lho
    if board.cards or board.tricks is not None:
        hands = deal[2] if deal is not None else None
        play = RecordedPlay(events)
        events += play.in_order(board.cards,
                                lambda card: _holder(hands, card) if hands else None)
        events += play.close(board.tricks, board.claim)
    return events


def _claimed(value: str) -> int | None:
    """`mc|10|`: declarer's tricks in all, 0 to 13 (empty: none said)."""
    text = value.strip()
    if not text:
        return None
    if not text.isdigit() or int(text) > 13:
        raise NotationError(f"mc: {value[:20]!r} is not a number of tricks (0 to 13)")
    return int(text)


_USED = ("pc", "mc", "mb", "an", "qx", "ah", "md", "sv", "nt")  # the tags the reader uses
# the tags of BBO's records the reader knows and does not use (players, headings, page breaks,
# a vugraph's match and results lines, and the like): passed over without a word
_KNOWN = frozenset(("pn", "st", "rh", "pg", "vg", "rs", "pw", "mp", "bn", "at", "sk", "mn", "cr",
                    "cg", "cb", "hc", "lb", "up", "px"))
_TAGS = _KNOWN.union(_USED)
UNKNOWN = "?"  # what `_Pairs` yields as the tag of a token it does not know


def _name(token: str) -> str:
    """A token as a tag: lower case, without blanks or newlines (BBO breaks lines anywhere)."""
    return token.replace("\r", "").replace("\n", "").strip(" \t").lower()


class _Pairs:
    """(position, tag, value) of each `tag|value|` pair whose tag the reader uses, in order
    (position: the tag's place among the text's `|`-separated tokens); the tag lower case,
    without blanks; newlines (BBO breaks lines anywhere) are not part of a value. Most of a
    vugraph record is the play and the commentary: the text is cut at every `|` in one go,
    and Python visits only the pairs it reads.

    A token where a tag belongs that is no tag the reader knows (`PU|` after an auction, in a
    real vugraph record) is yielded as (position, `UNKNOWN`, the token) and passed over: alone
    (`PU|pc|SK|`: what follows is a tag and its value) or with its value (`zz|text|`), so that
    the pairs after it are read as pairs; a record read two tokens at a time would read every
    card after it as a tag."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.parts = text.split("|")  # tag, value, tag, value, …, what follows the last `|`

    def __iter__(self) -> Iterator[tuple[int, str, str]]:
        parts = self.parts
        end = len(parts) - 2  # a value's closing `|` is required
        names = {tag: _name(tag) for tag in set(parts[0:end:2])}
        position = 0
        while position < end:
            tag = parts[position]
            name = names.get(tag)
            if name is None:
                name = names[tag] = _name(tag)
            if name in _USED:
                value = parts[position + 1]
                if "\n" in value or "\r" in value:
                    value = value.replace("\r", "").replace("\n", "")
                yield position, name, value
            elif name not in _KNOWN:
                if name:  # not a stray `|`
                    yield position, UNKNOWN, tag.strip()
                if self.alone(position):
                    position += 1
                    continue
            position += 2

    def alone(self, position: int) -> bool:
        """Whether the unknown token at `position` stands alone: the token after it is a tag
        the reader knows and the one after that is none (a value)."""
        parts = self.parts
        return _name(parts[position + 1]) in _TAGS and (
            position + 2 >= len(parts) - 1 or _name(parts[position + 2]) not in _TAGS)

    def line(self, position: int) -> int:
        """The line (1-based) where the token at `position` begins."""
        skipped, tag = self.parts[:position], self.parts[position]
        at = sum(map(len, skipped)) + len(skipped) + len(tag) - len(tag.lstrip("\r\n"))
        return self.text.count("\n", 0, at) + 1


def _holder(hands: list[Hand | None], card: Card) -> Seat | None:
    """Who held `card` (None if the record does not say): the player who led it, be it in
    turn or not (a lead out of turn, Law 54, is the engine's to judge)."""
    suit = "SHDC".index(card.suit)
    for seat, hand in zip(_HAND_ORDER, hands, strict=True):
        if hand is not None and card.rank in hand[suit]:
            return seat
    return None
