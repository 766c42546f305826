"""A simple natural bidding system (docs/robots.md, "Our robot's bidding").

High-card points (A 4, K 3, Q 2, J 1) and shape. Openings: 1NT 15–17 balanced, 2NT 20–21
balanced, else with 12+ one of the longest suit (a five-card major first; with no five-card
major the longer minor, 1D with four-four, 1C with three-three). Responses to one of a suit:
raise partner's major with four (6–9 two, 10–12 three, 13+ four), else a four-card major at
the one level (the longer; 6+), else 2NT 10–12 or 3NT 13+ on a balanced hand, else 1NT (6+).
Over 1NT: 2NT 8–9, 3NT 10–15, four of a six-card major with 10+; else pass. Opener's rebid:
game in the major partner raised with 16+ (or 3NT over 2NT with 16+), a raise of partner's
one-level major with four, his own six-card suit again, else 1NT; then pass. The robot does
not compete over the opponents' bids, and doubles nothing. Every call it makes is legal: a
bid that is not sufficient becomes a pass.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared.calls import PASS, Call, Strain
from shared.cards import Card
from shared.seats import Seat

POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
MAJORS = (Strain.S, Strain.H)
_SUIT_STRAIN = {"S": Strain.S, "H": Strain.H, "D": Strain.D, "C": Strain.C}


def hcp(hand: Sequence[Card]) -> int:
    return sum(POINTS.get(c.rank, 0) for c in hand)


def lengths(hand: Sequence[Card]) -> dict[Strain, int]:
    return {strain: sum(1 for c in hand if c.suit == suit) for suit, strain in _SUIT_STRAIN.items()}


def balanced(hand: Sequence[Card]) -> bool:
    """No singleton or void, at most one doubleton (4333, 4432, 5332)."""
    shape = sorted(lengths(hand).values())
    return shape[0] >= 2 and shape[1] >= 3


def _bid(level: int, strain: Strain) -> Call:
    return Call.bid(level, strain)


def _opening(hand: Sequence[Card]) -> Call:
    points, suits = hcp(hand), lengths(hand)
    if balanced(hand) and 15 <= points <= 17:
        return _bid(1, Strain.NT)
    if balanced(hand) and 20 <= points <= 21:
        return _bid(2, Strain.NT)
    if points < 12:
        return PASS
    majors = [s for s in MAJORS if suits[s] >= 5]
    if majors:
        return _bid(1, max(majors, key=lambda s: (suits[s], s.value)))
    if suits[Strain.D] > suits[Strain.C] or suits[Strain.D] == suits[Strain.C] >= 4:
        return _bid(1, Strain.D)
    return _bid(1, Strain.C)


def _response(hand: Sequence[Card], opening: Call) -> Call:
    points, suits = hcp(hand), lengths(hand)
    strain = opening.strain
    if strain is Strain.NT and opening.level == 1:
        long_major = [s for s in MAJORS if suits[s] >= 6]
        if long_major and points >= 10:
            return _bid(4, long_major[0])
        if 8 <= points <= 9:
            return _bid(2, Strain.NT)
        if 10 <= points <= 15:
            return _bid(3, Strain.NT)
        return PASS
    if opening.level != 1 or strain is None or points < 6:
        return PASS
    if strain in MAJORS and suits[strain] >= 4:
        return _bid(2 if points <= 9 else 3 if points <= 12 else 4, strain)
    majors = [m for m in MAJORS if suits[m] >= 4 and m.value > strain.value]
    if majors:  # a new major at the one level, the longer (spades with equal length)
        return _bid(1, max(majors, key=lambda m: (suits[m], m.value)))
    if balanced(hand) and 10 <= points <= 12:
        return _bid(2, Strain.NT)
    if balanced(hand) and points >= 13:
        return _bid(3, Strain.NT)
    return _bid(1, Strain.NT)


def _rebid(hand: Sequence[Card], opening: Call, response: Call) -> Call:
    points, suits = hcp(hand), lengths(hand)
    if response.is_pass or opening.strain is Strain.NT or response.strain is None:
        return PASS
    if response.strain is opening.strain and opening.strain in MAJORS and response.level == 2:
        return _bid(4, opening.strain) if points >= 16 else PASS
    if response.strain is Strain.NT:
        return _bid(3, Strain.NT) if response.level == 2 and points >= 16 else PASS
    if response.level == 1 and response.strain in MAJORS:
        if suits[response.strain] >= 4:
            return _bid(2, response.strain)
        assert opening.strain is not None
        if suits[opening.strain] >= 6:
            return _bid(2, opening.strain)
        return _bid(1, Strain.NT)
    return PASS


def choose_call(hand: Sequence[Card], seat: Seat, dealer: Seat,
                auction: Sequence[Call]) -> Call:
    """The robot's call at `seat` after `auction` (from `dealer`): always a legal one."""
    callers = [_caller(dealer, i) for i in range(len(auction))]
    if any(who.is_opponent_of(seat) and not c.is_pass
           for c, who in zip(auction, callers, strict=True)):
        return PASS  # no competing
    mine = [c for c, who in zip(auction, callers, strict=True) if who is seat and c.is_bid]
    partners = [c for c, who in zip(auction, callers, strict=True)
                if who is seat.partner and c.is_bid]
    if not mine and not partners:
        call = _opening(hand)
    elif not mine:
        call = _response(hand, partners[0])
    elif len(mine) == 1 and len(partners) == 1 and _first_bidder(auction, callers) is seat:
        call = _rebid(hand, mine[0], partners[0])
    else:
        call = PASS
    last = next((c for c in reversed(auction) if c.is_bid), None)
    return call if call.is_pass or call.supersedes(last) else PASS


def _first_bidder(auction: Sequence[Call], callers: Sequence[Seat]) -> Seat | None:
    return next((who for c, who in zip(auction, callers, strict=True) if c.is_bid), None)


def _caller(dealer: Seat, index: int) -> Seat:
    seat = dealer
    for _ in range(index % 4):
        seat = seat.lho
    return seat
