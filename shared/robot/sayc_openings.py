"""SAYC's opening bids, as the ACBL SAYC System Booklet (revised January 2006) states them:
a table of rules, the first that fits the hand is bid."""

from __future__ import annotations

from shared.calls import PASS, Call, Strain
from shared.robot.meaning import Convention, Disclosure, Rule, Test, both, points

BOOK = "ACBL SAYC booklet"


def _bid(level: int, strain: Strain) -> Call:
    return Call.bid(level, strain)


def _five_card_major(strain: Strain) -> Rule:
    other = Strain.H if strain is Strain.S else Strain.S
    return Rule(_bid(1, strain), f"five or more {strain.name}", f"{BOOK}, General Approach "
                "(five-card majors; the higher of long suits of equal length)", (12, 21),
                both(points(12, 21), lambda h: h.length(strain) >= 5
                     and h.length(strain) >= h.length(other)
                     and (h.length(strain) > h.length(other) or strain is Strain.S)),
                {strain: 5})


def _weak_two(strain: Strain) -> Rule:
    return Rule(_bid(2, strain), f"weak two: a good six-card {strain.name} suit",
                f"{BOOK}, Weak Two-Bids", (5, 11),
                both(points(5, 11), lambda h: h.length(strain) == 6 and h.good_suit(strain)),
                {strain: 6})


def _preempt(level: int, strain: Strain, cards: int) -> Rule:
    return Rule(_bid(level, strain), f"preempt: a good {cards}-card {strain.name} suit",
                f"{BOOK}, Preemptive Bids", (5, 10),
                both(points(5, 10), lambda h: h.length(strain) >= cards
                     and h.good_suit(strain)), {strain: cards})


def _balanced(low: int, high: int) -> Test:
    return both(points(low, high), lambda h: h.balanced)


OPENINGS: tuple[Rule, ...] = (
    Rule(_bid(2, Strain.C), "strong, artificial, forcing: 22+ HCP, or 22–24 balanced",
         f"{BOOK}, Strong 2C Opening", (22, 37),
         both(points(22), lambda h: not (h.balanced and 25 <= h.hcp <= 27)),
         convention=Convention.STRONG_2C),  # ACBL: a strong artificial 2C is not alerted
    Rule(_bid(3, Strain.NT), "balanced", f"{BOOK}, Notrump Opening Bids", (25, 27),
         _balanced(25, 27)),
    Rule(_bid(2, Strain.NT), "balanced", f"{BOOK}, Notrump Opening Bids", (20, 21),
         _balanced(20, 21)),
    Rule(_bid(1, Strain.NT), "balanced (may hold a five-card major)",
         f"{BOOK}, Notrump Opening Bids", (15, 17), _balanced(15, 17),
         disclosure=Disclosure.ANNOUNCE),  # the ACBL's announcement: "15 to 17"
    _five_card_major(Strain.S),
    _five_card_major(Strain.H),
    Rule(_bid(1, Strain.D), "three or more diamonds (four or more unless exactly 4-4-3-2)",
         f"{BOOK}, Minor Suit Openings (1D with four-four in the minors)", (12, 21),
         both(points(12, 21), lambda h: h.length(Strain.D) > h.length(Strain.C)
              or h.length(Strain.D) == h.length(Strain.C) >= 4), {Strain.D: 3}),
    Rule(_bid(1, Strain.C), "three or more clubs",
         f"{BOOK}, Minor Suit Openings (1C with three-three in the minors)", (12, 21),
         points(12, 21), {Strain.C: 3}),
    _preempt(4, Strain.S, 8), _preempt(4, Strain.H, 8),
    *(_preempt(3, s, 7) for s in (Strain.S, Strain.H, Strain.D, Strain.C)),
    *(_weak_two(s) for s in (Strain.S, Strain.H, Strain.D)),
    Rule(PASS, "no opening bid", f"{BOOK}, General Approach", (0, 13)),
)
"""The openings, strongest first: the first rule that fits is bid."""

