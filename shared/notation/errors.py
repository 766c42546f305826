"""The error of a record that cannot be read."""

from __future__ import annotations

from shared.seats import NotationError


class RecordError(NotationError):
    """A record that cannot be read: `line` (1-based) and what is wrong."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
