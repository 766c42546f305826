"""A fouled board (Law 87), marked by the Director: `POST /api/tournaments/{t}/fouled`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.refusals import Kind, Refused
from services.gateway.tournaments import service as tournaments
from services.gateway.tournaments.fouled import foul_board

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


@router.post("/{tournament}/fouled", status_code=202,
             responses=responses(400, 401, 403, 404, 409, 503))
async def post_fouled(tournament: str, body: dict[str, Any], gw: GatewayDep, _: DirectorDep
                      ) -> dict[str, int]:
    """A board played in a changed form at some tables (Law 87A): `board`, `groups` (each a
    list of `{ns, ew}`, the places that played one changed form), `reason`. Each group is
    scored apart, factored to the full top (Law 87B, docs/scoring.md); `groups: []` unmarks
    the board. Recorded on the tournament's topic (`board_fouled`); the results follow."""
    made = await tournaments.find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    return {"offset": await foul_board(gw, made, body)}
