"""The players' links (the player's evening): a player's page asks where he is now
(`GET /api/play`) and listens on its socket (`/api/play/live`), which sends his place again
whenever it changes (a round starts, his table's round ends); the Director lists the links
(JSON or CSV), issues a player a new one and moves a player by hand."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
from typing import Any, Literal

from fastapi import APIRouter, Query, WebSocket
from fastapi.responses import Response
from starlette.websockets import WebSocketDisconnect, WebSocketState

from services.common.errors import ServiceError, StoreUnavailable
from services.gateway.feeds.sockets import close_quietly
from services.gateway.http.deps import DirectorDep, GatewayDep, GrantDep
from services.gateway.http.errors import responses, status_of
from services.gateway.http.models import PlayerMove
from services.gateway.http.routes.feeds import socket_grant
from services.gateway.tables.service import Gateway
from services.gateway.tokens import PlayerScope, Role
from services.gateway.tournaments import entry_links, play_watch, players

router = APIRouter(tags=["players"])
PLAY_EVERY_S = players.FRESH_S  # how often a tournament's play sockets' watcher looks again
AGAIN_S = 5.0  # a play socket's view computed again at least this often
CSV_COLUMNS = ("entrant", "entrant_name", "place", "name", "player_id", "generation", "link")


@router.get("/api/play", responses=responses(401, 403, 404, 503))
async def get_play(gw: GatewayDep, grant: GrantDep) -> dict[str, Any]:
    """Where the player of a player's token is now: `phase` `lobby` (before round 1: the
    entrants so far), `seated` (his `seat` of the round in progress, with its `token`, a seat
    token acting only while his table plays that round's boards), `between` (his next `seat`,
    his entrant's running `score`) or `end` (his `scorecard` too). 403 for another token, or
    for a link the Director has replaced. A link from an entry's answer (by entry): the lobby
    while entries are open (`entries` `open`, his `entry`), a 403 once his entry is refused,
    his entrant's place after the close."""
    return await entry_links.play_view(gw, players.player_of(grant))


@router.get("/api/tournaments/{tournament}/players", response_model=None,
            responses=responses(400, 401, 403, 404, 503))
async def get_players(tournament: str, gw: GatewayDep, _: DirectorDep,
                      format: Literal["json", "csv"] = Query("json")
                      ) -> Response | dict[str, Any]:
    """Every player's link (`/play#<token>`: his one link for the evening), by entrant and
    place, with his name, ID and the link's generation; `format=csv` for a printable sheet."""
    doc = await players.players_list(gw, tournament)
    if format == "json":
        return doc
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for line in doc["players"]:
        writer.writerow([line[c] for c in CSV_COLUMNS])
    return Response(out.getvalue(), media_type="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{tournament}-players.csv"'})


@router.post("/api/tournaments/{tournament}/players/{entrant}/{place}/reissue",
             status_code=201, responses=responses(400, 401, 403, 404, 409, 503))
async def post_reissue(tournament: str, entrant: int, place: int, gw: GatewayDep,
                       _: DirectorDep) -> dict[str, Any]:
    """A new link for the player: his older ones stop working (403), his seat's token of the
    round in progress too. Recorded on the tournament's topic."""
    return await players.reissue(gw, tournament, entrant, place)


@router.post("/api/tournaments/{tournament}/players/moves", status_code=201,
             responses=responses(400, 401, 403, 404, 409, 503))
async def post_move(tournament: str, body: PlayerMove, gw: GatewayDep, _: DirectorDep
                    ) -> dict[str, Any]:
    """Move a player by hand (a late change of partner): his link seats him as player
    `to_place` of entrant `to_entrant` from now on (`to` his own place: moved back)."""
    return await players.move(gw, tournament, body.model_dump())


@router.websocket("/api/play/live")
async def play_socket(websocket: WebSocket) -> None:
    """The player's place (`GET /api/play`'s), then again each time it changes: a round's
    start moves his page within `PLAY_EVERY_S` and a read (`play_watch`: one read a tick for
    every socket of the tournament; a socket computes its view only when that read changed,
    and at least every `AGAIN_S`, the Director's scores included). The token comes as the
    first message (`{"type":"auth","token":…}`); a `ping` is answered `pong`. Closed 4403 for
    another token or a link replaced (reissued), 4404 for a tournament gone, 1011 when Redis
    or Kafka cannot be read (retry)."""
    gw, grant = await socket_grant(websocket)
    if grant is None:
        return
    if grant.role != Role.PLAYER or grant.player is None:
        await close_quietly(websocket, 4403, "a player's link (/play#<token>) only")
        return
    if websocket.client_state is WebSocketState.CONNECTING:
        await websocket.accept()
    sending = asyncio.Lock()  # the view and the pong, one frame at a time
    async with play_watch.listening(gw, grant.player) as watch:
        listener = asyncio.ensure_future(_answer_pings(websocket, sending))
        try:
            await _send_views(websocket, gw, grant.player, watch, listener, sending)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        finally:
            listener.cancel()


async def _send_views(websocket: WebSocket, gw: Gateway, player: PlayerScope,
                      watch: play_watch.Watch, listener: asyncio.Future[None],
                      sending: asyncio.Lock) -> None:
    """The player's view each time it changes, until his page leaves or the view fails."""
    sent: dict[str, Any] | None = None
    while not listener.done():
        change, generation = watch.next_change(), watch.generation
        try:  # computed once, its token signed each time (cheap beside a second view)
            view = await entry_links.play_view(gw, player)
            if players.without_token(view) != sent:
                sent = players.without_token(view)
                async with sending:
                    await websocket.send_text(json.dumps(view))
            watch.answered(generation)
        except StoreUnavailable:
            await close_quietly(websocket, 1011, "Redis is unreachable; retry")
            return
        except ServiceError as exc:
            status = status_of(exc)
            await close_quietly(websocket, {403: 4403, 404: 4404}.get(status, 1011), str(exc))
            return
        await asyncio.wait({listener, change}, timeout=AGAIN_S,
                           return_when=asyncio.FIRST_COMPLETED)


async def _answer_pings(websocket: WebSocket, sending: asyncio.Lock) -> None:
    """Each `ping` answered `pong`, until the page leaves."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if '"ping"' in (message.get("text") or ""):
                async with sending:
                    await websocket.send_text('{"type":"pong"}')
