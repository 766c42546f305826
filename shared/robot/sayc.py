"""Our robot's bidding system: the Standard American Yellow Card as the ACBL SAYC System
Booklet (revised January 2006) states it (docs/robots.md, "Bidding: SAYC").

The auction so far chooses a table of rules (shared/robot/sayc_openings.py,
sayc_responses.py, sayc_rebids.py, sayc_competitive.py; where the booklet's tables stop, the
placement of sayc_placement.py); the first rule that fits the hand and is a legal call is
made. Every call carries its rule: its meaning, and whether the ACBL alert procedure has it
alerted or announced (`Decision.rule.alert_text()`). Partner's calls are read through the
same tables (`explain`), so the robot knows what they showed: the pair's agreements are the
tables, the same for the robot, its partner and the opponents who ask (Laws 20F, 40B)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from shared.calls import DOUBLE, PASS, Call, CallKind, Strain
from shared.cards import Card
from shared.robot.meaning import SUITS, Convention, Decision, Hand, Rule
from shared.robot.sayc_competitive import (
    advancing_double,
    advancing_overcall,
    after_overcall,
    answer_negative,
    over_opening,
)
from shared.robot.sayc_openings import OPENINGS
from shared.robot.sayc_placement import BLACKWOOD_ANSWERS, Shown, after_answer, placement
from shared.robot.sayc_rebids import opener_rebids, opener_third, responder_rebids
from shared.robot.sayc_responses import responses
from shared.seats import Seat

Auction = tuple[Call, ...]


def _caller(dealer: Seat, index: int) -> Seat:
    seat = dealer
    for _ in range(index % 4):
        seat = seat.lho
    return seat


def legal(call: Call, dealer: Seat, auction: Sequence[Call]) -> bool:
    """Law 18B (a bid supersedes the last), Law 19A1/19B1 (double an opponent's bid,
    redouble an opponent's double, nothing since but passes)."""
    last = next((i for i in range(len(auction) - 1, -1, -1) if not auction[i].is_pass), None)
    if call.is_pass:
        return True
    caller = _caller(dealer, len(auction))
    if call.is_bid:
        bids = [c for c in auction if c.is_bid]
        return call.level <= 7 and call.supersedes(bids[-1] if bids else None)
    if last is None or not _caller(dealer, last).is_opponent_of(caller):
        return False
    wanted = CallKind.BID if call.kind is CallKind.DOUBLE else CallKind.DOUBLE
    return auction[last].kind is wanted


@lru_cache(maxsize=32768)
def table(dealer: Seat, auction: Auction) -> tuple[Rule, ...]:
    """The rules for the next call after `auction` (from `dealer`)."""
    me = _caller(dealer, len(auction))
    partner = me.partner
    acts = [(i, c) for i, c in enumerate(auction) if not c.is_pass]
    mine = [c for i, c in acts if _caller(dealer, i) is me]
    partners = [c for i, c in acts if _caller(dealer, i) is partner]
    theirs = [(i, c) for i, c in acts if _caller(dealer, i).is_opponent_of(me)]
    ours = [(i, c) for i, c in acts if not _caller(dealer, i).is_opponent_of(me)]
    asked = [i for i, c in ours if c == Call.bid(4, Strain.NT) and _blackwood(dealer, auction, i)]
    if asked:
        asker = _caller(dealer, asked[-1])
        after = [c for i, c in ours if i > asked[-1]]
        if asker is partner and not after and acts[-1][0] == asked[-1]:
            return BLACKWOOD_ANSWERS
        if asker is me and len(after) == 1 and after[0].level == 5 and after[0].strain in SUITS:
            return after_answer(after[0], _trump(dealer, auction, me))
    if not acts:
        return OPENINGS
    opened_at, opening = acts[0]
    opener = _caller(dealer, opened_at)
    found: tuple[Rule, ...] | None = None
    if opener is partner and not mine:
        if partners == [opening] and not theirs:
            found = responses(opening)
        elif partners == [opening] and len(theirs) == 1 and theirs[0][0] == opened_at + 1 \
                and opening.level == 1 and opening.strain in SUITS:
            found = after_overcall(opening, theirs[0][1])
    elif opener is partner and len(mine) == 1 and len(partners) == 2 and not theirs:
        found = responder_rebids(opening, mine[0], partners[1])
    elif opener is me and mine == [opening] and len(partners) == 1:
        if not theirs:
            found = opener_rebids(opening, partners[0])
        elif partners[0] == DOUBLE and len(theirs) == 1 and _rule(
                dealer, auction, _last_of(dealer, auction, partner), Convention.NEGATIVE_DOUBLE):
            found = answer_negative(opening, theirs[0][1])
    elif opener is me and len(mine) == 2 and len(partners) == 2 and not theirs:
        found = opener_third(opening, partners[0], mine[1], partners[1])
    elif opener.is_opponent_of(me) and not mine:
        if not partners and len(theirs) == 1:
            found = over_opening(opening)
        elif partners == [DOUBLE] and len(theirs) == 1 and auction[-1].is_pass:
            found = advancing_double(opening)
        elif len(partners) == 1 and partners[0].is_bid:
            found = advancing_overcall(partners[0])
    if found is not None:
        return found
    bids = [(i, c) for i, c in acts if c.is_bid]
    our_bids = [c for i, c in ours if c.is_bid]
    return placement(shown(dealer, auction, partner), our_bids[-1] if our_bids else None,
                     bids[-1][1] if bids else None,
                     bool(bids) and _caller(dealer, bids[-1][0]).is_opponent_of(me),
                     bool(asked))


def _last_of(dealer: Seat, auction: Auction, seat: Seat) -> int:
    return max(i for i in range(len(auction)) if _caller(dealer, i) is seat)


def _blackwood(dealer: Seat, auction: Auction, index: int) -> bool:
    """4NT asks for aces unless the system gives it another meaning there (quantitative
    over partner's notrump)."""
    rule = explain(dealer, auction[:index], auction[index])
    return rule is None or rule.convention is Convention.BLACKWOOD


def _rule(dealer: Seat, auction: Auction, index: int, convention: Convention) -> bool:
    rule = explain(dealer, auction[:index], auction[index])
    return rule is not None and rule.convention is convention


def explain(dealer: Seat, before: Sequence[Call], call: Call) -> Rule | None:
    """The rule of the system a call made after `before` follows (its meaning): the first of
    the caller's table with that call; None for a call the system would not make there."""
    return next((r for r in table(dealer, tuple(before)) if r.call == call), None)


def shown(dealer: Seat, auction: Auction, seat: Seat) -> Shown:
    """What `seat`'s calls in `auction` have shown, read through the system."""
    low, high, lengths = 0, 37, dict[Strain, int]()
    for index, call in enumerate(auction):
        if _caller(dealer, index) is not seat:
            continue
        rule = explain(dealer, auction[:index], call)
        if rule is None:
            continue
        low, high = max(low, rule.points[0]), min(high, rule.points[1])
        for strain, count in rule.shows.items():
            lengths[strain] = max(lengths.get(strain, 0), count)
    return Shown(low, max(low, high), lengths)


def _trump(dealer: Seat, auction: Auction, me: Seat) -> Strain:
    """The suit the pair showed most cards in between them (Blackwood's trump)."""
    mine, theirs = shown(dealer, auction, me), shown(dealer, auction, me.partner)
    combined = {s: mine.lengths.get(s, 0) + theirs.lengths.get(s, 0) for s in SUITS}
    best = max(SUITS, key=lambda s: (combined[s], s.value))
    return best if combined[best] >= 5 else Strain.NT


def decide(hand: Sequence[Card], seat: Seat, dealer: Seat,
           auction: Sequence[Call]) -> Decision:
    """The robot's call at `seat` after `auction` (from `dealer`), with its rule: always a
    legal call (a rule whose call is not is passed over)."""
    assert _caller(dealer, len(auction)) is seat
    facts = Hand.of(hand)
    for rule in table(dealer, tuple(auction)):
        if rule.when(facts) and legal(rule.call, dealer, auction):
            return Decision(rule.call, rule)
    return Decision(PASS, _NOTHING)


_NOTHING = Rule(PASS, "no rule applies", "ACBL SAYC booklet")


def choose_call(hand: Sequence[Card], seat: Seat, dealer: Seat,
                auction: Sequence[Call]) -> Call:
    """The call alone (the natural system's signature, for the bench and the tests)."""
    return decide(hand, seat, dealer, auction).call



