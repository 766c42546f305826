"""The live feeds: a table's states (and a seat's events sent back on its socket), the
director's alerts. `services.gateway.feeds.sockets` serves a socket; the hubs fan out. A spectator
follows the public's feed (`public_feeds`: after the delay), a tournament's boards withheld
until every table has played them (`public_boards`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from services.common.errors import ServiceError
from services.common.names import ALERTS, feed_key
from services.gateway.feeds.feed_frames import BoardFrames
from services.gateway.feeds.sockets import MAX_MESSAGE, close_quietly, serve_feed
from services.gateway.http.asgi import origin_allowed
from services.gateway.http.doors import socket_ack
from services.gateway.refusals import Refused
from services.gateway.tables.seat_presence import pages_of
from services.gateway.tables.service import DIRECTOR_EVENTS, Gateway
from services.gateway.tables.views import board_for, for_public, for_round_seat
from services.gateway.tokens import Grant, Role
from services.gateway.tournaments.players import admit_bound
from services.gateway.tournaments.public_boards import public_of
from shared.table.substitutes import page_key

router = APIRouter()
FRAMES = BoardFrames()  # the entry the hub is rendering, shared by its views (one event loop)
AUTH_WAIT_S = 10.0  # for a socket's first message, its token


async def socket_grant(websocket: WebSocket) -> tuple[Gateway, Grant | None]:
    """The socket's grant, or None once the socket is refused: 4403 for an origin not allowed
    (the gateway's own always is, for its pages), 4401 for a bad or missing token. The token
    comes in the socket's first message,
    `{"type": "auth", "token": …}` (within `AUTH_WAIT_S`), so that it never lands in a log of
    URLs as a query would; a `token` query parameter is still taken (the command line, older
    clients)."""
    gw: Gateway = websocket.app.state.gateway
    origin, host = websocket.headers.get("origin", ""), websocket.headers.get("host", "")
    if not origin_allowed(origin, host, gw.settings.allowed_origins):
        await close_quietly(websocket, 4403)
        return gw, None
    token = websocket.query_params.get("token")
    if token is None:
        await websocket.accept()
        token = await _first_message_token(websocket)
        if websocket.client_state is WebSocketState.DISCONNECTED:
            return gw, None  # the client left before authenticating: nothing to say or log
    try:
        return gw, gw.grant_of(token)
    except ServiceError:
        await close_quietly(websocket, 4401, 'a valid token first: {"type":"auth","token":…}')
        return gw, None


async def _first_message_token(websocket: WebSocket) -> str | None:
    try:
        message = await asyncio.wait_for(websocket.receive_text(), AUTH_WAIT_S)
        body = json.loads(message) if len(message) <= MAX_MESSAGE else None
    except (TimeoutError, ValueError, KeyError, RuntimeError, WebSocketDisconnect):
        return None
    if not isinstance(body, dict) or body.get("type") != "auth":
        return None
    token = body.get("token")
    return token if isinstance(token, str) else None


async def director_socket(websocket: WebSocket) -> Gateway | None:
    """The gateway, for a socket with the director's token; None once the socket is refused
    (`socket_grant`'s codes, 4403 for another token)."""
    gw, grant = await socket_grant(websocket)
    if grant is None:
        return None
    if grant.role != Role.DIRECTOR:
        await close_quietly(websocket, 4403)
        return None
    return gw


@router.websocket("/api/tables/{table}/feed")
async def table_feed(websocket: WebSocket, table: str) -> None:
    gw, grant = await socket_grant(websocket)
    if grant is None:
        return
    if not gw.reads(grant, table):
        await close_quietly(websocket, 4403)
        return
    try:
        await admit_bound(gw, grant, table, watching=True)  # a player's seat: its round's
    except ServiceError as exc:
        await close_quietly(websocket, 4403 if isinstance(exc, Refused) else 1011, str(exc))
        return
    delay = gw.settings.spectator_delay_s
    public = public_of(gw) if grant.role == Role.SPECTATOR else None

    def render(entry_id: str, fields: dict[bytes, bytes]) -> str:
        now = int(time.time() * 1000)
        if grant.bound is not None:  # a player's seat: its round's boards only
            return FRAMES.frame(entry_id, fields,
                                lambda board: for_round_seat(grant, board, delay, now))
        if public is None:
            return FRAMES.frame(entry_id, fields,
                                lambda board: board_for(grant, board, delay, now))
        hidden = public.known(table)  # kept fresh while the public follows the table
        return FRAMES.frame(entry_id, fields, lambda board: for_public(
            grant, board, lambda number: hidden.hides(table, number), delay, now))

    async def answer(text: str, body: dict[str, Any]) -> str | None:
        """An event sent on the socket, parsed once: the same command as the HTTP doors;
        `{"ack": client_seq, "offset": n}` or `{"ack", "error", "field", "status"}`."""
        kind = body.get("type")
        if not isinstance(kind, str) or kind not in DIRECTOR_EVENTS:
            return None
        return json.dumps(await socket_ack(gw, table, grant, text, body))

    if public is None:
        page = grant.role == Role.SEAT and grant.seat is not None and \
            websocket.query_params.get("robot") != "1"  # a person's: marked open (substitutes)
        key = page_key(str(grant.seat), None if grant.bound is None else grant.bound.round)
        if page:
            await pages_of(gw).opened(table, key)
        try:
            await serve_feed(websocket, gw.adapters.hub, feed_key(table),
                             (grant.role, grant.seat, grant.bound), render, answer=answer)
        finally:
            if page:
                await pages_of(gw).closed(table, key)
        return
    public.follow(table)  # the public's: after the delay, a tournament's boards withheld
    try:
        with contextlib.suppress(ServiceError):  # else every board withheld,
            await public.of_table(table)  # until `PublicBoards.run` can tell
        await serve_feed(websocket, gw.adapters.public if delay else gw.adapters.hub,
                         feed_key(table), (grant.role, grant.seat), render, answer=answer)
    finally:
        public.unfollow(table)


@router.websocket("/api/alerts/feed")
async def alerts_feed(websocket: WebSocket) -> None:
    gw = await director_socket(websocket)
    if gw is None:
        return

    def render(entry_id: str, fields: dict[bytes, bytes]) -> str:
        return json.dumps({"id": entry_id, "alert": json.loads(fields[b"alert"])})

    await serve_feed(websocket, gw.adapters.alerts, ALERTS, Role.DIRECTOR, render,
                     default_since="$")  # new alerts only, unless resuming
