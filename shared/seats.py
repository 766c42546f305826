"""Seats, sides and the duplicate board rotation.

Seats rotate clockwise N → E → S → W (Law 17C): a player's LHO is the next seat,
his RHO the previous one.
"""

from __future__ import annotations

import enum


class NotationError(ValueError):
    """Text that is not valid notation for a seat, call, card or vulnerability."""


class Seat(enum.Enum):
    """A compass seat at the table."""

    N = 0
    E = 1
    S = 2
    W = 3

    # Set once below, as plain attributes: the fold asks for them on every call.
    index: int
    """0 to 3 from North: `value` as a plain attribute (an enum's `value` is slow to read)."""
    letter: str
    """"N", "E", "S" or "W": `name` as a plain attribute (an enum's `name` is slow too)."""
    lho: Seat
    """Left-hand opponent: the next seat in rotation (Law 17C)."""
    partner: Seat
    rho: Seat
    """Right-hand opponent: the previous seat in rotation."""

    # Members are singletons compared by identity: hash them by identity too (fast, in C).
    __hash__ = object.__hash__

    @classmethod
    def parse(cls, text: str) -> Seat:
        """`Seat.parse("n")` → `Seat.N`; also accepts the full names ("North")."""
        seat = _SEAT_NAMES.get(text.strip().upper()) if isinstance(text, str) else None
        if seat is None:
            raise NotationError(f"not a seat: {text!r} (expected N, E, S or W)")
        return seat

    @property
    def side(self) -> str:
        """"NS" or "EW"."""
        return "NS" if self.index % 2 == 0 else "EW"

    def is_opponent_of(self, other: Seat) -> bool:
        return (self.index - other.index) % 2 == 1

    def seats_until(self, other: Seat) -> tuple[Seat, ...]:
        """The seats from this one (included) up to `other` (excluded), clockwise."""
        count = (other.value - self.value) % 4
        return tuple(_SEATS[(self.value + i) % 4] for i in range(count))

    def __str__(self) -> str:
        return self.name


_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
for _seat in _SEATS:
    _seat.index = _seat.value
    _seat.letter = _seat.name
    _seat.lho = _SEATS[(_seat.value + 1) % 4]
    _seat.partner = _SEATS[(_seat.value + 2) % 4]
    _seat.rho = _SEATS[(_seat.value + 3) % 4]
_SEAT_NAMES = {s.name: s for s in _SEATS} | {
    "NORTH": Seat.N,
    "EAST": Seat.E,
    "SOUTH": Seat.S,
    "WEST": Seat.W,
}


class Vulnerability(enum.Enum):
    """Which sides are vulnerable on a board."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    BOTH = "Both"

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """Accepts the names above and the PBN/LIN aliases (`-`, `Love`, `All`, `o/n/e/b`)."""
        vul = _VUL_NAMES.get(text.strip().upper()) if isinstance(text, str) else None
        if vul is None:
            raise NotationError(f"not a vulnerability: {text!r} (expected None, NS, EW or Both)")
        return vul

    def __str__(self) -> str:
        return self.value


_VUL_NAMES = {
    "NONE": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "LOVE": Vulnerability.NONE,
    "O": Vulnerability.NONE,
    "0": Vulnerability.NONE,
    "NS": Vulnerability.NS,
    "N": Vulnerability.NS,
    "EW": Vulnerability.EW,
    "E": Vulnerability.EW,
    "BOTH": Vulnerability.BOTH,
    "ALL": Vulnerability.BOTH,
    "B": Vulnerability.BOTH,
}

# The standard duplicate rotation repeats every 16 boards.
_VUL_CYCLE = (
    Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH,
    Vulnerability.NS, Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE,
    Vulnerability.EW, Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS,
    Vulnerability.BOTH, Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW,
)  # fmt: skip


def board_dealer(board: int) -> Seat:
    """Dealer of a duplicate board: board 1 North, 2 East, 3 South, 4 West, and so on."""
    return _SEATS[(board - 1) % 4]


def board_vulnerability(board: int) -> Vulnerability:
    """Vulnerability of a duplicate board under the standard 16-board cycle."""
    return _VUL_CYCLE[(board - 1) % 16]
