"""Reading a table: its current state (from Redis) and its history (from its topic), as the
reader may see them."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Query
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from services.common.errors import Unavailable
from services.common.kafka.reader import KafkaUnavailable, NoTableError
from services.common.names import feed_key
from services.common.store import board_of
from services.gateway.http.deps import GatewayDep, GrantDep
from services.gateway.http.errors import responses
from services.gateway.http.models import TableState
from services.gateway.http.state_models import BoardView, HistoryView, WithheldView
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tables.views import (
    board_for,
    entry_for,
    for_public,
    for_round_seat,
    hides_holdings,
    think_times_for,
    without_withheld,
)
from services.gateway.tokens import Grant, Role
from services.gateway.tournaments.players import admit_bound
from services.gateway.tournaments.public_boards import public_of
from services.replay.history import NoSuchBoard, record_of

router = APIRouter(prefix="/api/tables", tags=["reading"])
READ_TIMEOUT_S = 30
HISTORY = {"model": HistoryView, "description": "the history (format=json), or its PBN or LIN",
           "content": {"text/plain": {"schema": {"type": "string"}}}}


@router.get("/{table}/state", responses=responses(401, 403, 404, 503),
            response_model=TableState)
async def get_state(table: str, gw: GatewayDep, grant: GrantDep) -> Response:
    """The current board's state and the offset folded; a seat sees its own hand only, a
    spectator the table as it was `TABLESERVER_SPECTATOR_DELAY` ago (a tournament's board
    `withheld` until every table of the movement has played it)."""
    gw.may_read(grant, table)
    await gw.table_meta(table)
    await admit_bound(gw, grant, table, watching=True)  # a player's seat: its round's
    now = int(time.time() * 1000)
    if grant.role == Role.SPECTATOR:
        return await _public_state(gw, table, grant, now)
    found = await gw.adapters.store.read_state(table)
    if found is None:
        return _state(table, None, None)
    version, board = found
    delay = gw.settings.spectator_delay_s
    return _state(table, version, for_round_seat(grant, board, delay, now)
                  if grant.bound is not None else board_for(grant, board, delay, now))


def _state(table: str, version: int | None, board: BoardView | WithheldView | None
           ) -> Response:
    """A table's state as `TableState` declares it, written as it is: the board is the
    store's, typed there (`shared.table.board_view`), so it is not validated again on each read."""
    return Response(orjson.dumps({"table": table, "version": version, "board": board}),
                    media_type="application/json")


async def _public_state(gw: Gateway, table: str, grant: Grant, now: int) -> Response:
    """The newest state the public may see: of the table's feed, the delay ago
    (`public_feeds`; Redis away: a 503), and a tournament's board withheld until every table
    of the movement has played it."""
    delay = gw.settings.spectator_delay_s
    found: tuple[int, BoardView] | None
    if delay:
        entry = await gw.adapters.public.shown(feed_key(table), now)
        found = None if entry is None else (int(entry[1][b"version"]),
                                            board_of(entry[1][b"board"]))
    else:
        found = await gw.adapters.store.read_state(table)
    if found is None:
        return _state(table, None, None)
    version, board = found
    hidden = await public_of(gw).of_table(table)
    return _state(table, version, for_public(grant, board,
                                             lambda number: hidden.hides(table, number),
                                             delay, now))


@router.get("/{table}/history", response_model=None,
            responses={200: HISTORY, **responses(400, 401, 403, 404, 429, 503)})
