"""Robot slots: a seat for a stock robot that sends its own name, not a token.

WBridge5, Jack and the like connect as `Connecting "WBridge5" as ANYPL …`: their name is
theirs, so it cannot carry the seat's token. The director (or anyone holding the seat's token:
the same credential that would seat a robot) opens a slot on the host's port first, with the
line `Robot slot "<label>" <seat token>`: the host checks the token with the gateway, as for a
robot, and holds it for `TABLESERVER_TM_SLOT` (120 s), bound to the label. The next robot that
connects with exactly that name and no token (as the token's seat, or `ANYPL`) takes the slot,
once, and is seated with that token: its calls and cards go through the gateway's checks as a
person's. When it leaves, the host opens its slot again (`Slots.add`, for the same time), for
it to come back by its name. Nothing is weakened: no seat is taken without its token having
been shown to the host, a slot seats one connection at once, and it lapses unused.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from services.robots.credentials import Credential, CredentialError, credential_from
from shared.seats import Seat

SLOT_LINE = re.compile(r'robot\s+slot\s+"(?P<label>[^"]+)"\s+(?P<token>\S+)', re.IGNORECASE)


def parse_slot_line(line: str) -> tuple[str, str] | None:
    """`Robot slot "<label>" <seat token>` → (label, token); None for another line."""
    match = SLOT_LINE.fullmatch(line.strip())
    return None if match is None else (match["label"].strip(), match["token"])


@dataclass(frozen=True)
class Slot:
    credential: Credential
    until: float  # monotonic seconds
    returning: bool = False  # open again for the robot that left it


class Slots:
    """The open slots, each bound to a label, until it is taken or lapses."""

    def __init__(self, ttl_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl_s, self.clock = ttl_s, clock
        self.open: dict[tuple[str, str, Seat], Slot] = {}  # (label, table, seat) → slot

    def credential(self, label: str, token: str) -> Credential:
        """The slot's credential, its label the one given; `CredentialError` for a token that
        is not a seat's."""
        if not label or any(word.startswith("v1.") for word in label.split()):
            raise CredentialError("a slot's label is the robot's own name, with no token")
        found = credential_from(token, None)
        return Credential(label, found.token, found.table, found.seat)

    def add(self, credential: Credential, returning: bool = False) -> None:
        """Open a slot; `returning`, for the robot that left it. A slot the director opens
        closes those open again for a robot of that label that left (its name is to sit
        where the director says now: a stock robot's name tells no table)."""
        self._lapse()
        if not returning:
            for key in [k for k, slot in self.open.items()
                        if k[0] == credential.label and slot.returning]:
                del self.open[key]
        key = (credential.label, credential.table, credential.seat)
        self.open[key] = Slot(credential, self.clock() + self.ttl_s, returning)

    def take(self, label: str, seat: Seat | None) -> Credential | None:
        """The credential of the one open slot for `label` (at `seat`, if the robot named
        one), closed as it is taken; None if there is none, or more than one it could be."""
        self._lapse()
        fits = [key for key in self.open
                if key[0] == label and (seat is None or key[2] is seat)]
        if len(fits) != 1:
            return None
        return self.open.pop(fits[0]).credential

    def _lapse(self) -> None:
        now = self.clock()
        for key in [k for k, slot in self.open.items() if slot.until <= now]:
            del self.open[key]
