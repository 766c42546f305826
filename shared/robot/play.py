"""The robot's card: the legal card that wins most tricks on average over deals sampled from
what its seat has seen (the auction's limits on the hidden hands among it), each solved
double-dummy by the solver passed in (services/robots gives endplay's bindings to DDS)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from shared.calls import Strain
from shared.cards import Card
from shared.robot.sampling import RandomSource, Seen, deals, remaining
from shared.seats import Seat
from shared.table.playable import following

# (hands still held, each with the current trick's cards back in it; trump; the trick's
# leader; the trick's cards so far) → tricks the side to play takes with each card it may play
Solver = Callable[[Mapping[Seat, Sequence[Card]], Strain, Seat, Sequence[Card]],
                  Mapping[Card, int]]


def legal_cards(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """Law 44C: follow suit when able; the fold's rule (`shared.table.playable.following`). The
    robot plays through the Table Manager protocol (`shared.table_manager`), which tells it
    no penalty card or option: it plays in turn, with nothing irregular pending."""
    return following(hand, trick[0].suit if trick else None)


def choose_card(seen: Seen, hand: Seat, trump: Strain, rng: RandomSource, solve: Solver,
                samples: int = 20) -> Card:
    """The card to play from `hand` (the robot's own, or dummy's for declarer)."""
    count = len(seen.played)
    trick_start = count - count % 4
    trick = [card for _, card in seen.played[trick_start:]]
    leader = seen.played[trick_start][0] if trick else hand  # a new trick: its leader plays
    options = legal_cards(remaining(seen)[hand], trick)
    if len(options) == 1:
        return options[0]
    score = dict.fromkeys(options, 0)
    for dealt in deals(seen, rng, samples):
        for seat, card in seen.played[trick_start:]:
            dealt[seat] = [*dealt[seat], card]  # the trick's cards, back in the hands
        tricks = solve(dealt, trump, leader, trick)
        for card in options:
            score[card] += tricks.get(card, 0)
    # most tricks on average; then the lowest card (a tie among equals gives away least)
    return max(options, key=lambda c: (score[c], -c.order))

