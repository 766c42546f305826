"""SAYC's responses to partner's opening bid (the opponents silent), as the ACBL SAYC System
Booklet (revised January 2006) states them: for each opening, a table of rules, the first
that fits the hand is bid (one that is not sufficient is skipped)."""

from __future__ import annotations

from functools import cache

from shared.calls import PASS, Call, Strain
from shared.robot.meaning import (
    MAJORS,
    MINORS,
    SUITS,
    Convention,
    Disclosure,
    Hand,
    Rule,
    always,
    both,
    holds,
    longest_is,
    points,
)

BOOK = "ACBL SAYC booklet"
NT = Strain.NT


def _bid(level: int, strain: Strain) -> Call:
    return Call.bid(level, strain)


def _no_four_card_major(h: Hand) -> bool:
    return h.length(Strain.S) < 4 and h.length(Strain.H) < 4


RESPONSES_TO_1NT: tuple[Rule, ...] = (
    Rule(_bid(2, Strain.D), "transfer: five or more hearts", f"{BOOK}, 1NT Responses "
         "(Jacoby transfers)", (0, 37), lambda h: h.length(Strain.H) >= 5
         and h.length(Strain.H) >= h.length(Strain.S), {Strain.H: 5},
         Disclosure.ANNOUNCE, Convention.TRANSFER),
    Rule(_bid(2, Strain.H), "transfer: five or more spades", f"{BOOK}, 1NT Responses "
         "(Jacoby transfers)", (0, 37), lambda h: h.length(Strain.S) >= 5, {Strain.S: 5},
         Disclosure.ANNOUNCE, Convention.TRANSFER),
    Rule(_bid(2, Strain.C), "Stayman: asks for a four-card major; holds one",
         f"{BOOK}, 1NT Responses (Stayman)", (8, 37),
         both(points(8), lambda h: h.length(Strain.S) == 4 or h.length(Strain.H) == 4),
         convention=Convention.STAYMAN),  # not alerted
    Rule(_bid(6, NT), "to play", f"{BOOK}, 1NT Responses", (18, 19), points(18, 19)),
    Rule(_bid(4, NT), "quantitative: bid 6NT with a maximum", f"{BOOK}, 1NT Responses",
         (16, 17), points(16, 17), convention=Convention.QUANTITATIVE),
    Rule(_bid(3, NT), "to play", f"{BOOK}, 1NT Responses", (10, 15), points(10, 15)),
    Rule(_bid(2, NT), "invitational", f"{BOOK}, 1NT Responses", (8, 9), points(8, 9)),
    Rule(PASS, "to play 1NT", f"{BOOK}, 1NT Responses", (0, 7)),
)


def _raise(opening: Strain) -> tuple[Rule, ...]:
    section = f"{BOOK}, Major Suit Openings (responses)"
    fit = 3  # a major's raise shows three-card support or better
    return (
        Rule(_bid(2, NT), "Jacoby 2NT: four-card support, game forcing", section, (13, 37),
             both(points(13), lambda h: h.length(opening) >= 4), {opening: 4},
             Disclosure.ALERT, Convention.JACOBY_2NT),
        Rule(_bid(4, opening), "to play: five-card support, weak, shapely", section, (5, 9),
             both(points(5, 9), lambda h: h.length(opening) >= 5
                  and min(h.lengths.values()) <= 1), {opening: 5}),
        Rule(_bid(3, opening), "limit raise: three- or four-card support", section, (10, 12),
             both(points(10, 12), lambda h: h.length(opening) >= fit), {opening: fit}),
        Rule(_bid(2, opening), "single raise: three-card support or better", section, (6, 10),
             both(points(6, 9), lambda h: h.length(opening) >= fit), {opening: fit}),
    )


def _new_suits(opening: Strain) -> tuple[Rule, ...]:
    section = f"{BOOK}, Responses to one of a suit (new suits; two over one)"
    rules: list[Rule] = []
    # one level: the longer of the higher suits (up the line with four-card suits)
    one_level = [s for s in (Strain.D, Strain.H, Strain.S) if s.value > opening.value]
    for strain in sorted(one_level, key=lambda s: s.value):
        rules.append(Rule(_bid(1, strain), f"four or more {strain.name}, forcing", section,
                          (6, 37), both(points(6), holds(strain, 4), longest_is(strain, one_level),
                               _no_four_card_major if strain is Strain.D else always),
                          {strain: 4}))
    two_level = [s for s in SUITS if s.value < opening.value]
    for strain in two_level:
        need = 5 if strain is Strain.H else 4
        rules.append(Rule(_bid(2, strain), f"{need} or more {strain.name}, forcing (two over "
                          "one)", section, (10, 37),
                          both(points(10), holds(strain, need), longest_is(strain, two_level)),
                          {strain: need}))
    return tuple(rules)


