"""The HTTP edge of the gateway's errors: every refusal in one shape, `{"error": …, "field": …}`,
with its status (and `Retry-After` for a service that is down or a rate limit), for the routes,
the call path and FastAPI's own checks. The domain errors (`services.gateway.refusals`) get
their statuses here, `STATUS`, and nowhere else."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from services.common.errors import ServiceError, StoreUnavailable
from services.gateway.refusals import Kind, Refused

log = logging.getLogger("tableserver.gateway")

STATUS: dict[Kind, int] = {
    Kind.BAD_INPUT: 400, Kind.UNAUTHORIZED: 401, Kind.FORBIDDEN: 403, Kind.NOT_FOUND: 404,
    Kind.CONFLICT: 409, Kind.TOO_LARGE: 413, Kind.TOO_MANY: 429}
UNAVAILABLE = 503
Answer = tuple[int, dict[str, Any], dict[str, str]]  # status, JSON body, more headers


def status_of(error: ServiceError) -> int:
    """The HTTP status of a domain error (a socket's ack says it too)."""
    return STATUS[error.kind] if isinstance(error, Refused) else UNAVAILABLE


def answer_of(error: ServiceError) -> Answer:
    """An error as HTTP answers it: status, body, headers (`Retry-After`)."""
    after = error.retry_after
    return status_of(error), error.body, {} if after is None else {"Retry-After": str(after)}


class ErrorBody(BaseModel):
    """What every refusal answers."""

    error: str
    field: str | None = None


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals a route may answer, for OpenAPI."""
    what = {400: "bad input", 401: "no, forged or expired token", 403: "not allowed",
            404: "no such table", 409: "in conflict with the table", 413: "body too large",
            429: "too many requests; Retry-After", 503: "Kafka or Redis unreachable; "
            "Retry-After"}
    return {status: {"model": ErrorBody, "description": what[status]} for status in statuses}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def refused(request: Request, exc: ServiceError) -> JSONResponse:
        status, body, headers = answer_of(exc)
        return JSONResponse(body, status_code=status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        """FastAPI's own checks (a body field, a query parameter…) in the same shape."""
        first = exc.errors()[0] if exc.errors() else {}
        location = [str(part) for part in first.get("loc", ()) if part != "body"]
        field = location[-1] if location else "body"
        return await refused(request, Refused(
            f"field {field!r}: {first.get('msg', 'invalid')}", field))

    @app.exception_handler(StarletteHTTPException)
    async def http_refused(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """The framework's own refusals (no such route, a method a route does not have), with
        the framework's status."""
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(StoreUnavailable)
    async def redis_down(request: Request, exc: StoreUnavailable) -> JSONResponse:
        """Redis failed (its adapters' error): 503, Retry-After."""
        log.warning("Redis failed (%r): answered 503", exc.__cause__ or exc)  # repeats held back
        return await refused(request, exc)
