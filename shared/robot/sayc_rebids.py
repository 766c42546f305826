"""SAYC's rebids in the uncontested auction, as the ACBL SAYC System Booklet (revised January
2006) states them: opener's rebid after the response, and the conventions' continuations
(Stayman's answers and responder's choice after them, a transfer's acceptance and what
follows). Tables of rules by the auction; an auction with no table here goes to the
placement (shared/robot/sayc_placement.py)."""

from __future__ import annotations

from shared.calls import PASS, Call, Strain
from shared.robot.meaning import MAJORS, SUITS, Convention, Rule, both, holds, longest_is, points

BOOK = "ACBL SAYC booklet"
NT = Strain.NT
S, H = Strain.S, Strain.H


def _bid(level: int, strain: Strain) -> Call:
    return Call.bid(level, strain)


def _after_1nt(response: Call) -> tuple[Rule, ...] | None:
    section = f"{BOOK}, 1NT Responses"
    if response == _bid(2, Strain.C):
        return (Rule(_bid(2, H), "Stayman answer: four hearts (maybe four spades too)",
                     f"{section} (Stayman)", (15, 17), lambda h: h.length(H) >= 4, {H: 4}),
                Rule(_bid(2, S), "Stayman answer: four spades, not four hearts",
                     f"{section} (Stayman)", (15, 17), lambda h: h.length(S) >= 4, {S: 4}),
                Rule(_bid(2, Strain.D), "Stayman answer: no four-card major",
                     f"{section} (Stayman)", (15, 17)))
    for ask, major in ((Strain.D, H), (H, S)):
        if response == _bid(2, ask):
            return (Rule(_bid(3, major), f"accepts the transfer: a maximum, four {major.name}",
                         f"{section} (Jacoby transfers)", (17, 17),
                         both(points(17), holds(major, 4)), {major: 4}),
                    Rule(_bid(2, major), "accepts the transfer", f"{section} (Jacoby "
                         "transfers)", (15, 17), shows={major: 2}))
    if response == _bid(2, NT):
        return (Rule(_bid(3, NT), "a maximum", section, (16, 17), points(16)),
                Rule(PASS, "a minimum", section, (15, 15)))
    if response == _bid(4, NT):
        return (Rule(_bid(6, NT), "a maximum", section, (17, 17), points(17)),
                Rule(PASS, "a minimum", section, (15, 16)))
    return None


