"""One robot's conversation with the host, pure: what to answer and what to push, from the
robot's lines and the table's state as its seat sees it.

The protocol is pulled: the robot says what it waits for (`North ready for East's bid`) and
the host answers once it knows. `RobotSession` keeps what the robot has been told (the board,
how many calls and cards) and a request it cannot answer yet; each new state (`on_view`) may
answer it. It also pushes what the clients wait for unasked: `Start of board` when a board
begins, `<Seat> to lead` to the seat on lead (declarer when dummy leads), `Timing - …` when
the board ends. A robot's own call or card comes back as an event (`Outcome.event`) for the
host to send with the seat's token, through the same checks as a person's.

The view is the seat's own (the gateway's `views.py`): the robot can learn nothing its seat may
not see, since this module never has more (dummy's hand only once the opening lead is faced,
Law 41D).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from shared.calls import Call
from shared.cards import Card
from shared.deal import parse_deal
from shared.seats import Seat, Vulnerability
from shared.table_manager.lines import SEAT_WORDS
from shared.table_manager.messages import (
    BoardInfo,
    CallMade,
    CardPlayed,
    ClientMessage,
    Connect,
    DummyCards,
    HandCards,
    HostError,
    HostMessage,
    Ready,
    ReadyFor,
    ReadyForCall,
    ReadyForCard,
    StartOfBoard,
    Teams,
    Timing,
    ToLead,
)
from shared.vocabulary import BoardStatus

TIMING = "N/S : this board  [0:00],  total  [0:00:00].  E/W : this board  [0:00],  total  [0:00:00]"


@dataclass(frozen=True, slots=True)
class Sent:
    """The robot's own call or card, appended, not yet seen in the board: its place (the
    index of the call, or of the card in the play), its text, and the board's `events` when
    it was sent (an alert or an ignored event after that may be about it)."""

    kind: str  # "call" or "card"
    index: int
    text: str
    events: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a robot's line gives: lines to send it now, and an event to append for its seat
    (`{"type":"call",…}` or `{"type":"card_played",…}`), or None."""

    replies: list[HostMessage] = field(default_factory=list)
    event: dict[str, Any] | None = None


def _hand(text: str) -> tuple[Card, ...]:
    """`S.H.D.C` (PBN) → its cards."""
    return tuple(Card.parse(suit + rank) for suit, ranks in zip("SHDC", text.split("."),
                                                                strict=True) for rank in ranks)


def _cards_played(board: Mapping[str, Any]) -> list[tuple[Seat, Card]]:
    play = board.get("play")
    if not play:
        return []
    return [(Seat.parse(c["seat"]), Card.parse(c["card"]))
            for trick in play["tricks"] for c in trick["cards"]]


def _key(board: Mapping[str, Any]) -> tuple[int, int]:
    return int(board["board"]), int(board.get("started_ts", 0))


def _finished(board: Mapping[str, Any]) -> bool:
    return board.get("result") is not None or board["status"] == BoardStatus.PASSED_OUT


