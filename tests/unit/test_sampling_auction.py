"""The robot's samples read the auction (shared/robot/sampling.py): every hidden hand dealt
inside the ranges its calls showed (Law 16A1a: the legal calls and plays are authorised
information; Law 40B: the agreements are disclosed), none in a suit it showed out of (Law
44C), no card the seat saw; impossible limits relaxed in the stated order, in a bounded
number of tries; the same samples for the same seed; and only what the seat may see as
input (Law 41D: dummy once the opening lead is faced)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from shared.calls import Call, Strain
from shared.cards import Card
from shared.robot.auction_constraints import auction_limits
from shared.robot.bidding import hcp, lengths
from shared.robot.play import choose_card
from shared.robot.sampling import DECK, TRIES, Level, Seen, deals, shown_out
from shared.seats import Seat

pytestmark = pytest.mark.unit

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def hand(text: str) -> tuple[Card, ...]:
    """`S.H.D.C` (PBN) → cards."""
    return tuple(Card.parse(s + r) for s, ranks in zip("SHDC", text.split("."), strict=True)
                 for r in ranks)


def calls(text: str) -> tuple[Call, ...]:
    return tuple(Call.parse(c) for c in text.split())


# North opens 1NT (15–17, balanced), South raises to 3NT (10–15): East leads, West's hand,
# North's and South's are hidden from East
DEAL = {Seat.N: hand("AQ4.KJ3.KT82.A93"),  # 16, balanced
        Seat.E: hand("KJ982.Q64.75.862"),
        Seat.S: hand("75.A85.AQJ4.KJ54"),  # 13
        Seat.W: hand("T63.T972.963.QT7")}
AUCTION = calls("1NT P 3NT P P P")


def view(deal: Mapping[Seat, tuple[Card, ...]], seat: Seat, dummy: Seat,
         played: Sequence[tuple[Seat, Card]], auction: tuple[Call, ...]) -> Seen:
    """What `seat` may see (as the robot is told it by the host): its hand, dummy's once the
    opening lead is faced (Law 41D), the cards played, the auction."""
    hands = {seat: deal[seat]}
    if played:
        hands[dummy] = deal[dummy]
    return Seen(hands, list(played), shown_out(played), Seat.N, auction)


def whole(sampled: Mapping[Seat, Sequence[Card]], played: Sequence[tuple[Seat, Card]],
          seat: Seat) -> list[Card]:
    """A hand as dealt: what the sample gives it and what it played."""
    return [*sampled[seat], *(c for who, c in played if who is seat)]


def test_every_sample_fits_what_the_auction_showed() -> None:
    """Law 16A1a, Law 40B: North's 1NT (15–17 balanced) and South's 3NT (10–15) shape every
    sample of East's opening lead."""
    limits = auction_limits(Seat.N, AUCTION)
    found = deals(view(DEAL, Seat.E, Seat.S, [], AUCTION), random.Random(1), 50)
    assert len(found) == 50
    for sampled in found:
        for seat in (Seat.N, Seat.S, Seat.W):
            assert limits[seat].admits(hcp(sampled[seat]), lengths(sampled[seat])), seat
        assert 15 <= hcp(sampled[Seat.N]) <= 17
        assert all(2 <= n <= 5 for n in lengths(sampled[Seat.N]).values())


def test_mid_play_the_hand_as_dealt_fits_and_no_seen_card_is_dealt() -> None:
    """Law 16A1a, Law 44C: after two tricks, each hidden hand's cards with those it played
    fit its limits; no sample holds a card the seat holds, sees in dummy, or saw played."""
    played = [(Seat.E, Card.parse("SJ")), (Seat.S, Card.parse("S5")),
              (Seat.W, Card.parse("S3")), (Seat.N, Card.parse("SQ")),
              (Seat.N, Card.parse("D2")), (Seat.E, Card.parse("D5")),
              (Seat.S, Card.parse("DQ")), (Seat.W, Card.parse("D3"))]
    seen = view(DEAL, Seat.E, Seat.S, played, AUCTION)
    limits = auction_limits(Seat.N, AUCTION)
    seen_cards = {*DEAL[Seat.E], *DEAL[Seat.S], *(c for _, c in played)}
    for sampled in deals(seen, random.Random(7), 40):
        for seat in (Seat.N, Seat.W):
            dealt = whole(sampled, played, seat)
            assert len(dealt) == 13
            assert limits[seat].admits(hcp(dealt), lengths(dealt)), seat
            assert not set(sampled[seat]) & seen_cards
        held = [c for s in SEATS for c in sampled[s]]
        assert sorted(held, key=DECK.index) == [
            c for c in DECK if c not in {c for _, c in played}]


class CountingRandom(random.Random):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.shuffles = 0

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        self.shuffles += 1
        super().shuffle(x)


def test_limits_no_deal_can_meet_are_relaxed_in_bounded_tries() -> None:
    """North's 1NT (15–17) and East's penalty double (16+) each fit the unseen cards, but
    not together: West and dummy South hold 15 of the 40 points. The sampler relaxes its
    levels in order (the HCP widened, the lengths dropped, the auction dropped) and deals,
    never raising, never hanging (Law 16A1a: the calls read; a misbid is not a fact)."""
    deal = {Seat.N: hand("AQ4.KJ3.KT82.Q93"), Seat.E: hand("KJ982.KQ4.A7.862"),
            Seat.S: hand("75.A85.QJ64.KJ54"), Seat.W: hand("T63.T972.953.AT7")}
    auction = calls("1NT X P P P")
    played = [(Seat.E, Card.parse("SJ"))]  # East leads; dummy (South) is faced
    seen = view(deal, Seat.W, Seat.S, played, auction)
    assert hcp(deal[Seat.W]) + hcp(deal[Seat.S]) == 15
    rng = CountingRandom(3)
    found = deals(seen, rng, 10)
    assert len(found) == 10
    for sampled in found:
        assert len(sampled[Seat.N]) == 13 and len(sampled[Seat.E]) == 12
    # each level before the auction is dropped tried and given up (TRIES redeals each, a
    # second shuffle when the lengths are dealt first), then one redeal a sample
    tried = Level.SHOWN_OUT - Level.AUCTION
    assert tried * TRIES <= rng.shuffles <= 2 * tried * TRIES + 10


