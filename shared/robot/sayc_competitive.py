"""SAYC's competitive bidding, as the ACBL SAYC System Booklet (revised January 2006) states
it: overcalls and takeout doubles over the opponents' opening, the advancer's answers,
negative doubles (through 2S) over an overcall of partner's opening, opener's answer to a
negative double."""

from __future__ import annotations

from functools import cache

from shared.calls import DOUBLE, PASS, REDOUBLE, Call, Strain
from shared.robot.meaning import (
    MAJORS,
    SUITS,
    Convention,
    Hand,
    Rule,
    Test,
    always,
    both,
    good,
    holds,
    longest_is,
    points,
)
from shared.robot.sayc_responses import responses_to_one

BOOK = "ACBL SAYC booklet"
NT = Strain.NT


def _bid(level: int, strain: Strain) -> Call:
    return Call.bid(level, strain)


def _cheapest(strain: Strain, over: Call) -> int:
    """The lowest level at which `strain` is sufficient over `over`."""
    return over.level if strain.value > (over.strain or NT).value else over.level + 1


def _short_in(theirs: Strain) -> Test:
    return lambda h: h.length(theirs) <= 2 and all(
        h.length(s) >= 3 for s in SUITS if s is not theirs)



@cache
def over_opening(theirs: Call) -> tuple[Rule, ...]:
    """Our first call over the opponents' opening bid `theirs`."""
    strain = theirs.strain
    assert strain is not None
    if strain is NT:
        section = f"{BOOK}, Defense against 1NT"
        return (Rule(DOUBLE, "penalty", section, (16, 37), points(16),
                     convention=Convention.PENALTY_DOUBLE),
                *(Rule(_bid(theirs.level + 1, s), f"six or more {s.name}", section, (10, 15),
                       both(points(10, 15), holds(s, 6), good(s)),
                       {s: 6}) for s in SUITS),
                Rule(PASS, "no action", section))
    overcalls = f"{BOOK}, Overcalls"
    rules = [Rule(_bid(theirs.level, NT), f"balanced, a stopper in {strain.name}",
                  f"{BOOK}, Notrump Overcalls", (15, 18),
                  both(points(15, 18), lambda h: h.balanced and h.stopper(strain)))
             ] if theirs.level == 1 else []
    rules.append(Rule(DOUBLE, "takeout: short in their suit, support for the others, or "
                      "a strong hand", f"{BOOK}, Takeout Doubles", (12, 37),
                      lambda h: (h.hcp >= 12 and _short_in(strain)(h)) or h.hcp >= 18,
                      convention=Convention.TAKEOUT_DOUBLE))
    for suit in SUITS:
        if suit is strain:
            continue
        level = _cheapest(suit, theirs)
        low = 8 if level == 1 else 11
        rules.append(Rule(_bid(level, suit), f"five or more {suit.name}", overcalls, (low, 17),
                          both(points(low, 17), holds(suit, 5), longest_is(suit),
                               always if level == 1 else good(suit)),
                          {suit: 5}))
        if level < 3 and theirs.level == 1:
            rules.append(Rule(_bid(level + 1, suit), f"weak jump overcall: six or more "
                              f"{suit.name}", overcalls, (6, 10),
                              both(points(6, 10), holds(suit, 6), good(suit)), {suit: 6}))
    rules.append(Rule(PASS, "no action", overcalls, (0, 17)))
    return tuple(rules)


@cache
def advancing_double(theirs: Call) -> tuple[Rule, ...]:
    """Partner doubled their opening `theirs` for takeout, the next opponent passed."""
    strain = theirs.strain
    assert strain is not None
    section = f"{BOOK}, Takeout Doubles (responses)"
    rules: list[Rule] = []
    for suit in (*MAJORS, Strain.D, Strain.C):
        if suit is strain:
            continue
        level = _cheapest(suit, theirs)
        if suit in MAJORS:
            rules.append(Rule(_bid(4, suit), "to play", section, (12, 37),
                              both(points(12), holds(suit, 4)), {suit: 4}))
        rules.append(Rule(_bid(level + 1, suit), f"four or more {suit.name}, invitational",
                          section, (9, 11), both(points(9, 11), holds(suit, 4),
                                                 _best_is(suit, strain)),
                          {suit: 4}))
    rules.append(Rule(_bid(3, NT), f"a stopper in {strain.name}", section, (12, 37),
                      both(points(12), lambda h: h.stopper(strain))))
    rules.append(Rule(_bid(theirs.level, NT) if theirs.level == 1 else _bid(2, NT),
                      f"a stopper in {strain.name}, no four-card major", section, (6, 10),
                      both(points(6, 10), lambda h: h.stopper(strain)
                           and h.length(Strain.S) < 4 and h.length(Strain.H) < 4)))
    for suit in (*MAJORS, Strain.D, Strain.C):
        if suit is not strain:
            rules.append(Rule(_bid(_cheapest(suit, theirs), suit), f"{suit.name}, the longest",
                              section, (0, 11), _best_is(suit, strain)))
    return tuple(rules)


def _best_is(suit: Strain, theirs: Strain) -> Test:
    return lambda h: _best(h, theirs) is suit


def _best(h: Hand, theirs: Strain) -> Strain:
    """The suit to answer a takeout double in: the longest but theirs, a major first."""
    return max((s for s in SUITS if s is not theirs),
               key=lambda s: (h.length(s), s in MAJORS, s.value))


