"""The tournament's clock (docs/scoring.md, "The clock"): a timed round lasts its boards ×
the movement's minutes a board; the Director may give more time (or less), hold the clock, or
end the round at once. Its facts are the tournament topic's records (`round_started` with
`ends_at`, `round_extended`, `clock_held`, `round_ended`), so a replay gives the same round
ends. Pure: no clock is read here, `now` is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypedDict

MINUTE_MS = 60_000


def round_ends_at(started: int, boards: int, minutes_per_board: float) -> int:
    """When a round of `boards` started at `started` (ms) ends."""
    return started + round(boards * minutes_per_board * MINUTE_MS)


@dataclass(frozen=True, slots=True)
class TournamentClock:
    """The clock of the tournament's round in progress: the round, when it started and ends
    (ms), whether the Director holds it (the round does not end by itself while held; `left`
    is the time it had when held), and whether the round has ended."""

    round: int
    started: int
    ends_at: int
    held: bool = False
    left: int = 0
    over: bool = False

    def left_at(self, now: int) -> int:
        """The time left (ms, not below 0) at `now`."""
        if self.over:
            return 0
        return self.left if self.held else max(0, self.ends_at - now)


class RoundClockView(TypedDict):
    """The round's clock as the pages read it (`clock_view`)."""

    round: int
    ends_at: int  # ms since the epoch
    over: bool  # the round has ended
    held: bool  # the Director holds the clock
    left: int | None  # held: the time it had (ms); else None


def clock_view(clock: TournamentClock | None) -> RoundClockView | None:
    """The clock as the pages read it (a player's page, the tournament's vugraph): its round,
    end (ms), whether it is over or held and, held, the time it had (`left`, ms). Nothing in it
    moves with time, so a page's socket sends it again only when a record changes it."""
    if clock is None:
        return None
    return {"round": clock.round, "ends_at": clock.ends_at, "over": clock.over,
            "held": clock.held, "left": clock.left if clock.held else None}


def clock_of(records: Iterable[Mapping[str, Any]]) -> TournamentClock | None:
    """The clock of the last timed round the tournament's records tell; None when its last
    round is untimed (or none started)."""
    clock: TournamentClock | None = None
    for r in records:
        kind = r.get("type")
        if kind == "round_started":
            ends = r.get("ends_at")
            clock = None if ends is None else TournamentClock(r["round"], r["ts"], ends)
        elif clock is None or r.get("round") != clock.round:
            continue
        elif kind == "round_extended":
            clock = replace(clock, ends_at=r["ends_at"], held=False)
        elif kind == "clock_held":
            clock = replace(clock, held=True, left=r["left"])
        elif kind == "round_ended":
            clock = replace(clock, over=True)
    return clock


def behind_time(ends_at: int, now: int, boards_not_started: int, minutes_per_board: float
                ) -> bool:
    """Whether a table with `boards_not_started` of the round's boards still to start is
    behind time: the round's time left is less than they need at the movement's pace, the
    board in progress taken as nearly done (the Director's to chase; not a rule of the Laws)."""
    return boards_not_started > 0 and \
        boards_not_started * minutes_per_board * MINUTE_MS > ends_at - now
