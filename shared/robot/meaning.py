"""A written system's rules: each call with its meaning (the points and lengths it shows, the
booklet's section it comes from, how the ACBL alert procedure discloses it), and the hand
facts a rule is judged on. The robot's partner reads the robot's calls through the same
rules, and the opponents are told the meaning of its alertable calls with the call (Law 20F,
Law 40B: a pair discloses its agreements)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from shared.calls import Call, Strain
from shared.cards import Card
from shared.robot.bidding import balanced, hcp, lengths

SUITS = (Strain.S, Strain.H, Strain.D, Strain.C)
MAJORS = (Strain.S, Strain.H)
MINORS = (Strain.D, Strain.C)
NO_LENGTHS: Mapping[Strain, int] = MappingProxyType({})


class Disclosure(Enum):
    """The ACBL alert procedure: most natural and many conventional calls are disclosed only
    on request; a few are announced (a word said with the call: a 1NT opening's range,
    "transfer"); others are alerted."""

    NONE = "none"
    ANNOUNCE = "announce"
    ALERT = "alert"


class Convention(Enum):
    NATURAL = "natural"
    STAYMAN = "Stayman"
    TRANSFER = "Jacoby transfer"
    STRONG_2C = "strong 2C"
    WAITING = "waiting"
    JACOBY_2NT = "Jacoby 2NT"
    BLACKWOOD = "Blackwood"
    ACES = "Blackwood answer"
    TAKEOUT_DOUBLE = "takeout double"
    NEGATIVE_DOUBLE = "negative double"
    PENALTY_DOUBLE = "penalty double"
    QUANTITATIVE = "quantitative"


@dataclass(frozen=True, slots=True)
class Hand:
    """What the rules judge a hand by."""

    cards: tuple[Card, ...]
    hcp: int
    lengths: Mapping[Strain, int]
    balanced: bool
    aces: int

    @staticmethod
    def of(cards: Sequence[Card]) -> Hand:
        return Hand(tuple(cards), hcp(cards), lengths(cards), balanced(cards),
                    sum(1 for c in cards if c.rank == "A"))

    def length(self, strain: Strain) -> int:
        return self.lengths.get(strain, 0)

    def longest(self, among: Sequence[Strain] = SUITS) -> Strain:
        """The longest of `among`, the higher of equals (the booklet's "open the higher of
        long suits of equal length")."""
        return max(among, key=lambda s: (self.length(s), s.value))

    def stopper(self, strain: Strain) -> bool:
        """A stopper in the suit: A, Kx, Qxx or Jxxx."""
        if strain is Strain.NT:
            return True
        held = [c.rank for c in self.cards if c.suit == strain.name]
        return ("A" in held or ("K" in held and len(held) >= 2)
                or ("Q" in held and len(held) >= 3) or ("J" in held and len(held) >= 4))

    def good_suit(self, strain: Strain) -> bool:
        """Two of the top three honours, or three of the top five (a weak two's, a
        preempt's suit)."""
        held = {c.rank for c in self.cards if c.suit == strain.name}
        return len(held & {"A", "K", "Q"}) >= 2 or len(held & {"A", "K", "Q", "J", "T"}) >= 3


Test = Callable[[Hand], bool]


def always(_hand: Hand) -> bool:
    return True


@dataclass(frozen=True, slots=True)
class Rule:
    """One call of the system in one situation: made with a hand `when` says, meaning what
    `meaning` says (`points` high-card points, at least `shows` cards in each suit named)."""

    call: Call
    meaning: str
    section: str  # the booklet's section ("ACBL SAYC booklet, …")
    points: tuple[int, int] = (0, 37)
    when: Test = always
    shows: Mapping[Strain, int] = field(default_factory=lambda: NO_LENGTHS)
    disclosure: Disclosure = Disclosure.NONE
    convention: Convention = Convention.NATURAL

    def explanation(self) -> str:
        low, high = self.points
        points = "" if (low, high) == (0, 37) else (
            f", {low}+ HCP" if high >= 37 else f", {low}–{high} HCP")
        return f"{self.meaning}{points}"

    def alert_text(self) -> str | None:
        """The text sent with the call (the Table Manager protocol's `Alert. <text>`, the seat
        page's alert and explanation), or None for a call not alerted nor announced."""
        if self.disclosure is Disclosure.NONE:
            return None
        word = "Announced" if self.disclosure is Disclosure.ANNOUNCE else "Alert"
        return f"{word}: {self.explanation()}"


def points(low: int, high: int = 37) -> Test:
    return lambda h: low <= h.hcp <= high


def both(*tests: Test) -> Test:
    return lambda h: all(t(h) for t in tests)


@dataclass(frozen=True, slots=True)
class Decision:
    """The robot's call, with the rule it follows (its meaning and disclosure)."""

    call: Call
    rule: Rule


def holds(strain: Strain, cards: int) -> Test:
    """At least `cards` cards in `strain`."""
    return lambda h: h.length(strain) >= cards


def longest_is(strain: Strain, among: Sequence[Strain] = SUITS) -> Test:
    """`strain` is the hand's longest of `among` (the higher of equals)."""
    return lambda h: h.longest(among) is strain


def good(strain: Strain) -> Test:
    return lambda h: h.good_suit(strain)
