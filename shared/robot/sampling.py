"""Deals consistent with what a seat has seen in the play: its own hand, dummy's once faced,
the cards played, the suits a hand has shown out of. The random source is the caller's
(`services/robots` passes a seeded `random.Random`): nothing here draws by itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from shared.cards import RANKS, SUITS, Card
from shared.seats import Seat

DECK = tuple(Card.parse(s + r) for s in SUITS for r in RANKS)
TRIES = 50  # redeals of one sample before its voids are given up


class RandomSource(Protocol):
    def shuffle(self, x: list[Card]) -> None: ...


@dataclass(frozen=True)
class Seen:
    """What a seat knows in the play: the hands it sees whole (its own, dummy's, declarer's
    dummy), as dealt; the cards played, in order, with their hands; the suits each hand has
    shown out of."""

    hands: Mapping[Seat, tuple[Card, ...]]
    played: Sequence[tuple[Seat, Card]]
    voids: Mapping[Seat, frozenset[str]]


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


def sample(seen: Seen, rng: RandomSource) -> dict[Seat, list[Card]]:
    """One deal of the cards still held, by hand: the seen hands as they are, the others dealt
    at random from the cards not seen, each its number of cards, none in a suit it showed out
    of (after `TRIES` failed redeals, voids are given up: the sample is still a deal)."""
    known = remaining(seen)
    seen_cards = {c for hand in seen.hands.values() for c in hand} | {c for _, c in seen.played}
    pool = [c for c in DECK if c not in seen_cards]
    hidden = [s for s in (Seat.N, Seat.E, Seat.S, Seat.W) if s not in seen.hands]
    played_by = {s: sum(1 for who, _ in seen.played if who is s) for s in hidden}
    need = {s: 13 - played_by[s] for s in hidden}
    for attempt in range(TRIES + 1):
        rng.shuffle(pool)
        dealt = _deal(pool, hidden, need, seen.voids if attempt < TRIES else {})
        if dealt is not None:
            return {**known, **dealt}
    raise AssertionError("a deal without voids always exists")  # pragma: no cover


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