def test_a_limit_the_unseen_cards_cannot_meet_is_dropped_alone() -> None:
    """Law 16A1a: West opened 1C (12–21, three clubs), North made a weak jump overcall (2D:
    six diamonds, 6–10), but East and dummy hold 34 of the points: West's points cannot be
    met and are dropped alone; North's are cut to the 6 the unseen cards hold, and his six
    diamonds and West's three clubs (Law 40B: the calls' meanings) hold in every sample."""
    deal = {Seat.N: hand("T63.T97.T98532.T"), Seat.E: hand("AKQ.AKQ4.AK7.862"),
            Seat.S: hand("J75.J85.QJ64.KJ5"), Seat.W: hand("9842.632..AQ9743")}
    assert sorted((c for h in deal.values() for c in h), key=DECK.index) == list(DECK)
    auction = calls("1C 2D P P P")  # from West
    played = [(Seat.E, Card.parse("SA"))]
    seen = Seen({Seat.E: deal[Seat.E], Seat.S: deal[Seat.S]}, played, {}, Seat.W, auction)
    for sampled in deals(seen, random.Random(5), 20):
        assert lengths(sampled[Seat.N])[Strain.D] == 6
        assert hcp(sampled[Seat.N]) == 6
        assert lengths(sampled[Seat.W])[Strain.C] >= 3
        assert len(sampled[Seat.W]) == 13


def test_the_same_seed_the_same_samples() -> None:
    """The robot that connects again plays the card it played (docs/robots.md): its samples
    are the seed's (Law 16A1a: from the same calls and plays, the same deals)."""
    seen = view(DEAL, Seat.E, Seat.S, [], AUCTION)
    first = deals(seen, random.Random(11), 10)
    assert deals(seen, random.Random(11), 10) == first
    assert deals(seen, random.Random(12), 10) != first


def test_the_samples_depend_on_nothing_the_seat_may_not_see() -> None:
    """Fair play (Law 16A1a, Law 41D): two deals alike in East's hand and dummy's, the
    hidden hands (North's, West's) differing, give East the same samples."""
    other = dict(DEAL)
    north, west = list(DEAL[Seat.N]), list(DEAL[Seat.W])
    # North's ace of clubs and West's queen of clubs change hands (North's diamonds too)
    north[north.index(Card.parse("CA"))], west[west.index(Card.parse("CQ"))] = (
        Card.parse("CQ"), Card.parse("CA"))
    other[Seat.N], other[Seat.W] = tuple(north), tuple(west)
    assert other[Seat.N] != DEAL[Seat.N]
    played = [(Seat.E, Card.parse("SJ")), (Seat.S, Card.parse("S5")),
              (Seat.W, Card.parse("S3")), (Seat.N, Card.parse("SQ"))]
    for deal in (DEAL, other):
        assert all(c in deal[who] for who, c in played)
    one = deals(view(DEAL, Seat.E, Seat.S, played, AUCTION), random.Random(2), 15)
    two = deals(view(other, Seat.E, Seat.S, played, AUCTION), random.Random(2), 15)
    assert one == two


def test_declarer_places_the_missing_queen_with_the_1nt_opener() -> None:
    """Law 16A1a, Law 40B: East opened 1NT (15–17); declarer North and dummy South hold 25
    points, so East holds the other 15, the queen of spades among them. Declarer's samples
    give East the queen: from dummy he leads a spade through East towards the ace-jack-ten,
    not the king (a solver that credits the finesse that wins in the sample stands in for
    DDS). Without the auction the queen is East's in about half the samples."""
    deal = {Seat.N: hand("AJT3.AK5.K64.K72"),  # declarer, 18
            Seat.E: hand("Q54.QJ83.QJ7.AQJ"),  # 15: 1NT
            Seat.S: hand("K962.T94.A52.T98"),  # dummy, 7
            Seat.W: hand("87.762.T983.6543")}
    assert hcp(deal[Seat.N]) + hcp(deal[Seat.S]) == 25
    auction = calls("1NT P P 2S P P P")  # from East: North balances with 2S
    played = [(Seat.E, Card.parse("DQ")), (Seat.S, Card.parse("DA")),
              (Seat.W, Card.parse("D3")), (Seat.N, Card.parse("D4"))]  # dummy to lead
    seen = Seen({Seat.N: deal[Seat.N], Seat.S: deal[Seat.S]}, played, shown_out(played),
                Seat.E, auction)
    through_east, king = Card.parse("S2"), Card.parse("SK")

    def solver(hands: Mapping[Seat, Sequence[Card]], trump: Strain, leader: Seat,
               trick: Sequence[Card]) -> dict[Card, int]:
        east_has = Card.parse("SQ") in hands[Seat.E]
        return {through_east: 1 if east_has else 0, king: 0 if east_has else 1}

    chosen = [choose_card(seen, Seat.S, Strain.S, random.Random(seed), solver, samples=10)
              for seed in range(10)]
    assert chosen == [through_east] * 10