async def get_history(table: str, gw: GatewayDep, grant: GrantDep,
                      board: Annotated[int | None, Query(ge=0)] = None,
                      until: Annotated[int | None, Query(ge=0)] = None,
                      format: Literal["json", "pbn", "lin"] = "json",
                      states: bool = False) -> Response:
    """The table's history read from its topic (`tableserver replay`), as the reader may see
    it: every event with the alerts it raised, and the board's state at that point. With
    `states=true` (one `board` only), each event carries the board's `state` just after it:
    a board replayed call by call in one read. A spectator reads the table as it was
    `TABLESERVER_SPECTATOR_DELAY` ago, without a tournament's boards some table of the
    movement has still to play (their PBN or LIN: 409)."""
    if states and board is None:
        raise Refused("states=true needs a board: ?board=N&states=true", "states")
    gw.may_read(grant, table)
    if grant.bound is not None:  # a player's seat reads its board in play, not the table's past
        raise Refused("a player's seat reads its board in play (GET …/state), not the "
                      "table's history", kind=Kind.FORBIDDEN)
    meta = await gw.table_meta(table)
    settings, adapters = gw.settings, gw.adapters
    now = int(time.time() * 1000)
    public = grant.role == Role.SPECTATOR  # the table as it was the delay ago
    before = now - settings.spectator_delay_s * 1000 if public and settings.spectator_delay_s \
        else None
    holder = f"{grant.role}:{grant.table}:{grant.seat}"  # whoever the token is for
    if not await adapters.history_limit.allow(holder, time.monotonic()):
        raise Refused(f"more than {settings.history_per_second} history reads a second "
                      "with this token", retry_after=1, kind=Kind.TOO_MANY)
    # a board's PBN or LIN record is written from the table's whole log: a board a round
    # started has no board_started of its own, its round_started came before it
    exported = board if format != "json" else None
    try:
        async with adapters.history.gate.slot():
            shared = await asyncio.wait_for(_history(
                gw, meta, table, None if exported is not None else board, until, states,
                before), READ_TIMEOUT_S)
    except (NoTableError, NoSuchBoard) as exc:
        raise Refused(str(exc), kind=Kind.NOT_FOUND) from None
    except KafkaUnavailable as exc:
        raise Unavailable(f"{exc}; retry", retry_after=2) from None
    except TimeoutError:  # the broker stopped answering mid-read
        raise Unavailable("Kafka did not give the history in time; retry",
                          retry_after=2) from None
    document = _as_seen(grant, shared, settings.spectator_delay_s, now)
    if public:
        hidden = await public_of(gw).of_table(table)
        document = without_withheld(document, lambda number: hidden.hides(table, number))
        if exported is not None and hidden.hides(table, exported):
            raise Refused(f"board {exported} is still being played at other tables of the "
                          "tournament: its record is public once every table has played it",
                          "board", Kind.CONFLICT)
    if format == "json":
        return _json(document)
    try:
        return PlainTextResponse(record_of(document, format, exported,
                                           players=hides_holdings(grant),
                                           times=grant.role == Role.DIRECTOR))
    except NoSuchBoard as exc:
        raise Refused(str(exc), kind=Kind.NOT_FOUND) from None


async def _history(gw: Gateway, meta: dict[str, Any], table: str, board: int | None,
                   until: int | None, states: bool, before_ms: int | None
                   ) -> HistoryView:
    """The shared history, from the table's topic, or from the archive once it is closed (a
    topic gone since this gateway cached the table's record: the record is read again); as
    it was at `before_ms` when given."""
    try:
        return await gw.adapters.history.history(table, board, until, states,
                                                 meta.get("archive"), before_ms)
    except NoTableError:
        meta = await gw.fresh_meta(table)
        if "archive" not in meta:
            raise
    return await gw.adapters.history.history(table, board, until, states, meta["archive"],
                                             before_ms)


def _as_seen(grant: Grant, shared: HistoryView, delay: int, now: int) -> HistoryView:
    """The history as `grant` may see it: a new document, its think times the Director's
    alone; `shared` (every reader's) is left as it is (its state is the board's whole: no
    board is withheld from it)."""
    state = shared["state"]
    return {**think_times_for(grant, shared),
            "history": [entry_for(grant, e, delay, now) for e in shared["history"]],
            "state": state if state is None or "withheld" in state
            else board_for(grant, state, delay, now)}


def _json(document: HistoryView) -> Response:
    """The document as JSON, written at once (it holds plain JSON values): FastAPI's own
    encoding walks it first, which took longer than folding the history."""
    try:
        return JSONResponse(document)
    except (TypeError, ValueError):  # a value JSON cannot hold, from a record not ours
        return JSONResponse(jsonable_encoder(document))
