"""What the auction shows of each hand (shared/robot/auction_constraints.py): each call read
through the SAYC tables as the robot's partner reads it, the opponents' too (Law 40B: the
agreements are disclosed; Law 16A1a: the legal calls are authorised information for the
play). A table of auctions from North as dealer and the ranges expected, each row citing
the ACBL SAYC booklet's section the ranges come from."""

from __future__ import annotations

import pytest

from shared.calls import Call, Strain
from shared.robot.auction_constraints import HandLimits, auction_limits, combined
from shared.seats import Seat

pytestmark = pytest.mark.unit

S, H, D, C = Strain.S, Strain.H, Strain.D, Strain.C
BALANCED = {S: (2, 5), H: (2, 5), D: (2, 5), C: (2, 5)}
ANY = HandLimits()


def limits(points: tuple[int, int], lengths: dict[Strain, tuple[int, int]] | None = None
           ) -> HandLimits:
    return HandLimits(points, lengths or {})


# (the auction from North, the seat read, its limits, the booklet's section)
ROWS = [
    ("1NT", Seat.N, limits((15, 17), BALANCED), "Notrump Opening Bids"),
    ("P", Seat.N, limits((0, 11)), "General Approach (a passed hand: 1C takes 12–21)"),
    ("P P P 1S P 1NT", Seat.E, limits((6, 10)),
     "General Approach (passed hand, 0–11) and Responses to one of a suit (1NT 6–10)"),
    ("P P 2S", Seat.S, limits((5, 11), {S: (6, 6)}), "Weak Two-Bids (a good six-card suit)"),
    ("1H", Seat.N, limits((12, 21), {H: (5, 13)}), "General Approach (five-card majors)"),
    ("1D", Seat.N, limits((12, 21), {D: (3, 13)}), "Minor Suit Openings"),
    ("3D", Seat.N, limits((5, 10), {D: (7, 13)}), "Preemptive Bids (seven cards)"),
    ("1D 1S", Seat.E, limits((8, 17), {S: (5, 13)}), "Overcalls (one level, five cards)"),
    ("1C 1NT", Seat.E, limits((15, 18), BALANCED), "Notrump Overcalls (15–18 balanced)"),
    ("1C X", Seat.E, limits((12, 37)), "Takeout Doubles (12+)"),
    ("P 1NT X", Seat.S, limits((16, 37)), "Defense against 1NT (penalty double 16+)"),
    ("1NT P 2D", Seat.S, limits((0, 37), {H: (5, 13)}), "1NT Responses (Jacoby transfer)"),
    ("1NT P 2C P 2H", Seat.N, limits((15, 17), {**BALANCED, H: (4, 5)}),
     "1NT Responses (Stayman: opener shows four hearts)"),
    ("1S P 2S P P P", Seat.N, limits((12, 15), {S: (5, 13)}),
     "Opener's Rebids (passes a single raise with a minimum)"),
    ("1C P 1H P 1NT", Seat.N, limits((12, 14), {**BALANCED, C: (3, 5)}),
     "Opener's Rebids (1NT: balanced, a minimum)"),
    ("1C P 1H", Seat.S, limits((6, 37), {H: (4, 13)}),
     "Responses to one of a suit (a new suit at one: four cards, 6+)"),
    ("1D P 2NT", Seat.S, limits((13, 15), BALANCED), "Minor Suit Openings (2NT 13–15)"),
    ("7C", Seat.N, ANY, "none: a call the system would not make shows nothing"),
    ("1H 2H", Seat.E, ANY, "none: a cue bid the system has no rule for"),
]


@pytest.mark.parametrize(("auction", "seat", "expected", "section"), ROWS,
                         ids=[f"{r[0]}:{r[1].name}" for r in ROWS])
def test_the_auction_limits_each_hand_as_the_booklet_says(auction: str, seat: Seat,
                                                          expected: HandLimits,
                                                          section: str) -> None:
    """Law 40B (the agreements, disclosed), Law 16A1a (the calls are authorised
    information): the ranges of the booklet's section `section`."""
    found = auction_limits(Seat.N, [Call.parse(c) for c in auction.split()])[seat]
    assert found.hcp == expected.hcp, section
    assert {s: found.length(s) for s in (S, H, D, C)} == \
        {s: expected.length(s) for s in (S, H, D, C)}, section


def test_a_later_call_outside_the_ranges_before_stands() -> None:
    """A hand that showed 15–17 and then makes a call of 18–19 (a call beyond the system,
    Law 40B's disclosure read as it stands): the later range stands, the lengths meet."""
    first = HandLimits((15, 17), {S: (2, 5)})
    then = HandLimits((18, 19), {S: (4, 13), H: (0, 3)})
    assert combined(first, then) == HandLimits((18, 19), {S: (4, 5), H: (0, 3)})


def test_limits_admit_a_hand_by_its_points_and_lengths() -> None:
    """The check the sampler makes of a dealt hand (Law 16A1a: the calls' meanings)."""
    opened = HandLimits((15, 17), BALANCED)
    assert opened.admits(16, {S: 4, H: 3, D: 3, C: 3})
    assert not opened.admits(18, {S: 4, H: 3, D: 3, C: 3})
    assert not opened.admits(16, {S: 6, H: 3, D: 2, C: 2})
