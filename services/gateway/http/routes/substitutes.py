"""Substitutes for players who vanish, for the Director: the tournament's time before a robot
sits in, what each table is told, and a substitution ended by hand
(`services.gateway.tournaments.substitutes`; docs/operations.md, "Substitutes")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from services.gateway.http.deps import DirectorDep, GatewayDep, GrantDep
from services.gateway.http.errors import responses
from services.gateway.refusals import Refused
from services.gateway.tokens import Role
from services.gateway.tournaments import substitutes
from shared.seats import NotationError, Seat

router = APIRouter(prefix="/api", tags=["tournaments"])


class SubstitutesIn(BaseModel):
    """The Director's time before a robot sits in for a player with no open page at his
    turn; null: never (the default)."""

    model_config = ConfigDict(extra="forbid")
    after_s: int | None = Field(ge=5, le=substitutes.MAX_AFTER_S, examples=[60],
                                description="seconds the table waits for a seat with no open "
                                "page at its turn before a robot sits in; null: never")


@router.put("/tournaments/{tournament}/substitutes",
            responses=responses(400, 401, 403, 404, 409, 503))
async def put_substitutes(tournament: str, body: SubstitutesIn, gw: GatewayDep,
                          _: DirectorDep) -> dict[str, Any]:
    """Substitutes on (`after_s`) or off (null) for the tournament's tables."""
    return await substitutes.set_after(gw, tournament, body.after_s)


@router.get("/tournaments/{tournament}/substitutes", responses=responses(401, 403, 404, 503))
async def get_substitutes(tournament: str, gw: GatewayDep, _: DirectorDep) -> dict[str, Any]:
    """The time set, and at each table: which seats have an open page, the substitutes
    seated, and what the table is told while it waits ("waiting for West, not connected")."""
    return await substitutes.at_tables(gw, tournament)


@router.delete("/tournaments/{tournament}/tables/{table}/substitutes/{seat}",
               responses=responses(401, 403, 404, 409, 503))
async def end_substitute(tournament: str, table: str, seat: str, gw: GatewayDep,
                         _: DirectorDep) -> dict[str, Any]:
    """The substitute at the seat (N, E, S or W) stands up now: 409 when none sits there."""
    try:
        found = Seat.parse(seat)
    except NotationError:
        raise Refused(f"seat: {seat!r} is not a seat (N, E, S or W)", "seat") from None
    return await substitutes.end(gw, tournament, table, found.name)


@router.get("/tables/{table}/substitutes", responses=responses(401, 403, 404, 503))
async def get_table_substitutes(table: str, gw: GatewayDep, grant: GrantDep
                                ) -> dict[str, Any]:
    """What the table is told (any reader of it): the substitutes seated, and whom it waits
    for with no open page (`"waiting for West, not connected"`; null: nobody, and always for
    the public while it sees the table after a delay)."""
    gw.may_read(grant, table)
    told = await substitutes.at_table(gw, table)
    if grant.role == Role.SPECTATOR and gw.settings.spectator_delay_s:
        told["waiting"] = None  # live: the public sees the table the delay ago
    return told
