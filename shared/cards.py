"""Playing cards in the notation of the event schema: suit then rank (`HK`, `DT`, `S5`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from shared.seats import NotationError

SUITS = "SHDC"
RANKS = "23456789TJQKA"
HONOURS = frozenset("AKQJT")
"""Law 24 speaks of cards of honour rank: ace, king, queen, jack and ten."""


@dataclass(frozen=True, slots=True)
class Card:
    suit: str
    rank: str
    # Derived once, read by the play on every card: the card's number in the deck (0 = SA …
    # 51 = C2 … by suit, then rank ascending: SHDC × 23456789TJQKA) and its rank's order.
    index: int = field(init=False, compare=False, repr=False)
    order: int = field(init=False, compare=False, repr=False)
    """The rank's order, 0 (two) to 12 (ace): Law 44's "highest card"."""
    text: str = field(init=False, compare=False, repr=False)
    """`str(card)` (`HK`), kept: the play's view writes every card played at every event."""
    number: int = field(init=False, compare=False, repr=False)
    """The suit's number, 0 (spades) to 3 (clubs): `index // 13`, read on every card."""

    def __post_init__(self) -> None:
        order = RANKS.find(self.rank)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "index", SUITS.find(self.suit) * 13 + order)
        object.__setattr__(self, "text", self.suit + self.rank)
        object.__setattr__(self, "number", self.index // 13)

    def __hash__(self) -> int:
        return self.index

    @staticmethod
    def parse(text: str) -> Card:
        """`Card.parse("h10")` → `Card("H", "T")`. The same text gives the same card object
        (parsed once)."""
        if not isinstance(text, str):
            raise NotationError(f"a card must be text, not {type(text).__name__}")
        return _parse(text)

    @property
    def is_honour(self) -> bool:
        return self.rank in HONOURS

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=1024)
def _parse(text: str) -> Card:
    norm = text.strip().upper().replace("10", "T")
    if len(norm) != 2 or norm[0] not in SUITS or norm[1] not in RANKS:
        raise NotationError(f"not a card: {text!r} (expected suit then rank, e.g. HK, DT, S5)")
    return Card(norm[0], norm[1])
