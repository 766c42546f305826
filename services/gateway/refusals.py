"""The gateway's domain errors: what its commands refuse, and why, in words. One root,
`services.common.errors.ServiceError`; `Refused` (the request is at fault: its `Kind` says how)
here, and `services.common.errors.Unavailable` (a service the command needs is down: retry after
`retry_after` seconds), which the importer's appends raise too. No HTTP here: the edge turns a
kind into a status (`services.gateway.http.errors.STATUS`), for the routes, the plain ASGI call path
and a socket's ack alike."""

from __future__ import annotations

import enum

from services.common.errors import STORE_DOWN, ServiceError

REDIS_DOWN = STORE_DOWN
DIRECTOR_ONLY = "only the director may do this"


class Kind(enum.StrEnum):
    """How a request is at fault."""

    BAD_INPUT = "bad input"
    UNAUTHORIZED = "unauthorized"  # no token, or one that does not verify
    FORBIDDEN = "forbidden"  # a token that may not do this
    NOT_FOUND = "not found"
    CONFLICT = "conflict"  # with the table as it stands
    TOO_LARGE = "too large"
    TOO_MANY = "too many"  # past a rate limit: retry after `retry_after`


class Refused(ServiceError):
    """The request is refused: `kind` says how it is at fault."""

    def __init__(self, reason: str, field: str | None = None, kind: Kind = Kind.BAD_INPUT,
                 retry_after: int | None = None) -> None:
        super().__init__(reason, field, retry_after)
        self.kind = kind


class RefusedOnState(Refused):
    """Refused against the table's state as Redis has it, which the sender's own event, if
    appended already, has changed: before it is answered, the gateway looks for that event in
    the table's log (a retry: `services.gateway.tables.retries`)."""


def too_large(limit: int) -> Refused:
    return Refused(f"body larger than {limit} bytes", "body", Kind.TOO_LARGE)
