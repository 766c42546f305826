"""The gateway's domain errors: what its commands refuse, and why, in words. One root,
`GatewayError`; `Refused` (the request is at fault: its `Kind` says how) and `Unavailable` (a
service the command needs is down: retry after `retry_after` seconds). No HTTP here: the edge
turns a kind into a status (`services.gateway.errors.STATUS`), for the routes, the plain ASGI
call path and a socket's ack alike."""

from __future__ import annotations

import enum
from typing import Any

REDIS_DOWN = "the state store (Redis) is unreachable; retry"


class Kind(enum.StrEnum):
    """How a request is at fault."""

    BAD_INPUT = "bad input"
    UNAUTHORIZED = "unauthorized"  # no token, or one that does not verify
    FORBIDDEN = "forbidden"  # a token that may not do this
    NOT_FOUND = "not found"
    CONFLICT = "conflict"  # with the table as it stands
    TOO_LARGE = "too large"
    TOO_MANY = "too many"  # past a rate limit: retry after `retry_after`


class GatewayError(Exception):
    """The root: a command's refusal, its reason, the field at fault, and when to retry."""

    def __init__(self, reason: str, field: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.field, self.retry_after = reason, field, retry_after

    @property
    def body(self) -> dict[str, Any]:
        """What every door answers: `{"error": …, "field": …}` (no field: none named)."""
        body: dict[str, Any] = {"error": self.reason}
        if self.field:
            body["field"] = self.field
        return body


class Refused(GatewayError):
    """The request is refused: `kind` says how it is at fault."""

    def __init__(self, reason: str, field: str | None = None, kind: Kind = Kind.BAD_INPUT,
                 retry_after: int | None = None) -> None:
        super().__init__(reason, field, retry_after)
        self.kind = kind


class Unavailable(GatewayError):
    """Kafka or Redis cannot be reached: the same request may succeed after `retry_after`."""

    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(reason, None, retry_after)


def too_large(limit: int) -> Refused:
    return Refused(f"body larger than {limit} bytes", "body", Kind.TOO_LARGE)
