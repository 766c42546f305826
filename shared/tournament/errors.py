"""The error of a tournament's request: what is wrong, and the field at fault."""

from __future__ import annotations


class TournamentError(ValueError):
    """A tournament or a round that cannot be: what is wrong, and the request's field at
    fault."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
