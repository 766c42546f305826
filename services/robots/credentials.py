"""A robot's credential: the seat token the director issued for its table and seat.

A robot connects with `Connecting "<name> <seat token>" as <Seat> using protocol version 18`:
the token is the word of its name that starts with `v1.`. The host reads the table and seat
the token names, to know which table to follow; the gateway checks the token itself (its
signature, its expiry) when the host first reads the table with it, and on every event, as for
a person. So the host holds no signing key.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass

from shared.seats import Seat
from shared.table_manager.lines import SEAT_WORDS

TOKEN_PREFIX = "v1."


class CredentialError(ValueError):
    """No usable token in a robot's name (the text says why)."""


@dataclass(frozen=True)
class Credential:
    label: str  # the name without its token
    token: str
    table: str
    seat: Seat


def credential_from(name: str, asked: Seat | None) -> Credential:
    """The token in `name` and the table and seat it claims; `asked` is the seat the robot
    asked for (None: `ANYPL`, it takes the token's)."""
    words = name.split()
    tokens = [w for w in words if w.startswith(TOKEN_PREFIX)]
    if len(tokens) != 1:
        raise CredentialError("no robot token in the name: connect as \"<name> <seat token>\" "
                              "with the seat token the director issued for the table and seat")
    token = tokens[0]
    parts = token.split(".")
    try:
        if len(parts) != 3:
            raise ValueError
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
        table, seat_letter, role = claims["t"], claims["s"], claims["r"]
    except (ValueError, KeyError, TypeError):
        raise CredentialError("malformed token") from None
    if role != "seat" or not isinstance(table, str) or seat_letter not in ("N", "E", "S", "W"):
        raise CredentialError("not a seat token: a robot sits with its seat's token")
    seat = Seat.parse(seat_letter)
    if asked is not None and asked is not seat:
        raise CredentialError(f"the token is for {SEAT_WORDS[seat]}'s seat, not "
                              f"{SEAT_WORDS[asked]}'s")
    label = " ".join(w for w in words if w != token) or SEAT_WORDS[seat]
    return Credential(label, token, table, seat)
