"""Deals in PBN notation: `N:AKQ2.3.JT98.5432 <E> <S> <W>` (hands clockwise from the first seat).

A hand is `spades.hearts.diamonds.clubs`; `-` stands for a hand that is not known.
"""

from __future__ import annotations

import re

from shared.cards import RANKS
from shared.seats import NotationError, Seat

_HAND = re.compile(r"[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*")
_FIRST = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W}


def _fast_deal(text: str) -> dict[Seat, str] | None:
    """The hands of a well-formed deal quickly (most are), or None to look closer."""
    seat = _FIRST.get(text[:1].upper())
    hands = text[2:].upper().split()
    if seat is None or text[1:2] != ":" or len(hands) != 4:
        return None
    out: dict[Seat, str] = {}
    suits: list[str] = ["", "", "", ""]
    for hand in hands:
        if hand != "-":
            if len(hand) != 16 or _HAND.fullmatch(hand) is None:
                return None
            s, h, d, c = hand.split(".")
            suits[0] += s
            suits[1] += h
            suits[2] += d
            suits[3] += c
            out[seat] = hand
        seat = seat.lho
    if any(len(set(s)) != len(s) for s in suits):  # a card dealt twice
        return None
    return out


def parse_deal(text: str) -> dict[Seat, str]:
    """The hands of a PBN deal by seat, each as `S.H.D.C` (unknown hands are left out).

    Raises `NotationError` naming what is wrong: a bad first seat, a hand that is not four
    suits, a bad rank, a card dealt twice or a hand that is not 13 cards.
    """
    if not isinstance(text, str) or len(text) < 2 or text[1] != ":":
        raise NotationError(f"not a PBN deal: {text!r} (expected e.g. 'N:AKQ2.3.JT98.5432 ...')")
    fast = _fast_deal(text)
    if fast is not None:
        return fast
    return _checked_deal(text)


def _checked_deal(text: str) -> dict[Seat, str]:
    """`parse_deal`, card by card, to name what is wrong."""
    first = Seat.parse(text[0])
    hands = text[2:].split()
    if len(hands) != 4:
        raise NotationError(f"a PBN deal has four hands, this one has {len(hands)}")
    seen: set[tuple[int, str]] = set()
    out: dict[Seat, str] = {}
    seat = first
    for hand in hands:
        if hand != "-":
            suits = hand.upper().split(".")
            if len(suits) != 4:
                raise NotationError(f"hand {hand!r} of {seat} is not four suits S.H.D.C")
            for index, holding in enumerate(suits):
                for rank in holding:
                    if rank not in RANKS:
                        raise NotationError(f"hand {hand!r} of {seat}: {rank!r} is not a rank")
                    if (index, rank) in seen:
                        raise NotationError(f"hand {hand!r} of {seat}: {'SHDC'[index]}{rank} "
                                            "is dealt twice")
                    seen.add((index, rank))
            if sum(len(s) for s in suits) != 13:
                raise NotationError(f"hand {hand!r} of {seat} does not hold 13 cards")
            out[seat] = ".".join(suits)
        seat = seat.lho
    return out


def format_deal(hands: dict[Seat, str], first: Seat = Seat.N) -> str:
    """The PBN deal text for hands by seat, starting at `first`."""
    seats = [first, first.lho, first.partner, first.rho]
    return f"{first}:" + " ".join(hands.get(s, "-") for s in seats)
