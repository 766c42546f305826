"""Substitutes for players who vanish (docs/operations.md, "Substitutes"), as pure rules: the
gateway reads which seats have an open page (each gateway's marks in Redis), the table's turn
and the clock, and asks here what they mean.

A seat is connected while some gateway marked a page open there within `FRESH_MS`, or while
the gateway that asks holds one open itself (its own marks may be late: it knows). A player's
page bound to a round of a tournament (his link's seat token) counts for that round only
(`page_key`): the page of the round before's player at the seat, still open while he moves,
is not the new round's player's. A seat
whose player must act (the turn's seat; declarer for dummy's hand, Law 45A) and has no open
page is told to the table at once ("waiting for West, not connected"); once it has waited the
Director's time (`after_ms`, counted from the later of the turn's start and the page's last
mark) a robot sits in for him (`substitute_seated`). When his page is open again, the
substitute stands up (`substitute_left`) once the seat's turn in progress, if any, is over:
the seat is the player's from his next turn. Seats the Director gave our robots are no
person's: nobody sits in for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from shared.seats import Seat

FRESH_MS = 10_000  # a page's mark older than this: its gateway is gone, the page with it
SUBSTITUTE = "Robot"
WORDS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


@dataclass(frozen=True, slots=True)
class SeatPresence:
    """Whether a seat has an open page now, and when one was last marked open (ms since the
    epoch; None: never, as far as the marks go)."""

    connected: bool
    last_seen: int | None


def page_key(seat: str, round_number: int | None) -> str:
    """The name a seat page is marked under: a player's page bound to a tournament's round
    under its seat and that round (`S@2`), so that it counts for that round's player alone;
    any other seat page under its seat (`S`), for whoever holds the seat."""
    return seat if round_number is None else f"{seat}@{round_number}"


def presence_of(marks: Mapping[str, Iterable[int]], now: int, fresh_ms: int = FRESH_MS,
                here: Iterable[str] = (), round_number: int | None = None
                ) -> dict[str, SeatPresence]:
    """Each seat's presence at the table's round `round_number` from its marks (a page's key,
    `page_key` → the times each gateway last marked it open): connected when the latest is
    fresh, or when the page is among those `here` (the asking gateway holds it open now: seen
    now, whatever its marks say); the pages of another round count for nothing; seats without
    any are not connected."""
    held = set(here)
    out: dict[str, SeatPresence] = {}
    for seat in Seat:
        keys = {seat.name, page_key(seat.name, round_number)}
        times = [t for key in keys for t in marks.get(key, ())]
        if keys & held:
            times.append(now)
        last = max(times) if times else None
        out[seat.name] = SeatPresence(last is not None and now - last < fresh_ms, last)
    return out


def acting_seat(turn: str | None, declarer: str | None, dummy: str | None) -> str | None:
    """The seat whose player must act now: the turn's, or declarer's for dummy's hand
    (Law 45A: declarer plays dummy's cards)."""
    if turn is not None and dummy is not None and turn == dummy:
        return declarer
    return turn


def waiting_since(turn_since: int | None, seen: SeatPresence) -> int | None:
    """Since when the table has waited for a seat with no open page at its turn: the later of
    the turn's start and the page's last mark (None: the turn's start is not known)."""
    if seen.connected:
        return None
    if seen.last_seen is None:
        return turn_since
    return max(seen.last_seen, turn_since or 0)


def due_at(acting: str | None, substitutes: Iterable[str], robots: Iterable[str],
           turn_since: int | None, seen: Mapping[str, SeatPresence], after_ms: int
           ) -> int | None:
    """When a substitute falls due for the acting seat (ms since the epoch): once it has
    waited `after_ms` with no open page, the seat a person's (not one the Director gave our
    robots) with no substitute there yet; None when none will while nothing changes."""
    if acting is None or acting in set(substitutes) or acting in set(robots):
        return None
    since = waiting_since(turn_since, seen.get(acting, SeatPresence(False, None)))
    return None if since is None else since + after_ms


def substitutes_standing_up(acting: str | None, substitutes: Iterable[str],
                            seen: Mapping[str, SeatPresence]) -> tuple[str, ...]:
    """The seats whose substitutes stand up now: those whose player's page is open again,
    unless it is the seat's turn (the substitute finishes that turn, so that he and his
    player never both answer it): the seat is the player's from his next turn."""
    return tuple(seat for seat in substitutes if seat != acting
                 and (found := seen.get(seat)) is not None and found.connected)


def not_connected(acting: str | None, substitutes: Iterable[str], robots: Iterable[str],
                  seen: Mapping[str, SeatPresence]) -> str | None:
    """What the table is told while it waits for a person's seat (not our robots') with no
    open page and no substitute yet: "waiting for West, not connected"; None when it does
    not."""
    if acting is None or acting in set(substitutes) or acting in set(robots):
        return None
    found = seen.get(acting)
    if found is not None and found.connected:
        return None
    return f"waiting for {WORDS[Seat.parse(acting)]}, not connected"


def substitute_name(seat: Seat, player: str | None) -> str:
    """The name a seat's substitute plays under, in the record and the results:
    "Robot (for Ann)", or "Robot (for West)" where no player was named."""
    return f"{SUBSTITUTE} (for {player or WORDS[seat]})"


def substitute_seats(players: Iterable[tuple[Seat, str]]) -> str:
    """The seats a board's names show a substitute at ("W", "EW"; "" none): a board he
    played, wholly or in part, in the results' travellers."""
    return "".join(seat.name for seat, name in players
                   if name.startswith(f"{SUBSTITUTE} (for ") and name.endswith(")"))