class RobotSession:
    """The host's side of one robot's connection, seated at `seat`."""

    def __init__(self, seat: Seat, teams: tuple[str, str] = ("North-South", "East-West")):
        self.seat = seat
        self.teams = teams
        self.board: Mapping[str, Any] | None = None
        self.pending: ClientMessage | None = None  # a request awaiting the table
        self.wants_board = False  # `ready to start` heard, or a board ended: push the next
        self.started: tuple[int, int] | None = None  # the board `Start of board` announced
        self.finished: tuple[int, int] | None = None  # the board `Timing` closed
        self.calls_told = 0  # calls the robot knows (told, or its own)
        self.cards_told = 0
        self.leads_told: set[int] = set()  # tricks (0-based) whose `to lead` was pushed
        self.unseen: Sent | None = None  # the robot's last call or card, not yet in the board

    @property
    def waiting(self) -> bool:
        """Whether the robot waits for the table (a request not answered yet, or the next
        board): it owes the host no line meanwhile (the host's idle timeout does not run)."""
        return self.pending is not None or self.wants_board

    # -- the table --------------------------------------------------------------------------

    def on_view(self, board: Mapping[str, Any] | None) -> list[HostMessage]:
        """A new state of the table as the seat sees it: what to send the robot now."""
        self.board = board
        return self._progress()

    # -- the robot --------------------------------------------------------------------------

    def on_line(self, message: ClientMessage) -> Outcome:
        """A line the robot sent (after `Connect`, which the host handles)."""
        if isinstance(message, Connect):
            return Outcome([HostError("already seated")])
        if isinstance(message, (Ready, ReadyForCall, ReadyForCard)):
            if message.seat is not self.seat:
                return Outcome([HostError(f"you sit {SEAT_WORDS[self.seat]}, "
                                          f"not {SEAT_WORDS[message.seat]}")])
            if isinstance(message, Ready) and message.what is ReadyFor.START:
                self.wants_board = True
                return Outcome(self._progress())
            if self.pending is not None:
                return Outcome([HostError("one request at a time: the last one is not "
                                          "answered yet")])
            self.pending = message
            return Outcome(self._progress())
        if isinstance(message, CallMade):
            return self._own_call(message)
        return self._own_card(message)

    def undo(self, event: Mapping[str, Any]) -> None:
        """The table refused the robot's event (`Outcome.event`): it is not known after all."""
        if event["type"] == "call":
            self.calls_told -= 1
        else:
            self.cards_told -= 1
        self.unseen = None

    # -- the robot's own calls and cards ---------------------------------------------------

    def _own_call(self, message: CallMade) -> Outcome:
        board = self.board
        if message.seat is not self.seat:
            return Outcome([HostError(f"you sit {SEAT_WORDS[self.seat]}: you call for no "
                                      "other seat")])
        if board is None or self.started != _key(board):
            return Outcome([HostError("no auction is in progress")])
        calls = board["calls"]
        if self.calls_told < len(calls) and calls[self.calls_told]["seat"] == self.seat.name:
            made = calls[self.calls_told]["call"]
            if made != message.call.text:
                return Outcome([HostError(f"your call here was {made}: it stands")])
            self.calls_told += 1  # made before the robot came back: known
            return Outcome(self._progress())
        if board["status"] != BoardStatus.AUCTION:
            return Outcome([HostError("no auction is in progress")])
        self.calls_told += 1
        self.unseen = Sent("call", self.calls_told - 1, message.call.text,
                           int(board.get("events") or 0))
        event: dict[str, Any] = {"type": "call", "call": message.call.text,
                                 "client_seq": self._seq(self.calls_told - 1)}
        if message.alert is not None:
            event["alert"] = True
            if message.alert:
                event["explanation"] = message.alert
        return Outcome(self._progress(), event)

    def _own_card(self, message: CardPlayed) -> Outcome:
        board = self.board
        contract = board.get("contract") if board is not None else None
        if board is None or self.started != _key(board) or contract is None:
            return Outcome([HostError("no play is in progress")])
        declarer = Seat.parse(contract["declarer"])
        dummy = declarer.partner
        if message.seat is not self.seat and not (self.seat is declarer
                                                  and message.seat is dummy):
            return Outcome([HostError(f"you sit {SEAT_WORDS[self.seat]}: you play from no "
                                      "other hand"
                                      + (f" but dummy's ({SEAT_WORDS[dummy]})"
                                         if self.seat is declarer else ""))])
        if self.seat is dummy:
            return Outcome([HostError("dummy plays no card: declarer plays dummy's (Law 45)")])
        played = _cards_played(board)
        if self.cards_told < len(played) and played[self.cards_told][0] is message.seat:
            made = played[self.cards_told][1]
            if made != message.card:
                return Outcome([HostError(f"the card played here was {made}: it stands")])
            self.cards_told += 1  # played before the robot came back: known
            return Outcome(self._progress())
        if _finished(board):
            return Outcome([HostError("no play is in progress")])
        if _claim(board):
            return Outcome([HostError("play has ceased: a claim is open (Law 68D); the card "
                                      "is not played")])
        self.cards_told += 1
        self.unseen = Sent("card", self.cards_told - 1, str(message.card),
                           int(board.get("events") or 0))
        event: dict[str, Any] = {"type": "card_played", "card": str(message.card),
                                 "client_seq": self._seq(64 + self.cards_told - 1)}
        if message.seat is not self.seat:
            event["seat"] = message.seat.name
        return Outcome(self._progress(), event)

    def _seq(self, index: int) -> int:
        """The event's `client_seq`: the same for the same call or card of the same board
        (a robot that comes back and sends it again is folded once), distinct in a round; and
        distinct again after each of the seat's calls or cards the table did not take (its
        alerts, the events ignored: `_not_taken`), so that the one sent in its place is not
        folded as a retry of it. Read from the board, so the same after a reconnect."""
        board = self.board or {}
        refused = len(board.get("ignored") or []) + sum(
            1 for alert in board.get("alerts") or [] if alert.get("seat") in self._hands(board))
        return refused * 2**20 + int(board.get("board") or 0) * 128 + index

    # -- answering and pushing ----------------------------------------------------------------

    def _progress(self) -> list[HostMessage]:
        out: list[HostMessage] = []
        board = self.board
        if board is not None:
            out += self._not_taken(board)
        if board is not None and self._starts(board):
            self.started, self.wants_board = _key(board), False
            self.calls_told = self.cards_told = 0
            self.leads_told = set()
            self.pending = None if isinstance(self.pending, (ReadyForCall, ReadyForCard)) \
                else self.pending
            out.append(StartOfBoard())
        if self.pending is not None:
            answer = self._answer(self.pending)
            if answer is not None:
                self.pending = None
                out.append(answer)
        if board is not None and self.started == _key(board):
            out += self._pushes(board)
        return out

    def _not_taken(self, board: Mapping[str, Any]) -> list[HostMessage]:
        """The robot's own call or card, sent, that the table did not take as made: `Error`
        with the reason, and the robot may send another. An irregular one (an insufficient
        bid, Law 27; a call or card out of rotation, Laws 28–32, 53–57) awaits the Director,
        who must be summoned (Law 9B1): the robot is told the table waits for him. One the
        fold ignored is told its reason. Either way it is no longer counted as known."""
        sent = self.unseen
        if sent is None:
            return []
        if self.started != _key(board):
            self.unseen = None
            return []
        mine = self._hands(board) if sent.kind == "card" else {self.seat.name}
        made = ([(c["seat"], c["call"]) for c in board["calls"]] if sent.kind == "call"
                else [(s.name, str(c)) for s, c in _cards_played(board)])
        if len(made) > sent.index:
            self.unseen = None  # taken (as made, or another's in its place: told as usual)
            return []
        what = f"your {sent.kind} {sent.text}"
        for alert in board.get("alerts") or []:
            if alert.get("event", 0) > sent.events and alert.get("seat") in mine:
                self._forget(sent)
                return [HostError(f"{what} is not taken: {alert['message']} The table waits "
                                  "for the Director (Law 9B1)")]
        for ignored in board.get("ignored") or []:
            if ignored.get("event", 0) > sent.events:
                self._forget(sent)
                return [HostError(f"{what} is not taken: {ignored['reason']}")]
        return []

    def _hands(self, board: Mapping[str, Any]) -> set[str]:
        """The seats whose cards the robot plays: its own, and dummy's as declarer (Law 45)."""
        contract = board.get("contract")
        if contract is None or contract["declarer"] != self.seat.name:
            return {self.seat.name}
        return {self.seat.name, self.seat.partner.name}

    def _forget(self, sent: Sent) -> None:
        self.unseen = None
        if sent.kind == "call":
            self.calls_told = min(self.calls_told, sent.index)
        else:
            self.cards_told = min(self.cards_told, sent.index)

    def _starts(self, board: Mapping[str, Any]) -> bool:
        """Whether a board to announce is there: a new one, not over, that the robot is ready
        for (it said `ready to start`, or was at the board before)."""
        key = _key(board)
        if key == self.started or key == self.finished or _finished(board):
            return False
        return self.wants_board or self.started is not None

    def _answer(self, request: ClientMessage) -> HostMessage | None:
        if isinstance(request, Ready) and request.what is ReadyFor.TEAMS:
            return Teams(*self.teams)
        board = self.board
        if board is None or self.started != _key(board):
            return None
        if isinstance(request, Ready):
            return self._ready(request, board)
        if isinstance(request, ReadyForCall):
            calls = board["calls"]
            while self.calls_told < len(calls) and self._own(calls[self.calls_told]["seat"]):
                self.calls_told += 1  # its own, taken after all (an option holder accepted)
            if self.calls_told >= len(calls):
                return None
            told = calls[self.calls_told]
            self.calls_told += 1
            alert = told.get("explanation", "") if told.get("alert") else None
            return CallMade(Seat.parse(told["seat"]), Call.parse(told["call"]), alert)
        if isinstance(request, ReadyForCard):
            played = _cards_played(board)
            if self.cards_told >= len(played):
                return None
            seat, card = played[self.cards_told]
            self.cards_told += 1
            return CardPlayed(seat, card)
        return None

    def _own(self, seat: str) -> bool:
        return seat == self.seat.name and self.unseen is None

    def _ready(self, request: Ready, board: Mapping[str, Any]) -> HostMessage | None:
        if request.what is ReadyFor.DEAL:
            return BoardInfo(int(board["board"]), Seat.parse(board["dealer"]),
                             Vulnerability.parse(board["vulnerability"]))
        hands = parse_deal(board["deal"]) if board.get("deal") else {}
        if request.what is ReadyFor.CARDS:
            own = hands.get(self.seat)
            return None if own is None else HandCards(self.seat, _hand(own))
        if request.what is ReadyFor.DUMMY:
            contract = board.get("contract")
            dummy = Seat.parse(contract["declarer"]).partner if contract else None
            if dummy is None or not board.get("play") or dummy not in hands:
                return None  # shown once the opening lead is faced (Law 41D)
            return DummyCards(_hand(hands[dummy]))
        return None

    def _pushes(self, board: Mapping[str, Any]) -> list[HostMessage]:
        calls, played = board["calls"], _cards_played(board)
        if self.calls_told < len(calls):
            return []  # the robot is not told the auction yet
        if self.cards_told >= len(played) and _finished(board):
            if self.finished == _key(board):
                return []
            self.finished, self.wants_board = _key(board), True
            return [Timing(TIMING)]
        lead = self._lead(board, played)
        return [] if lead is None else [lead]

    def _lead(self, board: Mapping[str, Any], played: list[tuple[Seat, Card]]) -> ToLead | None:
        """`<Seat> to lead` once the robot is told every card before a trick it leads (or
        dummy leads, the robot declarer: Law 45): when the lead is due, and again when the
        robot comes back after leading, told the board from its start: it sends its lead
        again (known, not appended twice). None while the play has ceased for a claim (Law
        68D): the lead is told if play resumes."""
        contract = board.get("contract")
        if board["status"] != BoardStatus.CLOSED or contract is None:
            return None
        trick = self.cards_told // 4
        if self.cards_told % 4 or trick in self.leads_told:
            return None
        if self.cards_told == len(played) and (_finished(board) or _claim(board)):
            return None
        declarer = Seat.parse(contract["declarer"])
        leader = _leader(board, trick, declarer)
        if leader is None:
            return None
        controls = leader is self.seat or (leader is declarer.partner
                                           and self.seat is declarer)
        if not controls or self.seat is declarer.partner:
            return None
        self.leads_told.add(trick)
        return ToLead(leader)


def _claim(board: Mapping[str, Any]) -> Mapping[str, Any] | None:
    play = board.get("play")
    claim: Mapping[str, Any] | None = play.get("claim") if play else None
    return claim


def _leader(board: Mapping[str, Any], trick: int, declarer: Seat) -> Seat | None:
    """Who leads `trick` (0-based): the hand that did, once led; else the opening leader
    (Law 41A: declarer's left-hand opponent), or the winner of the trick before (Law 44G);
    None while that trick is not complete."""
    tricks = board["play"]["tricks"] if board.get("play") else []
    if len(tricks) > trick and tricks[trick]["cards"]:
        return Seat.parse(tricks[trick]["cards"][0]["seat"])
    if trick == 0:
        return declarer.lho
    winner = tricks[trick - 1].get("winner") if len(tricks) >= trick else None
    return None if winner is None else Seat.parse(winner)
