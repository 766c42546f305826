"""Tournaments: the director creates one in a request, starts its rounds, watches its overview
(HTTP, or a socket that sends what changed) and exports the session."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Header, Path as PathParam, Query, WebSocket
from fastapi.responses import Response
from starlette.websockets import WebSocketDisconnect, WebSocketState

from services.common.errors import ServiceError, StoreUnavailable
from services.gateway.http.deps import DirectorDep, GatewayDep, GrantDep
from services.gateway.http.errors import responses, status_of
from services.gateway.http.models import (
    Closed,
    EntrantAdded,
    EntrantGiven,
    RoundStarted,
    TournamentCreate,
    TournamentCreated,
    TournamentLinks,
    TournamentRound,
    UnfinishedRule,
    VugraphMatch,
    VugraphMatchSet,
)
from services.gateway.http.routes.feeds import director_socket
from services.gateway.http.routes.pages import results_link, table_links, vugraph_link
from services.gateway.http.state_models import Overview, ResultsDoc
from services.gateway.refusals import Kind, Refused
from services.gateway.tables import table_logs
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Role, sign, vugraph_scope
from services.gateway.tournaments import (
    round_timing,
    scores as tournament_scores,
    service as tournaments,
)
from services.gateway.tournaments.close import close_tournament as close_all
from services.gateway.tournaments.hand_record_view import view as hand_records_view
from services.gateway.tournaments.players import tournament_clock
from services.gateway.tournaments.public_boards import set_match, with_matches
from services.gateway.tournaments.sessions import with_sessions
from services.gateway.tournaments.unfinished import TRICKS_LEFT, score_unfinished
from shared.tournament import hand_records, results_formats
from shared.tournament.export import MEDIA
from shared.tournament.session import Tournament

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
OVERVIEW_EVERY_S = 1.0  # how often a socket's overview is read again
VUGRAPH_LINE = ("table", "board", "status", "turn", "round", "boards_finished",
                "vugraph_match")


@router.post("", status_code=201, responses=responses(400, 401, 403, 409, 413, 503))
async def post_tournament(body: TournamentCreate, gw: GatewayDep, _: DirectorDep
                          ) -> TournamentCreated:
    """Create a tournament: every table (its topic, its record, its players' names), the
    tournament's own topic; the tables' seat and spectator tokens. The same request again
    creates nothing (`created: false`) and answers the same tables."""
    with round_timing.timed(f"the creation of {body.tournament} ({body.tables} tables)",
                            slow_s=round_timing.CREATION_SLOW_S) as spans:
        made, created = await tournaments.create(gw, body)
        links = _links(gw, made)
        round_timing.mark("the links signed")
    return TournamentCreated(**links.model_dump(), created=created, steps_s=spans.seconds())


@router.get("/{tournament}/links", responses=responses(401, 403, 404, 503))
async def get_links(tournament: str, gw: GatewayDep, _: DirectorDep) -> TournamentLinks:
    """Every table's seat and spectator tokens and seat pages, and the vugraph page: the
    links to hand out again (the director's printable sheet)."""
    made = await tournaments.find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    return _links(gw, made)


def _links(gw: Gateway, made: Tournament) -> TournamentLinks:
    expires = int(time.time()) + gw.settings.token_ttl_s
    key, base = gw.signing_key, gw.settings.link_base
    return TournamentLinks(
        tournament=made.tournament, name=made.name, boards=sorted(made.deals),
        tables=[table_links(key, t, expires, base) for t in made.tables],
        vugraph=vugraph_link(sign(key, vugraph_scope(made.tournament), None, Role.VUGRAPH,
                                  expires), base),
        results=results_link(made.tournament, base))


@router.post("/{tournament}/rounds", status_code=202,
             responses=responses(400, 401, 403, 404, 413, 503))
async def post_round(tournament: str, body: TournamentRound, gw: GatewayDep, _: DirectorDep
                     ) -> RoundStarted:
    """Start a round at every table (`boards`) or as the movement says: each table starts its
    first board at once (or when its board in progress ends) and each next one when the
    auction period of the one before ends. Sent again, it starts nothing twice."""
    with round_timing.timed(f"round {body.round} of {tournament}") as spans:
        tables = await tournaments.start_round(gw, tournament, body.round, body.boards,
                                               body.movement)
    return RoundStarted(round=body.round, tables=tables, steps_s=spans.seconds())


@router.post("/{tournament}/rounds/{number}/unfinished", status_code=202,
             responses=responses(400, 401, 403, 404, 409, 503))
async def post_unfinished(tournament: str, number: Annotated[int, PathParam(ge=1)],
                          gw: GatewayDep, _: DirectorDep, body: UnfinishedRule | None = None
                          ) -> dict[str, Any]:
    """Score round `number`'s unfinished boards by rule now (docs/scoring.md): not started or
    in the auction, an artificial score (Law 12C2), the side that took more than its share
    of the time at fault; in the play with at most `tricks_left` (K, 4 by default) tricks
    left, the double-dummy result from there. Each a Director's score with its reason, which
    he may replace; a board already scored is left as it is (sent again, nothing twice)."""
    made = await _found(gw, tournament)
    return await score_unfinished(gw, made, number,
                                  TRICKS_LEFT if body is None else body.tricks_left)


@router.post("/{tournament}/entrants", status_code=201,
             responses=responses(400, 401, 403, 404, 409, 503))
async def post_entrant(tournament: str, body: EntrantGiven, gw: GatewayDep, _: DirectorDep,
                       response: Response) -> EntrantAdded:
    """Add a pair or a team before the first round (docs/scoring.md), recorded on the tournament's
    topic: numbered next (a `number` given must be that one; sent again with its number, the
    same entrant is found: 200, nothing added). 409 naming `entrants` once a round has
    started; 400 naming the field when the movement no longer fits (e.g. `tables`)."""
    entrant, added = await tournaments.add_entrant(gw, tournament, body.model_dump())
    if not added:
        response.status_code = 200
    return EntrantAdded(**entrant, added=added)


@router.get("/{tournament}", responses=responses(401, 403, 404, 503), response_model=Overview)
async def get_overview(tournament: str, gw: GatewayDep, _: DirectorDep) -> Response:
    """The live overview: each table's board, status (`waiting`, `auction`, `closed`: the
    opening lead awaited, `play`, `held`, `done`), whose turn (to call, on lead, or to play),
    alerts raised and open, seconds since its last event (`idle_s`; `last_ts` its time, ms
    since the epoch), whether the Director shows it live to the public (`vugraph_match`);
    the session's totals (`playing`: the tables in the auction, on lead or in the play).
    Written as built, typed there (`tournaments.overview_view`), not validated again."""
    view = await with_matches(gw, await tournaments.overview(gw, tournament))
    return Response(orjson.dumps(view), media_type="application/json")


@router.get("/{tournament}/vugraph", responses=responses(401, 403, 404, 503))
async def get_vugraph(tournament: str, gw: GatewayDep, grant: GrantDep) -> dict[str, object]:
    """The tournament's tables for its vugraph page (the tournament's vugraph token, or the
    director's): each table's board, status and whose turn, whether the Director shows it
    live (`vugraph_match`), and its spectator page (`/vugraph#<spectator token>`: the table
    after the vugraph delay, a board withheld until every table has played it); the round's
    `clock` (round, ends_at, over, held, left; None untimed). No hand, no call, no card, no
    alert, no player's name."""
    if grant.role != Role.DIRECTOR and not (grant.role == Role.VUGRAPH
                                         and grant.table == vugraph_scope(tournament)):
        raise Refused(f"this token is not for tournament {tournament}", kind=Kind.FORBIDDEN)
    view = await with_matches(gw, await tournaments.overview(gw, tournament))
    expires, key = int(time.time()) + gw.settings.token_ttl_s, gw.signing_key
    return {"tournament": tournament, "name": view["name"],
            "clock": await tournament_clock(gw, tournament), "tables": [
        {**{k: v for k, v in line.items() if k in VUGRAPH_LINE},
         "link": vugraph_link(sign(key, line["table"], None, Role.SPECTATOR, expires),
                              gw.settings.link_base)}
        for line in view["tables"]]}


@router.put("/{tournament}/tables/{table}/vugraph-match",
            responses=responses(400, 401, 403, 404, 409, 503))
async def put_vugraph_match(tournament: str, table: str, body: VugraphMatch, gw: GatewayDep,
                            _: DirectorDep) -> VugraphMatchSet:
    """Show a table live to the public, or stop (`{"on": true|false}`): a vugraph match, its
    boards seen by spectators after the vugraph delay alone. Otherwise the public sees a
    tournament's board only once every table of the movement has played it (Laws 80B,
    16C1). Recorded on the tournament's topic: every gateway follows within a second or
    two. 404 for a table not in the tournament, 409 once it is closed."""
    return VugraphMatchSet(**await set_match(gw, tournament, table, body.on))


@router.get("/{tournament}/export", responses=responses(400, 401, 403, 404, 503),
            response_class=Response)
async def get_export(tournament: str, gw: GatewayDep, _: DirectorDep,
                     format: Literal["pbn", "lin", "json"] = Query("pbn")) -> Response:
    """Every board of every table: PBN 2.1 (tags, auctions with notes and irregularity
    markers, contract, opening lead, the director's alerts and rulings as commentary), LIN,
    or JSON (each table's events, for an exact replay)."""
    text = await tournaments.export(gw, tournament, format)
    return Response(text, media_type=MEDIA[format], headers={
        "Content-Disposition": f'attachment; filename="{tournament}.{format}"'})


@router.post("/{tournament}/scores", status_code=202,
             responses=responses(400, 401, 403, 404, 503))
async def post_score(tournament: str, body: dict[str, Any], gw: GatewayDep, _: DirectorDep
                     ) -> dict[str, int]:
    """The Director's score on a board, with its reason, at any time (docs/scoring.md, docs/api.md):
    `kind` `corrected`, `assigned` (Law 12C1(b)), `weighted` (12C1(c)), `split`,
    `artificial` (12C2) between the entrants `ns` and `ew`, or `penalty` (Law 90) on an
    `entrant`. Recorded on the tournament's topic; the results follow."""
    made = await _found(gw, tournament)
    return {"offset": await tournament_scores.give_score(gw, made, body)}


RESULTS = {"model": ResultsDoc, "description": "the results (format=json), or their CSV, "
           "PBN or USEBIO", "content": {"text/plain": {"schema": {"type": "string"}}}}


@router.get("/{tournament}/results", response_model=None,
            responses={200: RESULTS, **responses(400, 401, 403, 404, 503)})
async def get_results(tournament: str, gw: GatewayDep,
                      authorization: str | None = Header(None),
                      format: Literal["json", "csv", "pbn", "usebio"] = Query("json")
                      ) -> Response | ResultsDoc:
    """The rankings and travellers (pairs) or matches (teams), with the Director's scores and
    their reasons. The director's token sees every board; anyone else (no token needed) the
    travellers of the boards every table of the movement has finished. `format`: json, csv,
    pbn (PBN 2.1's `[TotalScoreTable]` and `[ScoreTable]`, pairs only) or usebio (USEBIO 1.2
    XML, matchpoint pairs only)."""
    everything = authorization is not None and gw.grant_from(authorization).role == \
        Role.DIRECTOR
    made = await _found(gw, tournament)
    doc = await tournament_scores.results_of(gw, made, everything)
    if format == "json":
        return await with_sessions(gw, made, doc, everything)
    try:
        text, media = results_formats.write(doc, made, format)
    except results_formats.FormatError as exc:
        raise Refused(str(exc), exc.field) from None
    return Response(text, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{tournament}-results.'
                               f'{results_formats.EXTENSION[format]}"'})


@router.get("/{tournament}/hand-records", responses=responses(401, 403, 404, 503),
            response_model=None)
async def get_hand_records(tournament: str, gw: GatewayDep,
                           authorization: str | None = Header(None),
                           format: Literal["json", "pbn"] = Query("json")
                           ) -> Response | dict[str, Any]:
    """Each board's deal with its double-dummy table (the tricks each declarer takes in each
    strain) and par at the board's vulnerability (docs/scoring.md), solved once per board off
    the request path: a board not solved yet is `pending`. The director's token sees every
    board; anyone else (no token needed) the boards every table of the movement has
    finished (Law 16C1). `format`: json, or pbn (PBN 2.1's `[OptimumScore]`,
    `[ParContract]` and `[OptimumResultTable]`, the boards ready)."""
    everything = authorization is not None and gw.grant_from(authorization).role == \
        Role.DIRECTOR
    made = await _found(gw, tournament)
    doc = await hand_records_view(gw, made, everything)
    if format == "json":
        return doc
    return Response(hand_records.pbn_document(made, doc), media_type=MEDIA["pbn"], headers={
        "Content-Disposition": f'attachment; filename="{tournament}-hand-records.pbn"'})


@router.post("/{tournament}/close", responses=responses(401, 403, 404, 409, 503))
async def close_tournament(tournament: str, gw: GatewayDep, _: DirectorDep,
                           force: bool = False) -> Closed:
    """Close every table of the tournament at once (`POST /api/tables/{t}/close`): they take
    no more events, their events are archived and their topics deleted; then the tournament's
    own topic (its rounds, entrants, scores) likewise: it takes no more (409). The export, the
    results and each table's history read the archive afterwards, the same. A board in play
    at any table: 409 naming them, nothing closed, unless `force=true`."""
    made = await _found(gw, tournament)
    records = await table_logs.records_of(gw, list(made.tables))
    return Closed(**await close_all(gw, made.tournament, records, force))


async def _found(gw: Gateway, tournament: str) -> Tournament:
    made = await tournaments.find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    return made


@router.websocket("/{tournament}/live")
async def overview_socket(websocket: WebSocket, tournament: str) -> None:
    """The overview, then every second the tables whose line changed (a line whose only change
    is its `idle_s` is not sent again: `now` − `last_ts` tells it) and the totals. Only the
    director watches it: a socket of its own, with no fan-out. Closed 4404 for a tournament
    that does not exist, 1011 when Redis or Kafka cannot be read (retry)."""
    gw = await director_socket(websocket)
    if gw is None:
        return
    if websocket.client_state is WebSocketState.CONNECTING:  # else accepted for its token
        await websocket.accept()
    sent: dict[str, dict[str, Any]] = {}
    try:
        while True:
            try:
                view = await with_matches(gw, await tournaments.overview(gw, tournament))
            except StoreUnavailable:
                await websocket.close(code=1011, reason="Redis is unreachable; retry")
                return
            except ServiceError as exc:
                await websocket.close(code=4404 if status_of(exc) == 404 else 1011,
                                      reason=str(exc)[:120])
                return
            lines = {t["table"]: {k: v for k, v in t.items() if k != "idle_s"}
                     for t in view["tables"]}
            changed = [t for t in view["tables"] if sent.get(t["table"]) != lines[t["table"]]]
            sent.update({t["table"]: lines[t["table"]] for t in changed})
            await websocket.send_text(json.dumps({**view, "tables": changed}))
            with contextlib.suppress(TimeoutError):
                message = await asyncio.wait_for(websocket.receive(), OVERVIEW_EVERY_S)
                if message["type"] == "websocket.disconnect":
                    return
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
