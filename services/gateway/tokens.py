"""Signed tokens for seats and spectators: `v1.<payload>.<signature>`.

The payload is base64url JSON `{"t": table, "s": seat or null, "r": role, "e": expiry}`; the
signature is HMAC-SHA256 over `v1.<payload>` with the gateway's signing key. One fixed
algorithm: nothing in the token chooses how it is checked.

A table's operator token (role `operator`, `s` null) is for a vugraph operator or a table's
recorder at a physical table: the director issues it; it reads its table (the whole board, as
the operator sees it all at the table) and sends the events of all four seats there.

A tournament's vugraph token (role `vugraph`) names no table: its `t` is
`tournament:<name>`, which no table name can be (they have no colon). It reads the list of the
tournament's tables and their spectator links, nothing else.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import json
from dataclasses import dataclass


class TokenError(Exception):
    """A token that is malformed, forged or expired."""


class Role(enum.StrEnum):
    """Who a grant is for: the `r` of a token's payload (the string it stands for)."""

    SEAT = "seat"  # a player at a seat of a table
    SPECTATOR = "spectator"  # a table's spectators
    OPERATOR = "operator"  # a table's vugraph operator or recorder: every seat's events there
    DIRECTOR = "director"  # every table: the director's key, never a signed token
    VUGRAPH = "vugraph"  # a tournament's list of tables and their spectator links


@dataclass(frozen=True)
class Grant:
    table: str | None  # None for the director: every table
    seat: str | None
    role: Role


READERS = (Role.SEAT, Role.SPECTATOR, Role.OPERATOR, Role.DIRECTOR)  # they read a table
SIGNED_ROLES = (Role.SEAT, Role.SPECTATOR, Role.OPERATOR, Role.VUGRAPH)  # the director: no token
VUGRAPH_SCOPE = "tournament:"


def vugraph_scope(tournament: str) -> str:
    """The `t` of a tournament's vugraph token: never a table's name."""
    return f"{VUGRAPH_SCOPE}{tournament}"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(key: bytes, table: str, seat: str | None, role: Role, expires: int) -> str:
    payload = _b64(json.dumps({"t": table, "s": seat, "r": role, "e": expires},
                              separators=(",", ":")).encode())
    mac = hmac.new(key, f"v1.{payload}".encode(), hashlib.sha256).digest()
    return f"v1.{payload}.{_b64(mac)}"


def expiry_of(token: str) -> int:
    """The expiry of a token `verify` accepted."""
    expires: int = json.loads(_unb64(token.split(".")[1]))["e"]
    return expires


def verify(key: bytes, token: str, now: int) -> Grant:
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != "v1":
        raise TokenError("malformed token")
    try:
        expected = hmac.new(key, f"v1.{parts[1]}".encode(), hashlib.sha256).digest()
        if not hmac.compare_digest(expected, _unb64(parts[2])):
            raise TokenError("bad signature")
        claims = json.loads(_unb64(parts[1]))
    except (ValueError, TypeError) as exc:
        raise TokenError("malformed token") from exc
    if not isinstance(claims, dict) or not isinstance(claims.get("e"), int):
        raise TokenError("malformed token")
    if claims["e"] < now:
        raise TokenError("token expired")
    if claims.get("r") not in SIGNED_ROLES:
        raise TokenError("malformed token")
    return Grant(claims.get("t"), claims.get("s"), Role(claims["r"]))
