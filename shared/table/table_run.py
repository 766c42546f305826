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
from shared.events import Event
from shared.ids import alert_id, poison_id
from shared.table.alert_record import AlertRecord, PoisonRecord, Raised
from shared.table.board import Board
from shared.table.board_end import board_end
from shared.table.board_view import AlertView, BoardEndView, BoardView
from shared.table.engine import NoBoardError, TableState, fold, on_a_board
from shared.table.table_summary import StoredSummary, table_summary


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
    # the error of the last event the fold failed on (a fault of ours), for the adapter to
    # log with its traceback; it is skipped as a poison record
    failure: Exception | None = field(default=None, repr=False, compare=False)
    # the end of the board before the one in progress, and how many boards came before it
    _end: tuple[int, BoardEndView] | None = field(default=None, repr=False, compare=False)

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
            return self._skipped(offset, str(exc))
        except Exception as exc:  # a fault of the fold's: the table goes on without the event
            self.failure = exc
            return self._skipped(offset, f"the fold failed on it ({type(exc).__name__}: {exc})")
        board = self.folded_into(event, boards_before)
        if board is None:  # a table's own event (names, a hold) before any board
            return []
        new = board.alerts[alerts_before:] if board is not self.state.board \
            or self.state.count == boards_before else board.alerts
        raised: Raised = [(alert_id(self.table, board.board, offset, i),
                           self._record(alert.to_dict(), board.board, offset))
                          for i, alert in enumerate(new)]
        self.raised += raised
        return raised

    def _skipped(self, offset: int, why: str) -> Raised:
        """The record at `offset` skipped (the table's state as it was), and the Director's
        `poison` alert saying why. The fold leaves its state as it was when it raises
        (`engine.fold`), so a replay skips the same records: the same state, the same
        alerts."""
        record: PoisonRecord = {
            "kind": "poison", "law": None, "seat": None, "table": self.table,
            "offset": offset, "message": f"event at offset {offset} skipped: {why}"}
        poison: Raised = [(poison_id(self.table, offset), record)]
        self.raised += poison
        return poison

    def folded_into(self, event: Event | DecodeError, boards_before: int) -> Board | None:
        """The board `event`, just folded, belongs to: a call, a card, a claim … to the board
        it was folded into, even when it ended that board and a round's next board started
        in the same step (Laws 44, 69, 79A end a board; the engine starts the next); a board
        or round started, a hold released, names, to the board in progress after it."""
        boards = self.state.boards
        if isinstance(event, DecodeError) or not on_a_board(event) or not boards_before:
            return self.state.board
        return boards[boards_before - 1]

    def view(self) -> BoardView | None:
        """The board in progress as Redis keeps it: its state, and the end of the board
        before it (`previous`, `shared.table.board_end`), made once per board."""
        board = self.state.board
        if board is None:
            return None
        view = board.to_dict()
        clock = self.state.clock
        if clock is not None:
            view["clock"] = {"round": clock.round, "ends_at": clock.ends_at, "over": clock.over,
                             "held": clock.held}
        earlier = self.state.earlier
        if earlier:
            if self._end is None or self._end[0] != len(earlier):
                self._end = (len(earlier), board_end(earlier[-1]))
            view["previous"] = self._end[1]
        return view

    def _record(self, alert: AlertView, board: int, offset: int) -> AlertRecord:
        """The alert as the alerts topic carries it: where it was raised, and the tournament
        the table plays in, for the director's filters (`ts`: the stamp of the event that
        raised it)."""
        record: AlertRecord = {**alert, "table": self.table, "board": board,  # type: ignore[typeddict-item]
                               "offset": offset, "ts": self.last_ts}
        if "tournament" in self.meta:
            record["tournament"] = self.meta["tournament"]
        return record

    def overview_line(self) -> StoredSummary | None:
        """The table's line in its tournament's overview; outside a tournament, once the
        director started a round at it (the Table Manager host reads from it when the round
        is over, for `End of session`); None for a table of boards started one by one."""
        if "tournament" not in self.meta and self.state.round is None:
            return None
        return {**table_summary(self.state), "last_ts": self.last_ts}

    @property
    def live(self) -> bool:
        """Whether this table has folded past its checkpoint (new alerts to commit)."""
        return self.offset > self.checkpoint
