"""Signed tokens for seats and spectators: `v1.<payload>.<signature>`.

The payload is base64url JSON `{"t": table, "s": seat or null, "r": role, "e": expiry}`; the
signature is HMAC-SHA256 over `v1.<payload>` with the gateway's signing key. One fixed
algorithm: nothing in the token chooses how it is checked.

A table's operator token (role `operator`, `s` null) is for a vugraph operator or a table's
recorder at a physical table: the director issues it; it reads its table (the whole board, as
the operator sees it all at the table) and sends the events of all four seats there.

A tournament's vugraph token (role `vugraph`) names no table: its `t` is
`tournament:<name>`, which no table name can be (they have no colon). It reads the list of the
tournament's tables and their spectator links, nothing else. A tournament's entry token (role
`entry`, the link the Director publishes while entries are open) has the same `t`: it makes a
player's entry in that tournament, nothing else.

A player's token (role `player`) is a tournament's player's link for the whole evening: its `t`
is the tournament's scope (as a vugraph token's), and its `p` claim names the player, `[entrant,
place, generation]` (a reissue makes a new generation: the older stop working), or its `q`
claim names him by his ENTRY, `[entry, place, generation]`: the link his entry's answer gives
him before the tournament exists, resolved to his entrant at the close
(`services.gateway.tournaments.entry_links`). It reads no
table: the gateway resolves it to his seat in the round in progress and signs him a seat token
bound to that round (`b`: `[tournament, round, entrant, place, generation, [boards]]`), which
acts as that seat's only while the table plays that round's boards
(`services.gateway.tournaments.players`).

A token has one spelling: its parts are read as the canonical unpadded base64url `sign`
writes (no padding, no character outside the alphabet, no stray bits), so junk appended to a
token, or another spelling of its signature, is refused and never takes a slot of its own in
the gateway's cache of verified tokens. Its claims are checked as strictly (their keys, types
and values: a seat token names a seat, the others none; a table's name or a tournament's
scope; a whole-number expiry): a token signed with the real key but with claims `sign` never
writes is malformed, a 401 like any other, never a 500.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any

from services.gateway.http.models import TOURNAMENT_ID
from shared.ids import TABLE_ID


class TokenError(Exception):
    """A token that is malformed, forged or expired."""


class Role(enum.StrEnum):
    """Who a grant is for: the `r` of a token's payload (the string it stands for)."""

    SEAT = "seat"  # a player at a seat of a table
    SPECTATOR = "spectator"  # a table's spectators
    OPERATOR = "operator"  # a table's vugraph operator or recorder: every seat's events there
    DIRECTOR = "director"  # every table: the director's key, never a signed token
    VUGRAPH = "vugraph"  # a tournament's list of tables and their spectator links
    ENTRY = "entry"  # a tournament's entry page: a player's entry, nothing else
    PLAYER = "player"  # a tournament's player, all evening: his seat of the round in progress


@dataclass(frozen=True, slots=True)
class PlayerScope:
    """Whom a player's token is for: a player (his entrant and his place in it) of a
    tournament, and the generation of his link (a reissue revokes the older ones)."""

    tournament: str
    entrant: int  # his entrant's number, or his entry's when `by_entry`
    place: int
    generation: int
    by_entry: bool = False  # named by his entry (its number of arrival): his entry's link


@dataclass(frozen=True, slots=True)
class Bound:
    """A seat token signed for a player's round: it acts as the seat while its table plays
    the round's `boards`, and while the player's link is of the current generation."""

    player: PlayerScope
    round: int
    boards: frozenset[int]


@dataclass(frozen=True)
class Grant:
    table: str | None  # None for the director: every table
    seat: str | None
    role: Role
    player: PlayerScope | None = None  # a player's token: whom it is for
    bound: Bound | None = None  # a seat token bound to a player's round


READERS = (Role.SEAT, Role.SPECTATOR, Role.OPERATOR, Role.DIRECTOR)  # they read a table
SIGNED_ROLES = (Role.SEAT, Role.SPECTATOR, Role.OPERATOR, Role.VUGRAPH, Role.ENTRY,
                Role.PLAYER)  # the director: no token
TOURNAMENT_ROLES = (Role.VUGRAPH, Role.ENTRY, Role.PLAYER)  # scoped: `vugraph_scope`
MAX_NUMBER = 10**6  # an entrant's number, a place, a generation, a round, a board
VUGRAPH_SCOPE = "tournament:"


def vugraph_scope(tournament: str) -> str:
    """The `t` of a tournament's vugraph token: never a table's name."""
    return f"{VUGRAPH_SCOPE}{tournament}"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


B64URL = re.compile(r"[A-Za-z0-9_-]*")
SEATS = ("N", "E", "S", "W")
CLAIMS = {"t", "s", "r", "e"}
TOURNAMENT_NAME = re.compile(TOURNAMENT_ID.removeprefix("^").removesuffix("$"))
MAX_EXPIRY = 2**53  # seconds: far past any token's life, and exact in every JSON reader


