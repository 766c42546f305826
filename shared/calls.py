"""Calls: bids, pass, double and redouble (Law 18), with their notation.

`Call.parse` accepts what players type; `str(call)` is the normal form
(`1C`…`7NT`, `P`, `X`, `XX`). A bid above seven parses (it is a Law 38
irregularity, not bad notation). Calls are interned: parsing the same text twice
gives the same object, so the fold compares calls cheaply.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache

from shared.seats import NotationError


class Strain(enum.Enum):
    """A denomination, valued by its rank (Law 18E: NT > S > H > D > C)."""

    C = 0
    D = 1
    H = 2
    S = 3
    NT = 4

    def __str__(self) -> str:
        return self.name


class CallKind(enum.Enum):
    BID = "bid"
    PASS = "pass"
    DOUBLE = "double"
    REDOUBLE = "redouble"


MAX_LEVEL = 7
"""The highest legal level (Law 18A: a bid names one to seven odd tricks)."""

_LEVEL_LIMIT = 99  # levels above this are not notation anybody types at a table


@dataclass(frozen=True, slots=True)
class Call:
    """One call. `level` and `strain` are set for bids only."""

    kind: CallKind
    level: int = 0
    strain: Strain | None = None
    # Derived once (calls are interned), read on every call the fold sees.
    is_bid: bool = field(init=False, compare=False, repr=False)
    is_pass: bool = field(init=False, compare=False, repr=False)
    rank: int = field(init=False, compare=False, repr=False)
    """Bids in ascending order (1C = 0 … 7NT = 34); -1 for other calls."""
    text: str = field(init=False, compare=False, repr=False)
    """The normal notation: `1NT`, `P`, `X`, `XX` (what `str` gives)."""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "is_bid", self.kind is CallKind.BID)
        set_(self, "is_pass", self.kind is CallKind.PASS)
        strain = self.strain
        set_(self, "rank", -1 if strain is None else (self.level - 1) * 5 + strain.value)
        set_(self, "text", _KIND_TEXT[self.kind] if strain is None
             else f"{self.level}{strain.name}")

    @staticmethod
    def parse(text: str) -> Call:
        """`Call.parse("1nt")` → `Call.bid(1, Strain.NT)`; raises `NotationError` on bad text."""
        known = _SPELLINGS.get(text) if type(text) is str else None
        if known is not None:  # records and logs use a few dozen spellings, again and again
            return known
        if not isinstance(text, str):
            raise NotationError(f"a call must be text, not {type(text).__name__}")
        call = _parse(text.strip().upper())
        if len(_SPELLINGS) < 4096:  # a bound all the same
            _SPELLINGS[text] = call
        return call

    @staticmethod
    def bid(level: int, strain: Strain) -> Call:
        return _bid(level, strain)

    def supersedes(self, previous: Call | None) -> bool:
        """Law 18B: a higher level, or the same level in a higher-ranking denomination."""
        return previous is None or self.rank > previous.rank

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Call.parse({str(self)!r})"


_KIND_TEXT = {CallKind.PASS: "P", CallKind.DOUBLE: "X", CallKind.REDOUBLE: "XX"}
_SPELLINGS: dict[str, Call] = {}  # text as given → call

PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)

_WORDS = {
    "P": PASS,
    "PASS": PASS,
    "X": DOUBLE,
    "D": DOUBLE,
    "DBL": DOUBLE,
    "DOUBLE": DOUBLE,
    "XX": REDOUBLE,
    "R": REDOUBLE,
    "RDBL": REDOUBLE,
    "REDOUBLE": REDOUBLE,
}
_STRAINS = {"C": Strain.C, "D": Strain.D, "H": Strain.H, "S": Strain.S, "N": Strain.NT,
            "NT": Strain.NT}  # fmt: skip
_BID = re.compile(r"([0-9]+)\s*(NT|[CDHSN])")


@cache
def _bid(level: int, strain: Strain) -> Call:
    return Call(CallKind.BID, level, strain)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Call:
    word = _WORDS.get(text)
    if word is not None:
        return word
    match = _BID.fullmatch(text)
    if match is None:
        raise NotationError(
            f"not a call: {text!r} (expected a bid such as 1C or 3NT, P, X or XX)"
        )
    level = int(match.group(1))
    if not 1 <= level <= _LEVEL_LIMIT:
        raise NotationError(f"not a call: {text!r} (a bid's level is 1 to 7)")
    return _bid(level, _STRAINS[match.group(2)])


ALL_CALLS: tuple[Call, ...] = (
    PASS,
    DOUBLE,
    REDOUBLE,
    *(_bid(level, strain) for level in range(1, MAX_LEVEL + 1) for strain in Strain),
)
"""The 38 calls of the game: pass, double, redouble and the 35 bids."""