def _after_one(opening: Strain, response: Call) -> tuple[Rule, ...] | None:
    section = f"{BOOK}, Opener's Rebids"
    theirs = response.strain
    assert theirs is not None
    mine_again = [Rule(_bid(3, opening), f"six or more {opening.name}, invitational", section,
                       (16, 18), both(points(16, 18), lambda h: h.length(opening) >= 6),
                       {opening: 6}),
                  Rule(_bid(2, opening), f"six or more {opening.name}, a minimum", section,
                       (12, 15), both(points(12, 15), lambda h: h.length(opening) >= 6),
                       {opening: 6})]
    if theirs is opening:  # a raise
        game = (4, opening) if opening in MAJORS else (3, NT)
        if response.level == 2:
            return (Rule(_bid(*game), "game", section, (19, 37), points(19)),
                    Rule(_bid(3, opening), "invitational", section, (16, 18), points(16, 18)),
                    Rule(PASS, "a minimum", section, (12, 15)))
        if response.level == 3:
            return (Rule(_bid(4, NT), "Blackwood: asks for aces", f"{BOOK}, Slam Bidding",
                         (21, 37), points(21), convention=Convention.BLACKWOOD),
                    Rule(_bid(*game), "accepts the invitation", section, (14, 37), points(14)),
                    Rule(PASS, "declines the invitation", section, (12, 13)))
        return (Rule(PASS, "to play", section),)
    if response == _bid(2, NT) and opening in MAJORS:  # Jacoby 2NT
        return (Rule(_bid(3, opening), "extras, no shortness (Jacoby 2NT)", section, (16, 37),
                     points(16)),
                Rule(_bid(4, opening), "a minimum (Jacoby 2NT)", section, (12, 15)))
    if theirs is NT:
        if response.level == 1:
            return (*mine_again,
                    Rule(_bid(2, NT), "balanced, invitational", section, (18, 19),
                         both(points(18, 19), lambda h: h.balanced)),
                    *(Rule(_bid(2, s), f"four or more {s.name}, not a reverse", section,
                           (12, 18), holds(s, 4), {s: 4})
                      for s in SUITS if s.value < opening.value),
                    Rule(PASS, "balanced, a minimum", section, (12, 17)))
        return (Rule(_bid(3, NT), "to play", section, (12, 37)),) if response.level == 2 \
            else (Rule(PASS, "to play", section),)
    if response.level == 1:  # a new suit at the one level, forcing
        support = [Rule(_bid(4, theirs), "four-card support, game values", section, (19, 37),
                        both(points(19), lambda h: h.length(theirs) >= 4), {theirs: 4}),
                   Rule(_bid(3, theirs), "four-card support, invitational", section, (16, 18),
                        both(points(16, 18), lambda h: h.length(theirs) >= 4), {theirs: 4}),
                   Rule(_bid(2, theirs), "four-card support, a minimum", section, (12, 15),
                        lambda h: h.length(theirs) >= 4, {theirs: 4})]
        new_one = [Rule(_bid(1, s), f"four or more {s.name}", section, (12, 18),
                        holds(s, 4), {s: 4})
                   for s in (H, S) if s.value > theirs.value]
        lower = [Rule(_bid(2, s), f"four or more {s.name}, not a reverse", section, (12, 18),
                      holds(s, 4), {s: 4})
                 for s in SUITS if s.value < opening.value]
        return (*support, *mine_again, *new_one,
                Rule(_bid(2, NT), "balanced", section, (18, 19),
                     both(points(18, 19), lambda h: h.balanced)),
                Rule(_bid(1, NT), "balanced, a minimum", section, (12, 14),
                     both(points(12, 14), lambda h: h.balanced)),
                *lower,
                Rule(_bid(2, opening), f"five or more {opening.name}", section, (12, 18),
                     shows={opening: 5}))
    if response.level == 2 and theirs.value < opening.value:  # two over one, forcing
        return (Rule(_bid(3, theirs), f"four-card support for {theirs.name}", section,
                     (12, 37), lambda h: h.length(theirs) >= 4, {theirs: 4}),
                *mine_again,
                Rule(_bid(3, NT), "balanced, extras", section, (15, 18),
                     both(points(15, 18), lambda h: h.balanced)),
                Rule(_bid(2, NT), "balanced, a minimum", section, (12, 14),
                     lambda h: h.balanced),
                Rule(_bid(2, opening), f"five or more {opening.name}", section, (12, 18),
                     shows={opening: 5}))
    return None


def _after_2c(response: Call) -> tuple[Rule, ...] | None:
    section = f"{BOOK}, Strong 2C Opening (opener's rebids)"
    if response == _bid(2, Strain.D):
        return (Rule(_bid(2, NT), "balanced", section, (22, 24),
                     both(points(22, 24), lambda h: h.balanced)),
                Rule(_bid(3, NT), "balanced", section, (28, 37),
                     both(points(28), lambda h: h.balanced)),
                *(Rule(_bid(2 if s in MAJORS else 3, s), f"five or more {s.name}", section,
                       (22, 37), both(holds(s, 5), longest_is(s)), {s: 5})
                  for s in SUITS),
                Rule(_bid(2, NT), "the hand's best description", section, (22, 37)))
    return None


def opener_rebids(opening: Call, response: Call) -> tuple[Rule, ...] | None:
    """Opener's rebid after partner's response (the opponents silent), or None: no table."""
    if opening == _bid(1, NT):
        return _after_1nt(response)
    if opening == _bid(2, Strain.C):
        return _after_2c(response)
    if opening.level == 1 and opening.strain is not None and response.is_bid:
        return _after_one(opening.strain, response)
    return None


