"""Deals consistent with what a seat has seen: its own hand, dummy's once faced, the cards
played, the suits a hand has shown out of, and the auction, whose calls limit each hidden
hand's points and lengths (auction_constraints.py). The random source is the caller's
(`services/robots` passes a seeded `random.Random`): nothing here draws by itself.

The hidden hands are dealt by rejection: the cards not seen are shuffled and dealt (none in a
suit its hand showed out of), and the deal is kept when each hidden hand, with the cards it
has played, fits its limits. A level of limits that finds no deal in `TRIES` redeals is
relaxed, in this order, for the rest of the samples (`Level`): each hand dealt first the
cards its shown lengths need (a long suit shown is rarely dealt at random), then the rest;
the auction's HCP ranges widened by `WIDEN` each way; the auction's lengths dropped (its HCP
ranges kept, widened); the auction dropped; the shown-out suits dropped (a deal of the right
counts always exists). A limit no
deal of the unseen cards can meet (a call beyond the system, a misbid) is dropped for its hand
before any deal is tried. So a sample is always found, in a bounded number of tries, and the
samples are the same for the same seed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Protocol

from shared.calls import Call, Strain
from shared.cards import RANKS, SUITS, Card
from shared.robot.auction_constraints import HandLimits, Span, auction_limits
from shared.robot.bidding import POINTS
from shared.seats import Seat

DECK = tuple(Card.parse(s + r) for s in SUITS for r in RANKS)
TRIES = 200  # redeals of one sample at one level of limits before it is relaxed
WIDEN = 2  # HCP each way, at the first relaxation
_STRAIN = {"S": Strain.S, "H": Strain.H, "D": Strain.D, "C": Strain.C}
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_VALUE = {c: (POINTS.get(c.rank, 0), _STRAIN[c.suit]) for c in DECK}


class RandomSource(Protocol):
    def shuffle(self, x: list[Card]) -> None: ...


class Level(IntEnum):
    """The limits a sample is dealt under, strictest first (the order of relaxation)."""

    AUCTION = 0  # the auction's limits, every consistent deal as likely
    LENGTHS_FIRST = 1  # the same, each hand dealt first the cards its shown lengths need
    WIDENED = 2  # the HCP ranges widened by WIDEN, the lengths dealt first
    POINTS_ONLY = 3  # the widened HCP ranges alone
    SHOWN_OUT = 4  # no limit of the auction's: the shown-out suits alone
    COUNTS = 5  # each hand its number of cards


@dataclass(frozen=True)
class Seen:
    """What a seat knows: the hands it sees whole (its own, dummy's, declarer's dummy), as
    dealt; the cards played, in order, with their hands; the suits each hand has shown out
    of; the auction's calls from `dealer` (public: everything the seat was told of them)."""

    hands: Mapping[Seat, tuple[Card, ...]]
    played: Sequence[tuple[Seat, Card]]
    voids: Mapping[Seat, frozenset[str]]
    dealer: Seat = Seat.N
    auction: Sequence[Call] = field(default_factory=tuple)


def shown_out(played: Sequence[tuple[Seat, Card]]) -> dict[Seat, frozenset[str]]:
    """The suits each hand failed to follow (Law 44C: it had none left)."""
    out: dict[Seat, set[str]] = {}
    for start in range(0, len(played), 4):
        trick = played[start:start + 4]
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if card.suit != led:
                out.setdefault(seat, set()).add(led)
    return {seat: frozenset(suits) for seat, suits in out.items()}


def remaining(seen: Seen) -> dict[Seat, list[Card]]:
    """The cards still held by the hands the seat sees."""
    gone = {card for _, card in seen.played}
    return {seat: [c for c in hand if c not in gone] for seat, hand in seen.hands.items()}


@dataclass(frozen=True)
class _Hidden:
    """One hidden hand: how many cards it still holds, the HCP and lengths of those it has
    played, its limits at each level."""

    need: int
    points: int
    lengths: Mapping[Strain, int]
    limits: tuple[HandLimits | None, ...]  # by Level; None: no limit at that level
    owed: Mapping[str, int]  # by suit: the cards still to deal it for its shown lengths

    def fits(self, cards: Sequence[Card], level: Level) -> bool:
        limit = self.limits[level]
        if limit is None:
            return True
        points = self.points
        lengths = dict(self.lengths)
        for card in cards:
            value, strain = _VALUE[card]
            points += value
            lengths[strain] += 1
        return limit.admits(points, lengths)


def feasible(limit: HandLimits, played: Sequence[Card], pool: Sequence[Card], need: int,
             voids: frozenset[str]) -> HandLimits | None:
    """`limit` cut to what a hand that played `played` and holds `need` more cards of `pool`
    (none of `voids`) can be: a range no such hand meets is dropped; None if nothing is left."""
    open_pool = [c for c in pool if c.suit not in voids]
    values = sorted(POINTS.get(c.rank, 0) for c in open_pool)
    base = sum(POINTS.get(c.rank, 0) for c in played)
    reach = (base + sum(values[:need]), base + sum(values[len(values) - need:]) if need else base)
    spans: dict[Strain, Span] = {}
    for suit, strain in _STRAIN.items():
        held = sum(1 for c in played if c.suit == suit)
        in_suit = sum(1 for c in open_pool if c.suit == suit)
        low = held + max(0, need - (len(open_pool) - in_suit))
        spans[strain] = (low, held + min(need, in_suit))
    points = _within(limit.hcp, reach)
    lengths = {s: _within(limit.length(s), spans[s]) for s in limit.lengths}
    kept = HandLimits(points or reach, {s: v for s, v in lengths.items() if v is not None})
    return None if kept.unlimited else kept


