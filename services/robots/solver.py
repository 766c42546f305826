"""The double-dummy solver our robot plays with: endplay's bindings to Bo Haglund's DDS
(a well-kept library; writing a solver of our own would be slower and less sure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from endplay.dds import solve_board
from endplay.types import Card as DdsCard, Deal, Denom, Player

from shared.calls import Strain
from shared.cards import SUITS, Card
from shared.seats import Seat

_PLAYER = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
_DENOM = {Strain.S: Denom.spades, Strain.H: Denom.hearts, Strain.D: Denom.diamonds,
          Strain.C: Denom.clubs, Strain.NT: Denom.nt}  # fmt: skip
_SUIT_OF = {Denom.spades: "S", Denom.hearts: "H", Denom.diamonds: "D", Denom.clubs: "C"}


def _pbn_hand(cards: Sequence[Card]) -> str:
    by_suit = {s: "".join(sorted((c.rank for c in cards if c.suit == s),
                                 key=lambda r: -"23456789TJQKA".index(r))) for s in SUITS}
    return ".".join(by_suit[s] for s in SUITS)


def solve(hands: Mapping[Seat, Sequence[Card]], trump: Strain, leader: Seat,
          trick: Sequence[Card]) -> dict[Card, int]:
    """Tricks the side to play takes from here with each card it may play (DDS)."""
    deal = Deal("N:" + " ".join(_pbn_hand(hands[s]) for s in (Seat.N, Seat.E, Seat.S, Seat.W)))
    deal.first = _PLAYER[leader]
    deal.trump = _DENOM[trump]
    for card in trick:
        deal.play(DdsCard(card.suit + card.rank))
    return {Card.parse(_SUIT_OF[c.suit] + c.rank.abbr): tricks for c, tricks in solve_board(deal)}
