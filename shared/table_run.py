"""One table as its topic tells it: the fold of its records, and the alerts they raised.

Pure bookkeeping around `shared`, used by the processor and by replay alike: feed it each
record (offset, bytes) in order; it folds the event and returns the alerts that event raised,
each with a deterministic id, so that a refold after a crash, or a replay, raises the same
alerts with the same ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shared.codec import DecodeError, decode
from shared.engine import NoBoardError, TableState, fold
from shared.events import Event
from shared.ids import alert_id, poison_id
from shared.table_summary import table_summary

Raised = list[tuple[str, dict[str, Any]]]


def decoded(value: bytes | None) -> Event | DecodeError:
    """The event in a record's value, or why there is none."""
    try:
        return decode(value or b"")
    except DecodeError as exc:
        return exc


@dataclass
class TableRun:
    table: str
    meta: dict[str, Any] = field(default_factory=dict)  # the registry record
    state: TableState = field(default_factory=TableState)
    offset: int = -1  # the last offset folded
    checkpoint: int = -1  # alerts of offsets up to here were committed before
    raised: Raised = field(default_factory=list)  # every alert
    last_ts: int | None = None  # the stamp of the last event folded (ms since the epoch)

    def apply(self, offset: int, value: bytes | None) -> Raised:
        """Fold the record at `offset`; the (id, alert) pairs it raised, or a `poison` alert
        when the record is not an event that can be folded (it is skipped)."""
        return self.apply_event(offset, decoded(value))

    def apply_event(self, offset: int, event: Event | DecodeError) -> Raised:
        """`apply` for a record already decoded."""
        if offset <= self.offset:
            return []  # already folded (a fetch that overlapped)
        self.offset = offset
        if not isinstance(event, DecodeError) and event.ts is not None:
            self.last_ts = event.ts
        boards_before = self.state.count
        alerts_before = len(self.state.board.alerts) if self.state.board is not None else 0
        try:
            if isinstance(event, DecodeError):
                raise event
            self.state = fold((event,), self.state)
        except (DecodeError, NoBoardError) as exc:
            poison = [(poison_id(self.table, offset),
                       {"kind": "poison", "law": None, "seat": None, "table": self.table,
                        "offset": offset, "message": f"event at offset {offset} skipped: {exc}"})]
            self.raised += poison
            return poison
        board = self.state.board
        if board is None:  # a table's own event (names, a hold) before any board
            return []
        new = board.alerts if self.state.count > boards_before \
            else board.alerts[alerts_before:]
        raised = [(alert_id(self.table, board.board, offset, i),
                   {**alert.to_dict(), "table": self.table, "board": board.board,
                    "offset": offset, "ts": self.last_ts, **self._tournament})
                  for i, alert in enumerate(new)]
        self.raised += raised
        return raised

    @property
    def _tournament(self) -> dict[str, str]:
        """The tournament an alert's table plays in, for the director's filters (an alert
        also carries `ts`, the stamp of the event that raised it)."""
        return {"tournament": self.meta["tournament"]} if "tournament" in self.meta else {}

    def overview_line(self) -> dict[str, Any] | None:
        """The table's line in its tournament's overview (None outside a tournament)."""
        if "tournament" not in self.meta:
            return None
        return {**table_summary(self.state), "last_ts": self.last_ts}

    @property
    def live(self) -> bool:
        """Whether this table has folded past its checkpoint (new alerts to commit)."""
        return self.offset > self.checkpoint