def _within(wanted: Span, possible: Span) -> Span | None:
    low, high = max(wanted[0], possible[0]), min(wanted[1], possible[1])
    return (low, high) if low <= high else None


def _levels(limit: HandLimits | None) -> tuple[HandLimits | None, ...]:
    if limit is None:
        return (None,) * len(Level)
    widened = limit.widened(WIDEN)
    return (limit, limit, widened, widened.points_only(), None, None)


def _owed(limit: HandLimits | None, played: Mapping[Strain, int]) -> dict[str, int]:
    if limit is None:
        return {}
    owed = {suit: limit.length(strain)[0] - played[strain] for suit, strain in _STRAIN.items()}
    return {suit: count for suit, count in owed.items() if count > 0}


def deals(seen: Seen, rng: RandomSource, count: int) -> list[dict[Seat, list[Card]]]:
    """`count` deals of the cards still held, by hand: the seen hands as they are, the others
    dealt from the cards not seen, each its number of cards, inside the limits of the
    strictest level that yields deals (module docstring)."""
    known = remaining(seen)
    seen_cards = {c for hand in seen.hands.values() for c in hand} | {c for _, c in seen.played}
    pool = [c for c in DECK if c not in seen_cards]
    hidden = [s for s in _SEATS if s not in seen.hands]
    limits = auction_limits(seen.dealer, seen.auction)
    info: dict[Seat, _Hidden] = {}
    for seat in hidden:
        played = [c for who, c in seen.played if who is seat]
        need = 13 - len(played)
        limit = feasible(limits[seat], played, pool, need, seen.voids.get(seat, frozenset()))
        held = {s: sum(1 for c in played if c.suit == suit) for suit, s in _STRAIN.items()}
        info[seat] = _Hidden(need, sum(POINTS.get(c.rank, 0) for c in played), held,
                             _levels(limit), _owed(limit, held))
    counts = {s: info[s].need for s in hidden}
    level = Level.AUCTION
    found: list[dict[Seat, list[Card]]] = []
    while len(found) < count:
        for _ in range(TRIES):
            rng.shuffle(pool)
            voids = seen.voids if level < Level.COUNTS else {}
            owed = {s: info[s].owed for s in hidden} if Level.LENGTHS_FIRST <= level \
                <= Level.WIDENED else {}
            dealt = _lengths_first(pool, hidden, counts, voids, owed, rng)
            if dealt is not None and all(info[s].fits(dealt[s], level) for s in hidden):
                found.append({**known, **dealt})
                break
        else:
            level = Level(level + 1)  # COUNTS always deals: the loop ends
    return found


def sample(seen: Seen, rng: RandomSource) -> dict[Seat, list[Card]]:
    """One deal (`deals`)."""
    return deals(seen, rng, 1)[0]


def _lengths_first(pool: list[Card], hidden: list[Seat], need: Mapping[Seat, int],
                   voids: Mapping[Seat, frozenset[str]], owed: Mapping[Seat, Mapping[str, int]],
                   rng: RandomSource) -> dict[Seat, list[Card]] | None:
    """The shuffled pool dealt: first to each hand the cards of a suit its shown lengths
    need (the first of that suit in the pool), then the rest; None if it cannot be."""
    given: dict[Seat, list[Card]] = {s: [] for s in hidden}
    taken: set[Card] = set()
    for seat, suits in owed.items():
        for suit, count in suits.items():
            picked = [c for c in pool if c.suit == suit and c not in taken][:count]
            if len(picked) < count:
                return None
            given[seat] += picked
            taken.update(picked)
    left = {s: need[s] - len(given[s]) for s in hidden}
    if any(n < 0 for n in left.values()):
        return None
    rest = pool
    if taken:  # shuffled again: the cards left where the suits' first were is no chance
        rest = [c for c in pool if c not in taken]
        rng.shuffle(rest)
    dealt = _deal(rest, hidden, left, voids) if any(voids.get(s) for s in hidden) \
        else _slices(rest, hidden, left)
    if dealt is None:
        return None
    return {s: given[s] + dealt[s] for s in hidden}


def _slices(pool: list[Card], hidden: list[Seat],
            need: Mapping[Seat, int]) -> dict[Seat, list[Card]]:
    """The shuffled pool cut into the hands (no suit barred)."""
    hands: dict[Seat, list[Card]] = {}
    start = 0
    for seat in hidden:
        hands[seat] = pool[start:start + need[seat]]
        start += need[seat]
    return hands


def _deal(pool: list[Card], hidden: list[Seat], need: Mapping[Seat, int],
          voids: Mapping[Seat, frozenset[str]]) -> dict[Seat, list[Card]] | None:
    hands: dict[Seat, list[Card]] = {s: [] for s in hidden}
    # the most constrained cards first: those only one hand may hold
    for card in sorted(pool, key=lambda c: sum(c.suit not in voids.get(s, ()) for s in hidden)):
        open_hands = [s for s in hidden
                      if len(hands[s]) < need[s] and card.suit not in voids.get(s, ())]
        if not open_hands:
            return None
        # the hand with most room left (ties: the shuffled pool decides by position)
        hands[max(open_hands, key=lambda s: need[s] - len(hands[s]))].append(card)
    return hands
