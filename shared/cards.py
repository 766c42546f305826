"""Playing cards in the notation of the event schema: suit then rank (`HK`, `DT`, `S5`)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.seats import NotationError

SUITS = "SHDC"
RANKS = "23456789TJQKA"
HONOURS = frozenset("AKQJT")
"""Law 24 speaks of cards of honour rank: ace, king, queen, jack and ten."""


@dataclass(frozen=True, slots=True)
class Card:
    suit: str
    rank: str

    @staticmethod
    def parse(text: str) -> Card:
        """`Card.parse("h10")` → `Card("H", "T")`."""
        if not isinstance(text, str):
            raise NotationError(f"a card must be text, not {type(text).__name__}")
        norm = text.strip().upper().replace("10", "T")
        if len(norm) != 2 or norm[0] not in SUITS or norm[1] not in RANKS:
            raise NotationError(f"not a card: {text!r} (expected suit then rank, e.g. HK, DT, S5)")
        return Card(norm[0], norm[1])

    @property
    def is_honour(self) -> bool:
        return self.rank in HONOURS

    def __str__(self) -> str:
        return self.suit + self.rank
