"""Events at a table: a seat's calls and the rest, the director's rulings."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from services.gateway.http.deps import GatewayDep, GrantDep
from services.gateway.http.doors import accept_http
from services.gateway.http.errors import responses
from services.gateway.http.models import Accepted, EventIn

router = APIRouter(prefix="/api/tables", tags=["events"])


def inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with its `$defs` (pydantic's, for the enums) put in place of their `$ref`s:
    the OpenAPI document has no `#/$defs/…` for a request body given by hand, and ReDoc
    refuses such a reference."""
    defs = schema.pop("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return resolve(defs[ref.removeprefix("#/$defs/")])
            return {key: resolve(value) for key, value in node.items()}
        if isinstance(node, list):
            return [resolve(value) for value in node]
        return node

    resolved: dict[str, Any] = resolve(schema)
    return resolved


@router.post("/{table}/events", status_code=202,
             responses=responses(400, 401, 403, 404, 409, 413, 429, 503),
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": inlined(EventIn.model_json_schema())}}}})
async def post_event(table: str, request: Request, gw: GatewayDep, grant: GrantDep
                     ) -> Accepted:
    """Append an event once Kafka has acknowledged it; the seat comes from the token. Served
    by `services.gateway.http.asgi.Guard` without FastAPI's layers (the call path); declared here
    for OpenAPI and for any request the guard passes on; both read the body once and give it
    to the one command (`services.gateway.http.doors`). The body is read as sent: its syntax is
    the event schema's (`shared.codec`), with its own messages."""
    accepted = await accept_http(gw, table, grant, await request.body())
    return Accepted(offset=accepted.offset)
