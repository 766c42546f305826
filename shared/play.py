"""The play of the hand as the fold keeps it: the tricks (cards in order, leader, winner), whose
turn it is, the tricks each side has won, and the end of the play period.

The mechanics only: a card added to the trick in progress, the winner of a trick (Law 44), the
lead to the next (Law 44G). What is irregular (a card out of turn, a revoke, a claim) is
`shared.laws.play`'s, through the few mutators here. Dummy's cards are played by declarer
(Law 45): `turn` is the hand whose card is due, dummy's included.

A `Play` is mutable, as a `Board` is, so that a fold over a million events stays fast; the
board copies it with itself (`Board.copy`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.cards import SUITS, Card
from shared.seats import Seat

TRICKS = 13


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in the order played, who won it (Law 44)."""

    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat


@dataclass(frozen=True, slots=True)
class Revoke:
    """A failure to follow suit when able (Law 61): on trick `trick` (0-based), by `seat`'s
    hand, with `card`; `established` once the offending side plays to a later trick
    (Law 63A)."""

    seat: Seat
    trick: int
    card: Card
    suit: str  # the suit led, which the offender failed to follow
    established: bool = False
    corrected: bool = False


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim or concession (Law 68): `seat`'s side will win `tricks` of the `remaining`
    tricks; the opponents' answers so far (Law 69)."""

    seat: Seat
    tricks: int
    remaining: int
    statement: str
    answers: tuple[tuple[Seat, bool], ...] = ()
    disputed: bool = False


@dataclass(frozen=True, slots=True)
class IrregularLead:
    """A card led out of turn, faced and awaiting the option of the side entitled to accept it
    (Laws 53–56); `holders`: who may accept it."""

    seat: Seat
    card: Card
    law: str
    holders: tuple[Seat, ...]


def trick_winner(cards: list[tuple[Seat, Card]] | tuple[tuple[Seat, Card], ...],
                 trump: str | None) -> Seat:
    """Law 44E–F: a trick containing a trump is won by the player who contributed the highest
    trump; one that contains no trump, by the highest card of the suit led."""
    led = cards[0][1].suit
    best_seat, best = cards[0]
    best_trump = trump is not None and led == trump
    for seat, card in cards[1:]:
        suit = card.suit
        if suit == best.suit:
            if card.order > best.order:
                best_seat, best = seat, card
        elif not best_trump and suit == trump:
            best_seat, best, best_trump = seat, card, True
    return best_seat


@dataclass(slots=True)
class Play:
    declarer: Seat
    trump: str | None  # the trump suit's letter; None at no trump
    hands: dict[Seat, frozenset[int]] | None  # the deal's known hands (`Card.index`), shared
    leader: Seat
    turn: Seat | None
    played: set[int] = field(default_factory=set)  # the cards played, by `Card.index`
    tricks: list[Trick] = field(default_factory=list)
    current: list[tuple[Seat, Card]] = field(default_factory=list)
    won_ns: int = 0
    won_ew: int = 0
    revokes: tuple[Revoke, ...] = ()
    claim: Claim | None = None
    lead: IrregularLead | None = None
    penalty: tuple[tuple[Seat, Card], ...] = ()  # defenders' penalty cards (Law 50)
    ended: str | None = None  # how the play period ended: tricks, claim, ruling, recorded
    declarer_tricks: int | None = None

    def copy(self) -> Play:
        new = Play(self.declarer, self.trump, self.hands, self.leader, self.turn,
                   self.played.copy(), self.tricks.copy(), self.current.copy(), self.won_ns,
                   self.won_ew, self.revokes, self.claim, self.lead, self.penalty, self.ended,
                   self.declarer_tricks)
        return new

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def remaining(self) -> int:
        """The tricks not yet completed, the one in progress included (Law 68)."""
        return TRICKS - len(self.tricks)

    def won_by(self, seat: Seat) -> int:
        return self.won_ns if seat.index % 2 == 0 else self.won_ew

    def holds(self, seat: Seat, card: Card) -> bool | None:
        """Whether `seat`'s hand was dealt `card` (None: the deal leaves that hand out)."""
        hands = self.hands
        if hands is None:
            return None
        hand = hands.get(seat)
        return None if hand is None else card.index in hand

    def can_follow(self, seat: Seat, suit: str) -> bool:
        """Whether `seat` still holds a card of `suit` (False when his hand is not known)."""
        hands = self.hands
        hand = hands.get(seat) if hands is not None else None
        if hand is None:
            return False
        played, low = self.played, SUITS.find(suit) * 13
        return any(low <= i < low + 13 and i not in played for i in hand)

    def add(self, seat: Seat, card: Card) -> Trick | None:
        """`card` from `seat`'s hand goes to the trick in progress; the turn passes clockwise
        (Law 44B). Returns the trick when it is complete: its winner leads next (Law 44G)."""
        current = self.current
        current.append((seat, card))
        self.played.add(card.index)
        if len(current) < 4:
            self.turn = seat.lho
            return None
        winner = trick_winner(current, self.trump)
        trick = Trick(self.leader, tuple(current), winner)
        self.tricks.append(trick)
        current.clear()
        if winner.index % 2 == 0:
            self.won_ns += 1
        else:
            self.won_ew += 1
        self.leader = self.turn = winner
        if len(self.tricks) == TRICKS:
            self.end("tricks", self.won_by(self.declarer))
        return trick

    def end(self, how: str, declarer_tricks: int) -> None:
        """The play period ends (the thirteenth trick, a claim agreed or ruled, a result
        recorded): declarer's tricks stand as given."""
        self.ended, self.declarer_tricks, self.turn = how, declarer_tricks, None
        self.claim, self.lead = None, None