def _notrump(opening: Strain) -> tuple[Rule, ...]:
    section = f"{BOOK}, Responses to one of a suit (notrump responses)"
    minor = opening in MINORS
    return (
        *((Rule(_bid(2, NT), "balanced, stoppers, forcing", section, (13, 15),
                both(points(13, 15), lambda h: h.balanced and _no_four_card_major(h))),
           Rule(_bid(3, NT), "balanced, to play", section, (16, 17),
                both(points(16, 17), lambda h: h.balanced and _no_four_card_major(h))))
          if minor else ()),
        Rule(_bid(1, NT), "no fit, no suit to bid at the one level; not forcing", section,
             (6, 10), points(6, 12)),
    )


@cache
def responses_to_one(opening: Strain) -> tuple[Rule, ...]:
    """To one of a suit: raise a major first, else a new suit (the one level: four cards
    and 6+; the two level: 10+), else notrump."""
    majors = _raise(opening) if opening in MAJORS else ()
    minor_raises = () if opening in MAJORS else (
        Rule(_bid(3, opening), f"limit raise: five or more {opening.name}",
             f"{BOOK}, Minor Suit Openings (responses)", (10, 12),
             both(points(10, 12), lambda h: h.length(opening) >= 5 and _no_four_card_major(h)),
             {opening: 5}),
        Rule(_bid(2, opening), f"single raise: five or more {opening.name}",
             f"{BOOK}, Minor Suit Openings (responses)", (6, 10),
             both(points(6, 9), lambda h: h.length(opening) >= 5 and _no_four_card_major(h)),
             {opening: 5}),
    )
    return (*majors, *_new_suits(opening), *minor_raises, *_notrump(opening),
            Rule(PASS, "too weak to respond", f"{BOOK}, Responses to one of a suit", (0, 5)))


RESPONSES_TO_2C: tuple[Rule, ...] = (
    Rule(_bid(2, NT), "positive: balanced", f"{BOOK}, Strong 2C Opening (responses)", (8, 37),
         both(points(8), lambda h: h.balanced)),
    *(Rule(_bid(2 if s in MAJORS else 3, s), f"positive: five or more {s.name}",
           f"{BOOK}, Strong 2C Opening (responses)", (8, 37),
           both(points(8), holds(s, 5), longest_is(s)), {s: 5})
      for s in SUITS),
    Rule(_bid(2, Strain.D), "waiting (artificial)", f"{BOOK}, Strong 2C Opening (responses)",
         (0, 37), convention=Convention.WAITING),  # not alerted
)


@cache
def responses_to_preempt(opening: Call) -> tuple[Rule, ...]:
    """To a weak two or a preempt: raise a major to game with a fit and 16+, 3NT with 16+
    and no fit, raise a weak two to three (preemptive); else pass."""
    strain = opening.strain
    assert strain is not None
    section = f"{BOOK}, Weak Two-Bids (responses)" if opening.level == 2 else \
        f"{BOOK}, Preemptive Bids (responses)"
    game = 4 if strain in MAJORS else 5
    return (
        Rule(_bid(game, strain), "to play", section, (16, 37),
             both(points(16), lambda h: h.length(strain) >= 2), {strain: 2}),
        Rule(_bid(3, NT), "to play", section, (16, 37), points(16)),
        *((Rule(_bid(3, strain), "preemptive raise", section, (6, 15),
                both(points(6, 15), lambda h: h.length(strain) >= 3), {strain: 3}),)
          if opening.level == 2 else ()),
        Rule(PASS, "no game", section, (0, 15)),
    )


def responses(opening: Call) -> tuple[Rule, ...]:
    """The table of responses to partner's opening `opening`."""
    if opening.strain is NT:
        if opening.level == 1:
            return RESPONSES_TO_1NT
        section = f"{BOOK}, Notrump Opening Bids (responses)"
        need = 5 if opening.level == 2 else 7
        return (Rule(_bid(6, NT), "to play", section, (12, 37), points(12)),
                Rule(_bid(3, NT), "to play", section, (need, 11), points(need, 11))
                if opening.level == 2 else Rule(PASS, "to play", section, (0, 6)),
                Rule(PASS, "to play", section, (0, need - 1)))
    if opening.strain is Strain.C and opening.level == 2:
        return RESPONSES_TO_2C
    if opening.level == 1:
        assert opening.strain is not None
        return responses_to_one(opening.strain)
    return responses_to_preempt(opening)
