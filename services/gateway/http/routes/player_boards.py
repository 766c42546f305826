"""One player's boards across a tournament's tables, for the Director (`GET /api/tournaments/
{t}/boards?player=…`): by the player's ID, or by his name at a seat with no ID."""

from __future__ import annotations

import orjson
from fastapi import APIRouter, Query, Response

from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.http.state_models import PlayerBoards
from services.gateway.tournaments.player_boards import boards_of

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


@router.get("/{tournament}/boards", responses=responses(400, 401, 403, 404, 503),
            response_model=PlayerBoards)
async def get_player_boards(tournament: str, gw: GatewayDep, _: DirectorDep,
                            player: str = Query(description="the player's ID, or his name "
                                                "(a seat with no ID)", max_length=200)
                            ) -> Response:
    """Every board one player sat at in the tournament, across its tables: table, round,
    seat, partner, contract, result and score, from the tables' records (`players_named`'s
    names and IDs). 400 naming `player` for an empty or too long one. Written as built,
    typed there (`shared.tournament.player_boards_view`), not validated again."""
    return Response(orjson.dumps(await boards_of(gw, tournament, player)),
                    media_type="application/json")
