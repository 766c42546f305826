"""What a reader could not read: the error of a record, and the boards it skipped."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.seats import NotationError


class RecordError(NotationError):
    """A record that cannot be read: `line` (1-based) and what is wrong (`reason`)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class SkippedBoard:
    """A board a reader could not read: its number (None when the record gives none), the line
    of the first problem, and the problem."""

    board: int | None
    line: int
    reason: str

    def __str__(self) -> str:
        where = (f"board {self.board} (line {self.line})" if self.board is not None
                 else f"line {self.line} (no board number)")
        return f"{where}: skipped: {self.reason}"

    def error(self) -> RecordError:
        """The problem as the error an all-or-nothing reader raises."""
        return RecordError(self.line, self.reason)


@dataclass(frozen=True)
class ReadResult:
    """What a reader read from a record: the events of the boards it could read, in file
    order, and the boards it skipped, each with its reason."""

    events: list[dict[str, Any]]
    skipped: list[SkippedBoard]

    @property
    def boards(self) -> int:
        """How many boards were read."""
        return sum(1 for event in self.events if event["type"] == "board_started")

    def all_or_nothing(self) -> list[dict[str, Any]]:
        """The events if every board was read; otherwise the first skipped board's error is
        raised (`RecordError`)."""
        if self.skipped:
            raise self.skipped[0].error()
        return self.events
