"""The doors of an event: the FastAPI route, the plain ASGI call path (`asgi.Guard`) and a
socket's message. Each reads the JSON once, with the same checks (its size, how deep it
nests, a JSON object), and hands the map to the one command, `Gateway.accept_event`; each
turns its answer, `Accepted` or a domain error, into its own shape (`services.gateway.http.errors`
has the statuses).

A body that is not an event's JSON is refused after the sender's own refusals (a spectator, a
token for another table, a table that does not exist), in the order the gateway has always
answered them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from services.common.errors import ServiceError
from services.gateway.http.asgi import BodyAdmission, EventHandler
from services.gateway.http.errors import Answer, answer_of
from services.gateway.refusals import Refused, too_large
from services.gateway.tables.service import Accepted, Gateway
from services.gateway.tokens import Grant
from services.gateway.tournaments.players import admit_bound

MAX_DEPTH = 8  # an event is one object of plain values: nesting is only ever an attack


def nesting(raw: bytes) -> int:
    """How deep the JSON text's arrays and objects nest (brackets inside strings ignored).
    Counted before parsing, only for a body with many brackets at all."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def checked_size(raw: bytes, limit: int) -> None:
    """A body's size and depth, before it is parsed."""
    if len(raw) > limit:
        raise too_large(limit)
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and nesting(raw) > MAX_DEPTH:
        raise Refused(f"body is nested deeper than {MAX_DEPTH}", "body")


def read_event(raw: bytes, limit: int) -> dict[str, Any]:
    """An HTTP body as the event's map: parsed once, after its size and depth."""
    checked_size(raw, limit)
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise Refused(f"body is not JSON: {exc}", "body") from None
    if not isinstance(body, dict):
        raise Refused("body must be a JSON object")
    return body


async def accept(gw: Gateway, table: str, grant: Grant,
                 read: Callable[[], dict[str, Any]]) -> Accepted:
    """The event its door `read`s, given to the one command; what the door could not read is
    refused once the sender's own refusals are checked. Past `TABLESERVER_EVENTS_IN_FLIGHT`
    events under way in this gateway it waits for a turn, and is refused before anything
    when none comes within `TABLESERVER_EVENT_WAIT_MS` (`gates.Busy`: 503, Retry-After),
    whatever its door."""
    async with gw.in_flight.slot():
        await admit_bound(gw, grant, table)  # a player's seat: while its round lasts
        try:
            body = read()
        except Refused:
            await gw.may_send(table, grant)
            raise
        return await gw.accept_event(table, grant, body)


async def accept_http(gw: Gateway, table: str, grant: Grant, raw: bytes) -> Accepted:
    """The HTTP doors' way in (the route and the call path): the body as sent."""
    return await accept(gw, table, grant, lambda: read_event(raw, gw.settings.max_body_bytes))


def events_answer(gw: Gateway) -> EventHandler:
    """The call path's callback (`asgi.Guard`): (table, Authorization header, body) → the
    answer, never raised."""

    async def answer(table: str, authorization: str | None, raw: bytes) -> Answer:
        try:
            grant = gw.grant_from(authorization)
            accepted = await accept_http(gw, table, grant, raw)
        except ServiceError as refused:
            return answer_of(refused)
        return 202, {"offset": accepted.offset}, {}

    return answer


def admission(gw: Gateway) -> BodyAdmission:
    """The guard's check before a body is read (`Gateway.admits_body`), as its answer."""

    def admit(authorization: str | None, upload: bool) -> Answer | None:
        try:
            gw.admits_body(authorization, upload)
        except ServiceError as refused:
            return answer_of(refused)
        return None

    return admit


async def socket_ack(gw: Gateway, table: str, grant: Grant, text: str,
                     body: dict[str, Any]) -> dict[str, Any]:
    """A socket's message (`text`, parsed once as `body`), with the HTTP body's checks of
    size and depth: `{"ack": client_seq, "offset": n}`, or `{"ack", "error", "field",
    "status"}` with the status HTTP would answer (and `retry_after`, seconds, where HTTP
    would send `Retry-After`)."""

    def read() -> dict[str, Any]:
        checked_size(text.encode(), gw.settings.max_body_bytes)
        return body

    ack = body.get("client_seq")
    try:
        accepted = await accept(gw, table, grant, read)
    except ServiceError as refused:
        status, reply, _ = answer_of(refused)
        after = {} if refused.retry_after is None else {"retry_after": refused.retry_after}
        return {"ack": ack, **reply, "status": status, **after}
    return {"ack": ack, "offset": accepted.offset}
