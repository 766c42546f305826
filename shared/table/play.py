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

from shared.cards import RANKS, SUITS, Card
from shared.seats import Seat
from shared.vocabulary import LeadOption

TRICKS = 13

Suits = tuple[str, str, str, str]
"""A hand's ranks suit by suit (S, H, D, C), as the PBN deal writes them (`AKQ2`)."""

Hands = tuple[Suits | None, Suits | None, Suits | None, Suits | None]
"""The deal's hands by `Seat.index` (N, E, S, W), None where the deal leaves a hand out."""

NO_HANDS: Hands = (None, None, None, None)

_SUIT_NUMBER = {suit: number for number, suit in enumerate(SUITS)}  # cheaper than `SUITS.find`
# A rank's order (0 = two … 12 = ace), read by `Play.can_follow` rank by rank
_ORDER = {rank: order for order, rank in enumerate(RANKS)}


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
    deemed: bool = False  # a hand faced, deemed a claim of all the tricks (Laws 48B2, 68A)
    # The play as the claim found it, for Law 68B2 (a defender's concession his partner
    # objects to: neither a concession nor a claim has occurred, play continues): the revokes
    # before the claim established any (63A3), the lead out of turn awaiting its option
    revokes: tuple[Revoke, ...] = ()
    lead: IrregularLead | None = None

    @property
    def concedes(self) -> bool:
        """Law 68B1: the claim concedes one or more of the remaining tricks."""
        return self.tricks < self.remaining


@dataclass(frozen=True, slots=True)
class IrregularLead:
    """A card led out of turn, faced and awaiting the option of the side entitled to accept it
    (Laws 53–56); `holders`: who may accept it. `held`: Law 55A's answer of the defender not
    next in turn to the lead (seat, accept), which applies unless the player next in turn
    chooses otherwise (`shared.laws.play.on_option`)."""

    seat: Seat
    card: Card
    law: str
    holders: tuple[Seat, ...]
    held: tuple[Seat, bool] | None = None

    @property
    def next_in_turn(self) -> Seat:
        """The player next in turn to the irregular lead (the leader's LHO): his play to it
        accepts it (Law 53A), and his option prevails over his partner's (Law 55A)."""
        return self.seat.lho


@dataclass(frozen=True, slots=True)
class LeadOptions:
    """Declarer's options on the lead of `seat`, whose partner has major penalty cards in
    `suits` (Laws 50D2, 51B): `choice` None while declarer has not stated it; then the suits
    required (one, for this lead) or prohibited (while `seat` retains the lead). Law 26's
    restriction for a withdrawn call, stated by declarer before the partner's first turn to
    lead, holds the same way from that turn."""

    seat: Seat
    suits: tuple[str, ...]
    choice: LeadOption | None = None
    chosen: tuple[str, ...] = ()
    law: str = "50D2"  # or Law 26's section, for a withdrawn call (`shared.laws.lead_option`)
    before_first_lead: bool = False  # Law 26: for his first turn to lead, not come yet


def trick_winner(cards: list[tuple[Seat, Card]] | tuple[tuple[Seat, Card], ...],
                 trump: str | None) -> Seat:
    """Law 44E–F: a trick containing a trump is won by the player who contributed the highest
    trump; one that contains no trump, by the highest card of the suit led."""
    return winner_of(cards[0][0], [card for _, card in cards], trump)


def winner_of(leader: Seat, cards: list[Card], trump: str | None) -> Seat:
    """`trick_winner` of the cards played clockwise from `leader`."""
    best = cards[0]
    at, best_trump = 0, trump is not None and best.suit == trump
    for i in range(1, len(cards)):
        card = cards[i]
        suit = card.suit
        if suit == best.suit:
            if card.order > best.order:
                at, best = i, card
        elif not best_trump and suit == trump:
            at, best, best_trump = i, card, True
    return _CLOCKWISE[leader.index][at]


def last_trick_winner(leader: Seat, cards: list[Card], trump: str | None) -> Seat:
    """`winner_of` the last four of `cards`, led by `leader` (Law 44E–F), unrolled: a trick
    ends at every fourth card the fold sees. A card beats the best so far when it is of the
    best's suit and higher, or a trump while the best is not (a suit other than the best's)."""
    first, second, third, fourth = cards[-4:]
    suit, best, at = first.suit, first.order, 0
    other = second.suit
    if other == suit:
        if second.order > best:
            best, at = second.order, 1
    elif other == trump:
        suit, best, at = other, second.order, 1
    other = third.suit
    if other == suit:
        if third.order > best:
            best, at = third.order, 2
    elif other == trump:
        suit, best, at = other, third.order, 2
    other = fourth.suit
    if other == suit:
        if fourth.order > best:
            at = 3
    elif other == trump:
        at = 3
    return _CLOCKWISE[leader.index][at]


