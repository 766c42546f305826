"""What a reader could not read: the error of a record, the boards it skipped, and what it passed
over in the boards it read (a token it does not know)."""

from __future__ import annotations

from dataclasses import dataclass, field
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
        return f"{_where(self.board, self.line)}: skipped: {self.reason}"

    def error(self) -> RecordError:
        """The problem as the error an all-or-nothing reader raises."""
        return RecordError(self.line, self.reason)


@dataclass(frozen=True)
class PassedOver:
    """What a reader did not know in a board it read, and passed over, the board read without
    it: the board's number (None before the first board), the line, and what it was."""

    board: int | None
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{_where(self.board, self.line)}: passed over: {self.reason}"


def _where(board: int | None, line: int) -> str:
    """Where a problem is: the board and the line, or the line alone."""
    if board is None:
        return f"line {line} (no board number)"
    return f"board {board} (line {line})"


@dataclass(frozen=True)
class ReadResult:
    """What a reader read from a record: the events of the boards it could read, in file
    order, the boards it skipped, each with its reason, and what it passed over in the boards
    it read (`PassedOver`: no board is lost for it, so `all_or_nothing` does not raise)."""

    events: list[dict[str, Any]]
    skipped: list[SkippedBoard]
    passed_over: list[PassedOver] = field(default_factory=list)

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
