"""Bounds on what a gateway process does at once, so that overload is refused early rather
than served late: past its limit a gate refuses at once (`Busy`, a 503 with Retry-After),
with no queue behind it; nothing refused was started, so a retry is always safe.

- events in flight (`TABLESERVER_EVENTS_IN_FLIGHT`): every door of an event
  (`services.gateway.doors.accept`) holds a slot from before its body is judged until it is
  answered. Without it, 60 tables at once were all served, p99 11.5 s and none refused
  (issue 37, item 10): each admitted event's answer waits behind the others' turns of the
  loop and their appends, so bounding how many are under way bounds how long each waits
  (Little's law: the bound ÷ the gateway's rate); bench/overload_bench.py measures it.
- history reads (`TABLESERVER_HISTORY_READS`, `services.gateway.history_reads`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from services.common.errors import Unavailable

RETRY_AFTER_S = 1


class Busy(Unavailable):
    """As many as the gate takes are under way on this gateway: retry shortly."""


class Gate:
    """At most `limit` at once of `what` (plural words: "history reads"); one more is
    refused."""

    def __init__(self, limit: int, what: str) -> None:
        self.limit, self.what = limit, what
        self.taken = 0

    @contextmanager
    def slot(self) -> Iterator[None]:
        if self.taken >= self.limit:
            raise Busy(f"too many {self.what} at once: {self.limit} are under way on this "
                       f"gateway; retry after {RETRY_AFTER_S} s", retry_after=RETRY_AFTER_S)
        self.taken += 1
        try:
            yield
        finally:
            self.taken -= 1