_CLOCKWISE = tuple(tuple(Seat((first + i) % 4) for i in range(4)) for first in range(4))


@dataclass(slots=True)
class Play:
    declarer: Seat
    trump: str | None  # the trump suit's letter; None at no trump
    hands: Hands  # the deal's known hands, suit by suit, by `Seat.index`; shared
    leader: Seat
    turn: Seat | None
    # By `Card.index`, 1 once the card is played: bytes, not a set of numbers, as a set is an
    # object the garbage collector walks, slot by slot, on every board a table keeps
    gone: bytearray = field(default_factory=lambda: bytearray(52))
    # The cards in the order played, four a trick, then the trick in progress; each completed
    # trick's leader and winner. Flat lists rather than an object a trick: a table's boards
    # are kept whole, and each object kept is one more the garbage collector walks.
    cards: list[Card] = field(default_factory=list)
    leaders: list[Seat] = field(default_factory=list)
    winners: list[Seat] = field(default_factory=list)
    in_trick: int = 0  # the cards of the trick in progress
    won_ns: int = 0
    won_ew: int = 0
    revokes: tuple[Revoke, ...] = ()
    claim: Claim | None = None
    lead: IrregularLead | None = None
    penalty: tuple[tuple[Seat, Card], ...] = ()  # defenders' penalty cards (Law 50)
    ended: str | None = None  # how the play period ended: tricks, claim, ruling, recorded
    declarer_tricks: int | None = None
    # Law 60B: `len(cards)` when declarer's lead out of turn was withdrawn with declarer's own
    # side to lead again; it holds until a card goes to a trick
    retracted_at: int | None = None
    agreed: Claim | None = None  # the claim agreed that ended the play (Laws 69B, 71)
    plain: bool = True  # nothing irregular pending: no lead out of turn, revoke, penalty card,
    # lead option or claim (the fold's fast path for the usual card; `recheck` keeps it true)
    lead_options: LeadOptions | None = None  # Laws 50D2, 51B (`shared.laws.penalty_cards`)
    inadvertent: tuple[tuple[Seat, Card], ...] = ()  # penalty cards exposed so (Law 50B)
    faced: tuple[Seat, ...] = ()  # hands faced in the play, seen by all (Laws 54A, 68A)
    designated: tuple[Seat, Card] | None = None  # Law 51A: the penalty card declarer named
    # Law 57A: the offender's partner, declarer's option on his play (None until chosen), suit
    partner_option: tuple[Seat, str | None, str | None] | None = None
    # Laws 57C3, 57D, 54B2: cards played to the trick in progress before their hand's turn that
    # stand; each goes to the trick at its hand's turn (`shared.laws.premature`)
    waiting: tuple[tuple[Seat, Card], ...] = ()

    @staticmethod
    def start(declarer: Seat, trump: str | None, hands: Hands, leader: Seat) -> Play:
        """The play before the opening lead, `leader` on lead (Law 41A). Written out field by
        field, as `copy` is: the dataclass's `__init__` costs twice as much, once a board."""
        new = Play.__new__(Play)
        new.declarer, new.trump, new.hands, new.leader, new.turn = declarer, trump, hands, \
            leader, leader
        new.gone, new.cards, new.leaders, new.winners = bytearray(52), [], [], []
        new.in_trick = new.won_ns = new.won_ew = 0
        new.revokes = new.penalty = new.inadvertent = new.faced = new.waiting = ()
        new.claim = new.lead = new.ended = new.declarer_tricks = new.retracted_at = None
        new.agreed = new.lead_options = new.designated = new.partner_option = None
        new.plain = True
        return new

    def recheck(self) -> None:
        """`plain` again after the Laws have changed the play."""
        self.plain = self.lead is None and not self.revokes and not self.penalty \
            and self.claim is None and self.lead_options is None and self.partner_option is None \
            and not self.waiting

    def copy(self) -> Play:
        new = Play(self.declarer, self.trump, self.hands, self.leader, self.turn,
                   self.gone.copy(), self.cards.copy(), self.leaders.copy(),
                   self.winners.copy(), self.in_trick, self.won_ns, self.won_ew, self.revokes,
                   self.claim, self.lead, self.penalty, self.ended, self.declarer_tricks,
                   self.retracted_at, self.agreed, self.plain, self.lead_options,
                   self.inadvertent, self.faced, self.designated, self.partner_option,
                   self.waiting)
        return new

    @property
    def played(self) -> set[int]:
        """The cards played, by `Card.index`."""
        return {index for index, gone in enumerate(self.gone) if gone}

    @property
    def done(self) -> int:
        """The tricks completed."""
        return len(self.winners)

    def trick(self, k: int) -> Trick:
        """The `k`th completed trick (0-based)."""
        leader = self.leaders[k]
        return Trick(leader, tuple(zip(_CLOCKWISE[leader.index], self.cards[4 * k:4 * k + 4],
                                       strict=True)), self.winners[k])

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks."""
        return [self.trick(k) for k in range(len(self.winners))]

    @property
    def current(self) -> list[tuple[Seat, Card]]:
        """The trick in progress: its cards from its leader's, clockwise."""
        cards = self.cards[len(self.cards) - self.in_trick:] if self.in_trick else []
        return list(zip(_CLOCKWISE[self.leader.index], cards, strict=False))

    def card_in_trick(self, seat: Seat) -> Card | None:
        """The card `seat`'s hand has played to the trick in progress, in it or waiting for
        its turn (`waiting`); None if none."""
        for s, card in self.current:
            if s is seat:
                return card
        return next((card for s, card in self.waiting if s is seat), None)

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def remaining(self) -> int:
        """The tricks not yet completed, the one in progress included (Law 68)."""
        return TRICKS - len(self.winners)

    def won_by(self, seat: Seat) -> int:
        return self.won_ns if seat.index % 2 == 0 else self.won_ew

    def holds(self, seat: Seat, card: Card) -> bool | None:
        """Whether `seat`'s hand was dealt `card` (None: the deal leaves that hand out)."""
        hand = self.hands[seat.index]
        return None if hand is None else card.rank in hand[card.index // 13]

    def can_follow(self, seat: Seat, suit: str) -> bool:
        """Whether `seat` still holds a card of `suit` (False when his hand is not known)."""
        hand = self.hands[seat.index]
        if hand is None:
            return False
        number = _SUIT_NUMBER.get(suit, -1)  # as `SUITS.find` gives
        gone, low, order = self.gone, number * 13, _ORDER
        # a loop, not `any` over a generator (a frame a call): this runs on every discard
        for rank in hand[number]:  # noqa: SIM110
            if not gone[low + order[rank]]:
                return True
        return False

    def add(self, seat: Seat, card: Card) -> None:
        """`card` from `seat`'s hand goes to the trick in progress; the turn passes clockwise
        (Law 44B). A trick complete, its winner leads next (Law 44G)."""
        cards = self.cards
        cards.append(card)
        self.gone[card.index] = 1
        if self.in_trick < 3:
            self.in_trick += 1
            self.turn = seat.lho
            return
        self.in_trick = 0
        self.complete(last_trick_winner(self.leader, cards, self.trump))

    def complete(self, winner: Seat) -> None:
        """The trick in progress, its four cards played, is won by `winner` (Law 44)."""
        self.leaders.append(self.leader)
        self.winners.append(winner)
        if winner.index % 2 == 0:
            self.won_ns += 1
        else:
            self.won_ew += 1
        self.leader = self.turn = winner
        if len(self.winners) == TRICKS:
            self.end("tricks", self.won_by(self.declarer))

    def end(self, how: str, declarer_tricks: int) -> None:
        """The play period ends (the thirteenth trick, a claim agreed or ruled, a result
        recorded): declarer's tricks stand as given."""
        self.ended, self.declarer_tricks, self.turn = how, declarer_tricks, None
        self.claim, self.lead, self.lead_options = None, None, None
        self.designated = self.partner_option = None
        self.waiting = ()


def is_minor(play: Play, seat: Seat, card: Card) -> bool:
    """Law 50B: a single card below the rank of an honour exposed inadvertently (as in
    playing two cards to a trick, or dropping a card) is a minor penalty card; any honour,
    any card exposed through deliberate play (a lead out of turn, a revoke corrected), and
    every penalty card of a defender who has two or more, are major."""
    return (seat, card) in play.inadvertent and not card.is_honour \
        and sum(1 for s, _ in play.penalty if s is seat) == 1
