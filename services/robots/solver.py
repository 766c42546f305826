"""The double-dummy solver our robot plays with: endplay's bindings to Bo Haglund's DDS
(a well-kept library; writing a solver of our own would be slower and less sure). The hand
records' double-dummy table and par come from it too (`double_dummy`, `par_of`), so that a
scorer's table and the robots' play agree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from endplay.dds import calc_dd_table, par, solve_board
from endplay.types import Card as DdsCard, Deal, Denom, Penalty, Player, Vul

from shared.calls import Strain
from shared.cards import SUITS, Card
from shared.notation.double_dummy import DoubleDummy, Par, ParContract, checked_par
from shared.seats import Seat, Vulnerability

_PLAYER = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
_DENOM = {Strain.S: Denom.spades, Strain.H: Denom.hearts, Strain.D: Denom.diamonds,
          Strain.C: Denom.clubs, Strain.NT: Denom.nt}  # fmt: skip
_SEAT_OF = {player: seat for seat, player in _PLAYER.items()}
_STRAIN_OF = {denom: strain for strain, denom in _DENOM.items()}
_VUL = {Vulnerability.NONE: Vul.none, Vulnerability.NS: Vul.ns, Vulnerability.EW: Vul.ew,
        Vulnerability.BOTH: Vul.both}
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


def double_dummy(deal: str) -> tuple[DoubleDummy, object]:
    """The deal's (PBN `N:… … … …`) double-dummy table (DDS's CalcDDtable), and DDS's own
    table to give `par_of` (so that the par does not solve the deal again)."""
    found = calc_dd_table(Deal(deal))
    return DoubleDummy({(seat, strain): int(found[denom, player])
                        for seat, player in _PLAYER.items()
                        for strain, denom in _DENOM.items()}), found


def par_of(solved: object, vulnerability: Vulnerability, dealer: Seat) -> Par:
    """The par (DDS's DealerParBin) of a table `double_dummy` solved, at the board's
    vulnerability and dealer: a contract two seats make alike is one contract of their side."""
    found = par(solved, _VUL[vulnerability], _PLAYER[dealer])  # type: ignore[arg-type]
    grouped: dict[tuple[int, Strain, bool, int], list[Seat]] = {}
    for contract in found:
        key = (int(contract.level), _STRAIN_OF[contract.denom],
               contract.penalty is not Penalty.passed, int(contract.result))
        grouped.setdefault(key, []).append(_SEAT_OF[contract.declarer])
    contracts = tuple(ParContract(level, strain, doubled, tuple(sorted(seats,
                                                                      key=lambda s: s.index)),
                                  result)
                      for (level, strain, doubled, result), seats in grouped.items())
    return checked_par(Par(int(found.score), contracts), vulnerability)

