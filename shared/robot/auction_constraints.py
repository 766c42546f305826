"""What the auction has shown of each hand: its high-card points and its suits' lengths, each
a range, read through the SAYC tables (shared/robot/sayc.py) as the robot's own partner reads
a call. The opponents' calls are read the same way: the robots' agreements are disclosed
(Law 40B), and a person's calls are read as natural SAYC. The sampler (sampling.py) deals the
hidden hands inside these ranges.

Each call contributes its rule's meaning (`explain`): the rule's HCP range, the lengths it
shows (at least), and what its words say of the shape: "balanced" (4333, 4432, 5332: each
suit two to five cards), "no four-card major" (three at most in each major), "a good six-card"
suit (a weak two: exactly six, ACBL SAYC booklet, Weak Two-Bids). A pass at the first chance
to open is a passed hand: fewer points than the lightest opening of one of a suit (the
booklet's General Approach; 1C takes every 12–21 hand the tables do not open otherwise). A
call the system would not make there (no rule) shows nothing. When a later call's range does
not meet the earlier ones (a call beyond the system), the later call's range stands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from shared.calls import Call, CallKind, Strain
from shared.robot.meaning import MAJORS, SUITS, Rule
from shared.robot.sayc import explain
from shared.robot.sayc_openings import OPENINGS
from shared.seats import Seat

Span = tuple[int, int]
ANY_POINTS: Span = (0, 37)
ANY_LENGTH: Span = (0, 13)
BALANCED: Span = (2, 5)
NO_SPANS: Mapping[Strain, Span] = MappingProxyType({})
# the words of a rule's meaning that limit the shape, and the lengths they allow
_SHAPE_WORDS: tuple[tuple[str, Sequence[Strain], Span], ...] = (
    ("balanced", SUITS, BALANCED),
    ("no four-card major", MAJORS, (0, 3)),
)
# a passed hand holds fewer points than the lightest opening of one of a suit
PASSED_HAND_MAX = min(r.points[0] for r in OPENINGS
                      if r.call.kind is CallKind.BID and r.call.level == 1) - 1


@dataclass(frozen=True)
class HandLimits:
    """A hand as dealt, as the auction has shown it: HCP (low, high), and each suit's length
    (low, high); a suit not named is any length."""

    hcp: Span = ANY_POINTS
    lengths: Mapping[Strain, Span] = field(default_factory=lambda: NO_SPANS)

    def length(self, suit: Strain) -> Span:
        return self.lengths.get(suit, ANY_LENGTH)

    def admits(self, points: int, lengths: Mapping[Strain, int]) -> bool:
        low, high = self.hcp
        if not low <= points <= high:
            return False
        return all(low <= lengths.get(s, 0) <= high for s, (low, high) in self.lengths.items())

    def widened(self, points: int) -> HandLimits:
        """The HCP range `points` wider each way (a hand valued beyond its HCP)."""
        low, high = self.hcp
        return HandLimits((max(0, low - points), min(37, high + points)), self.lengths)

    def points_only(self) -> HandLimits:
        return HandLimits(self.hcp)

    @property
    def unlimited(self) -> bool:
        return self.hcp == ANY_POINTS and all(s == ANY_LENGTH for s in self.lengths.values())


def _meet(before: Span, after: Span) -> Span:
    """The two ranges' common part; the later one when they do not meet."""
    low, high = max(before[0], after[0]), min(before[1], after[1])
    return (low, high) if low <= high else after


def _span(low: int, high: int, most: int) -> Span:
    low, high = max(0, low), min(most, high)
    return (low, high) if low <= high else (low, low)


def _of_rule(rule: Rule, passed_hand: bool) -> HandLimits:
    low, high = rule.points
    if passed_hand:
        high = min(high, PASSED_HAND_MAX)
    lengths = {s: (n, 13) for s, n in rule.shows.items()}
    words = rule.meaning.lower()
    for phrase, suits, span in _SHAPE_WORDS:
        if phrase in words:
            for suit in suits:
                lengths[suit] = _meet(lengths.get(suit, ANY_LENGTH), span)
    if "a good six-card" in words:
        for suit, cards in rule.shows.items():
            lengths[suit] = (cards, cards)
    return HandLimits(_span(low, high, 37), {s: _span(*v, 13) for s, v in lengths.items()})


def _caller(dealer: Seat, index: int) -> Seat:
    seat = dealer
    for _ in range(index % 4):
        seat = seat.lho
    return seat


def shown_by(dealer: Seat, auction: Sequence[Call], index: int) -> HandLimits:
    """What the call at `index` shows of its caller's hand (nothing for a call the system
    would not make there)."""
    before, call = tuple(auction[:index]), auction[index]
    rule = explain(dealer, before, call)
    if rule is None:
        return HandLimits()
    passed_hand = call.is_pass and index < 4 and all(c.is_pass for c in before)
    return _of_rule(rule, passed_hand)


def combined(first: HandLimits, then: HandLimits) -> HandLimits:
    """One hand's limits from two of its calls."""
    suits = set(first.lengths) | set(then.lengths)
    return HandLimits(_meet(first.hcp, then.hcp),
                      {s: _meet(first.length(s), then.length(s)) for s in suits})


@lru_cache(maxsize=4096)
def _limits(dealer: Seat, auction: tuple[Call, ...]) -> tuple[tuple[Seat, HandLimits], ...]:
    found = {seat: HandLimits() for seat in (Seat.N, Seat.E, Seat.S, Seat.W)}
    for index in range(len(auction)):
        seat = _caller(dealer, index)
        found[seat] = combined(found[seat], shown_by(dealer, auction, index))
    return tuple(found.items())


def auction_limits(dealer: Seat, auction: Sequence[Call]) -> dict[Seat, HandLimits]:
    """Each seat's hand as the whole auction (from `dealer`) has shown it."""
    return dict(_limits(dealer, tuple(auction)))