def _unb64(text: str) -> bytes:
    """The bytes `text` spells in canonical unpadded base64url (as `_b64` writes them); a
    ValueError for any other spelling."""
    if not B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise ValueError("not unpadded base64url")
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64(data) != text:  # stray bits in the last character: another spelling
        raise ValueError("not the canonical spelling")
    return data


def sign(key: bytes, table: str, seat: str | None, role: Role, expires: int) -> str:
    return _signed(key, {"t": table, "s": seat, "r": role, "e": expires})


def sign_player(key: bytes, player: PlayerScope, expires: int) -> str:
    """A player's token: his link for the evening."""
    return _signed(key, {"t": vugraph_scope(player.tournament), "s": None, "r": Role.PLAYER,
                         "e": expires, "q" if player.by_entry else "p":
                         [player.entrant, player.place, player.generation]})


def sign_bound(key: bytes, table: str, seat: str, bound: Bound, expires: int) -> str:
    """A seat token bound to a player's round (`Bound`)."""
    p = bound.player
    return _signed(key, {"t": table, "s": seat, "r": Role.SEAT, "e": expires,
                         "b": [p.tournament, bound.round, p.entrant, p.place, p.generation,
                               sorted(bound.boards)]})


def _signed(key: bytes, claims: dict[str, Any]) -> str:
    payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
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
        signature = _unb64(parts[2])
        payload = _unb64(parts[1])
    except ValueError:
        raise TokenError("malformed token") from None
    expected = hmac.new(key, f"v1.{parts[1]}".encode(), hashlib.sha256).digest()
    if not hmac.compare_digest(expected, signature):
        raise TokenError("bad signature")
    try:
        claims = json.loads(payload)
    except (ValueError, RecursionError):
        raise TokenError("malformed token") from None
    grant, expires = _claimed(claims)
    if expires < now:
        raise TokenError("token expired")
    return grant


def _claimed(claims: Any) -> tuple[Grant, int]:
    """The grant and expiry of a signed token's claims, checked as `sign` writes them."""
    if not isinstance(claims, dict) or not set(claims) >= CLAIMS \
            or set(claims) - CLAIMS not in (set(), {"p"}, {"q"}, {"b"}):
        raise TokenError("malformed token: its claims are t, s, r and e (and a player's p or "
                         "q, a round's seat's b)")
    table, seat, role, expires = claims["t"], claims["s"], claims["r"], claims["e"]
    if ("p" in claims or "q" in claims) != (role == Role.PLAYER) \
            or ("b" in claims and role != Role.SEAT):
        raise TokenError("malformed token: claims 'p' and 'q' are a player's, 'b' a seat's")
    if role not in SIGNED_ROLES:
        raise TokenError("malformed token: claim 'r' (its role)")
    if type(expires) is not int or not 0 <= expires <= MAX_EXPIRY:
        raise TokenError("malformed token: claim 'e' (its expiry, a whole number)")
    if not (seat in SEATS if role == Role.SEAT else seat is None):
        raise TokenError("malformed token: claim 's' (a seat token's seat, N, E, S or W; "
                         "none for the others)")
    if role in TOURNAMENT_ROLES:
        scoped = isinstance(table, str) and table.startswith(VUGRAPH_SCOPE) \
            and TOURNAMENT_NAME.fullmatch(table.removeprefix(VUGRAPH_SCOPE)) is not None
    else:
        scoped = isinstance(table, str) and TABLE_ID.fullmatch(table) is not None
    if not scoped:
        raise TokenError("malformed token: claim 't' (its table, or its tournament)")
    if role == Role.PLAYER:
        named = "q" if "q" in claims else "p"
        player = _player(claims[named], table.removeprefix(VUGRAPH_SCOPE), named)
        return Grant(table, None, Role.PLAYER, player=player), expires
    if "b" in claims:
        return Grant(table, seat, Role.SEAT, bound=_bound(claims["b"])), expires
    return Grant(table, seat, Role(role)), expires


def _numbers(values: Any, count: int) -> bool:
    return isinstance(values, list) and len(values) == count and all(
        type(v) is int and 1 <= v <= MAX_NUMBER for v in values)


def _player(claim: Any, tournament: str, name: str) -> PlayerScope:
    """A player's claim `[entrant, place, generation]` (`q`: `[entry, place, generation]`),
    checked."""
    if not _numbers(claim, 3):
        raise TokenError(f"malformed token: claim {name!r} (a player: entrant or entry, place "
                         "and generation, whole numbers from 1)")
    return PlayerScope(tournament, claim[0], claim[1], claim[2], by_entry=name == "q")


def _bound(claim: Any) -> Bound:
    """A round's seat's claim `[tournament, round, entrant, place, generation, [boards]]`."""
    if not (isinstance(claim, list) and len(claim) == 6 and isinstance(claim[0], str)
            and TOURNAMENT_NAME.fullmatch(claim[0]) and _numbers(claim[1:5], 4)
            and isinstance(claim[5], list) and claim[5] and _numbers(claim[5], len(claim[5]))):
        raise TokenError("malformed token: claim 'b' (a round's seat: tournament, round, "
                         "entrant, place, generation and boards)")
    return Bound(_player(claim[2:5], claim[0], "b"), claim[1], frozenset(claim[5]))