@cache
def advancing_overcall(ours: Call) -> tuple[Rule, ...]:
    """Partner overcalled `ours`: raise with three-card support, else pass."""
    strain = ours.strain
    assert strain is not None
    section = f"{BOOK}, Overcalls (responses)"
    game = 4 if strain in MAJORS else 5
    return (Rule(_bid(game, strain), "to play", section, (14, 37),
                 both(points(14), lambda h: h.length(strain) >= 3), {strain: 3}),
            Rule(_bid(ours.level + 2, strain), "invitational raise", section, (11, 13),
                 both(points(11, 13), lambda h: h.length(strain) >= 3), {strain: 3}),
            Rule(_bid(ours.level + 1, strain), "a raise", section, (7, 10),
                 both(points(7, 10), lambda h: h.length(strain) >= 3), {strain: 3}),
            Rule(PASS, "no fit or too weak", section, (0, 13)))


@cache
def after_overcall(ours: Call, theirs: Call) -> tuple[Rule, ...]:
    """Partner opened `ours` (one of a suit), the next opponent overcalled `theirs`."""
    opened, strain = ours.strain, theirs.strain
    assert opened is not None
    section = f"{BOOK}, Negative Doubles"
    if theirs == DOUBLE:
        return (Rule(REDOUBLE, "10 or more HCP", f"{BOOK}, Responses after a takeout double",
                     (10, 37), points(10)), *responses_to_one(opened))
    assert strain is not None
    rules: list[Rule] = []
    if opened in MAJORS:
        game = _bid(4, opened)
        rules += [Rule(game, "to play: three-card support", section, (13, 37),
                       both(points(13), lambda h: h.length(opened) >= 3), {opened: 3}),
                  Rule(_bid(_cheapest(opened, theirs) + 1, opened),
                       "limit raise: three-card support", section, (10, 12),
                       both(points(10, 12), lambda h: h.length(opened) >= 3), {opened: 3}),
                  Rule(_bid(_cheapest(opened, theirs), opened), "three-card support",
                       section, (6, 9), both(points(6, 9), lambda h: h.length(opened) >= 3),
                       {opened: 3})]
    unbid = [m for m in MAJORS if m not in (opened, strain)]
    if theirs.level <= 2 and strain is not NT and (theirs.level == 1 or strain.value
                                                   <= Strain.S.value):
        low = 6 if theirs.level == 1 else 8
        rules.append(Rule(DOUBLE, "negative: four cards in the unbid major"
                          + ("s" if len(unbid) > 1 else ""), section, (low, 37),
                          both(points(low), lambda h: bool(unbid) and all(
                              h.length(m) >= 4 for m in unbid)),
                          {m: 4 for m in unbid}, convention=Convention.NEGATIVE_DOUBLE))
    for suit in SUITS:
        if suit in (opened, strain):
            continue
        level = _cheapest(suit, theirs)
        low = 6 if level == 1 else 10
        rules.append(Rule(_bid(level, suit), f"five or more {suit.name}, forcing", section,
                          (low, 37), both(points(low), holds(suit, 5)),
                          {suit: 5}))
    stop = (lambda h: h.stopper(strain)) if strain is not NT else (lambda h: False)
    rules += [Rule(_bid(3, NT), f"a stopper in {strain.name}", section, (13, 37),
                   both(points(13), stop)),
              Rule(_bid(_cheapest(NT, theirs), NT), f"a stopper in {strain.name}", section,
                   (8, 12), both(points(8, 12), stop))]
    if opened not in MAJORS:
        rules.append(Rule(_bid(_cheapest(opened, theirs), opened), f"support for {opened.name}",
                          section, (6, 10), both(points(6, 10), lambda h: h.length(opened) >= 5),
                          {opened: 5}))
    rules.append(Rule(PASS, "no fitting call", section, (0, 12)))
    return tuple(rules)


@cache
def answer_negative(ours: Call, theirs: Call) -> tuple[Rule, ...]:
    """Opener's rebid after partner's negative double of `theirs`."""
    opened, strain = ours.strain, theirs.strain
    assert opened is not None and strain is not None
    section = f"{BOOK}, Negative Doubles (opener's rebid)"
    rules: list[Rule] = []
    for major in MAJORS:
        if major in (opened, strain):
            continue
        level = _cheapest(major, theirs)
        rules += [Rule(_bid(level + 1, major), f"four {major.name}, extras", section,
                       (16, 37), both(points(16), holds(major, 4)),
                       {major: 4}),
                  Rule(_bid(level, major), f"four {major.name}", section, (12, 15),
                       holds(major, 4), {major: 4})]
    rules += [Rule(_bid(_cheapest(opened, theirs), opened), f"six or more {opened.name}",
                   section, (12, 18), lambda h: h.length(opened) >= 6, {opened: 6}),
              Rule(_bid(_cheapest(NT, theirs), NT), f"a stopper in {strain.name}", section,
                   (12, 14), lambda h: strain is not NT and h.stopper(strain)),
              *(Rule(_bid(_cheapest(s, theirs), s), f"four or more {s.name}", section,
                     (12, 18), holds(s, 4))
                for s in SUITS if s not in (opened, strain)),
              Rule(_bid(_cheapest(opened, theirs), opened), f"{opened.name} again", section,
                   (12, 18))]
    return tuple(rules)
