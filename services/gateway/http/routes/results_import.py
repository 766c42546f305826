"""A tournament's results imported from another scoring program's USEBIO 1.2 file (the
Director's): `POST /api/tournaments/{t}/results/import`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.refusals import Kind, Refused
from services.gateway.tournaments import service as tournaments
from services.gateway.tournaments.results_import import import_usebio

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


@router.post("/{tournament}/results/import", status_code=202,
             responses=responses(400, 401, 403, 404, 409, 413, 503))
async def post_results_import(tournament: str, request: Request, gw: GatewayDep,
                              _: DirectorDep) -> dict[str, Any]:
    """The body a USEBIO 1.2 file (`application/xml`, as another scoring program exported
    it): each traveller line recorded as the Director's score on its board (docs/scoring.md).
    A line at fault: 400 naming it (`TRAVELLER_LINE[n].SCORE`, …), nothing recorded."""
    made = await tournaments.find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    return await import_usebio(gw, made, await request.body())
