"""Reading a table: its current state (from Redis) and its history (from its topic), as the
reader may see them."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse

from services.gateway.deps import GatewayDep, GrantDep
from services.gateway.errors import ApiError, responses
from services.gateway.models import TableState
from services.gateway.state_models import BoardState, History
from services.gateway.views import board_for, entry_for
from services.replay.history import NoSuchBoard, build_history, events_of
from services.replay.reader import KafkaUnavailable, NoTableError
from shared.notation.export import to_lin, to_pbn

router = APIRouter(prefix="/api/tables", tags=["reading"])
READ_TIMEOUT_S = 30
HISTORY = {"model": History, "description": "the history (format=json), or its PBN or LIN",
           "content": {"text/plain": {"schema": {"type": "string"}}}}


@router.get("/{table}/state", responses=responses(401, 403, 404, 503),
            response_model_exclude_unset=True)  # a key the board leaves out stays out
async def get_state(table: str, gw: GatewayDep, grant: GrantDep) -> TableState:
    """The current board's state and the offset folded; a seat sees its own hand only."""
    gw.may_read(grant, table)
    await gw.table_meta(table)
    found = await gw.clients.store.read_state(table)
    if found is None:
        return TableState(table=table, version=None, board=None)
    version, board = found
    return TableState(table=table, version=version, board=BoardState.model_validate(board_for(
        grant, board, gw.settings.spectator_delay_s, int(time.time() * 1000))))


@router.get("/{table}/history", response_model=None,
            responses={200: HISTORY, **responses(400, 401, 403, 404, 429, 503)})
async def get_history(table: str, gw: GatewayDep, grant: GrantDep,
                      board: Annotated[int | None, Query(ge=0)] = None,
                      until: Annotated[int | None, Query(ge=0)] = None,
                      format: Literal["json", "pbn", "lin"] = "json",
                      states: bool = False) -> dict[str, Any] | PlainTextResponse:
    """The table's history read from its topic (`tableserver replay`), as the reader may see
    it: every event with the alerts it raised, and the board's state at that point. With
    `states=true` (one `board` only), each event carries the board's `state` just after it:
    a board replayed call by call in one read."""
    if states and board is None:
        raise ApiError(400, "states=true needs a board: ?board=N&states=true", "states")
    gw.may_read(grant, table)
    await gw.table_meta(table)
    settings, clients = gw.settings, gw.clients
    holder = f"{grant.role}:{grant.table}:{grant.seat}"  # whoever the token is for
    if not await clients.history_limit.allow(holder, time.monotonic()):
        raise ApiError(429, f"more than {settings.history_per_second} history reads a second "
                       "with this token", retry_after=1)
    reader = await clients.readers.get()  # a long-lived consumer, one read at a time
    try:
        records = await asyncio.wait_for(reader.read(table, until), READ_TIMEOUT_S)
        document = build_history(table, records, board, until, states)
    except (NoTableError, NoSuchBoard) as exc:
        raise ApiError(404, str(exc)) from None
    except KafkaUnavailable as exc:
        raise ApiError(503, f"{exc}; retry", retry_after=2) from None
    except TimeoutError:  # the broker stopped answering mid-read
        raise ApiError(503, "Kafka did not give the history in time; retry",
                       retry_after=2) from None
    finally:
        clients.readers.put_nowait(reader)
    now, delay = int(time.time() * 1000), settings.spectator_delay_s
    document["history"] = [entry_for(grant, e, delay, now) for e in document["history"]]
    if document["state"] is not None:
        document["state"] = board_for(grant, document["state"], delay, now)
    if format == "json":
        return document
    writer = to_pbn if format == "pbn" else to_lin
    return PlainTextResponse(writer(events_of(document)))