def responder_rebids(opening: Call, response: Call, rebid: Call) -> tuple[Rule, ...] | None:
    """Responder's second call after Stayman's answer or the transfer's acceptance."""
    if opening != _bid(1, NT):
        return None
    section = f"{BOOK}, 1NT Responses"
    if response == _bid(2, Strain.C) and rebid.strain is not None:
        fit = [m for m in (H, S) if rebid == _bid(2, m)]
        fitted = (Rule(_bid(4, fit[0]), "to play", f"{section} (Stayman)", (10, 15),
                       both(points(10, 15), lambda h: h.length(fit[0]) >= 4)),
                  Rule(_bid(3, fit[0]), "invitational", f"{section} (Stayman)", (8, 9),
                       both(points(8, 9), lambda h: h.length(fit[0]) >= 4))) if fit else ()
        return (*fitted,
                Rule(_bid(3, NT), "to play (opener corrects to four spades with four)",
                     f"{section} (Stayman)", (10, 15), points(10, 15)),
                Rule(_bid(2, NT), "invitational", f"{section} (Stayman)", (8, 9),
                     points(8, 9)),
                Rule(PASS, "to play", f"{section} (Stayman)", (0, 7)))
    for ask, major in ((Strain.D, H), (H, S)):
        if response == _bid(2, ask) and rebid.strain is major:
            section = f"{section} (Jacoby transfers)"
            if rebid.level == 3:  # a super-acceptance
                return (Rule(_bid(4, major), "to play", section, (6, 15), points(6, 15)),
                        Rule(PASS, "to play", section, (0, 5)))
            return (Rule(_bid(4, major), "six or more, to play", section, (10, 15),
                         both(points(10, 15), holds(major, 6)),
                         {major: 6}),
                    Rule(_bid(3, NT), "five exactly: choose 3NT or four of the major", section,
                         (10, 15), points(10, 15), {major: 5}),
                    Rule(_bid(3, major), "six or more, invitational", section, (8, 9),
                         both(points(8, 9), holds(major, 6)), {major: 6}),
                    Rule(_bid(2, NT), "five exactly, invitational", section, (8, 9),
                         points(8, 9), {major: 5}),
                    Rule(PASS, "to play", section, (0, 7)))
    return None


def opener_third(opening: Call, response: Call, rebid: Call,
                 second: Call) -> tuple[Rule, ...] | None:
    """Opener's choice after Stayman or a transfer and responder's notrump."""
    if opening != _bid(1, NT) or second.strain is not NT or second.level not in (2, 3):
        return None
    section = f"{BOOK}, 1NT Responses"
    invited = second.level == 2
    if response == _bid(2, Strain.C) and rebid == _bid(2, H):
        game = [Rule(_bid(4, S), "four spades too, accepts", f"{section} (Stayman)",
                     (16, 17), both(points(16), lambda h: h.length(S) >= 4), {S: 4})]
        invite = [Rule(_bid(3, S), "four spades too, declines", f"{section} (Stayman)",
                       (15, 15), lambda h: h.length(S) >= 4, {S: 4})] if invited else []
        if not invited:
            game = [Rule(_bid(4, S), "four spades too", f"{section} (Stayman)", (15, 17),
                         lambda h: h.length(S) >= 4, {S: 4})]
        return (*game, *invite, *_notrump_answer(invited, f"{section} (Stayman)"))
    for ask, major in ((Strain.D, H), (H, S)):
        if response == _bid(2, ask) and rebid == _bid(2, major):
            section = f"{section} (Jacoby transfers)"
            fit = [Rule(_bid(4, major), "three-card support, accepts", section, (16, 17),
                        both(points(16) if invited else points(15),
                             holds(major, 3)), {major: 3})]
            if invited:
                fit.append(Rule(_bid(3, major), "three-card support, declines", section,
                                (15, 15), holds(major, 3), {major: 3}))
            return (*fit, *_notrump_answer(invited, section))
    return None


def _notrump_answer(invited: bool, section: str) -> tuple[Rule, ...]:
    if invited:
        return (Rule(_bid(3, NT), "accepts", section, (16, 17), points(16)),
                Rule(PASS, "declines", section, (15, 15)))
    return (Rule(PASS, "to play", section, (15, 17)),)

