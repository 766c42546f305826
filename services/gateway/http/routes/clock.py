"""The rounds' clock, for the Director: more time (or less), hold, or end the round now
(`services.gateway.tournaments.clock`; docs/scoring.md, "The clock")."""

from __future__ import annotations

import enum
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.refusals import Refused
from services.gateway.tournaments import clock

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


class ClockAction(enum.StrEnum):
    EXTEND = "extend"  # the round's end moved by `minutes` (and the clock let go if held)
    HOLD = "hold"  # the round does not end by itself until extended
    END = "end"  # the round ends now, and the movement's next starts


class ClockRequest(BaseModel):
    """What the Director does with the round's clock."""

    model_config = ConfigDict(extra="forbid")
    action: ClockAction
    minutes: float | None = Field(None, ge=-120, le=120, examples=[2],
                                  description="extend: the minutes added (fewer: negative)")


@router.post("/{tournament}/clock", responses=responses(400, 401, 403, 404, 409, 503))
async def post_clock(tournament: str, body: ClockRequest, gw: GatewayDep, _: DirectorDep
                     ) -> dict[str, Any]:
    """The round in progress's clock: `extend` by `minutes`, `hold`, or `end` it now (its
    boards not started dropped, the board in progress left for the Director's score, the
    movement's next round started). A 409 naming `round` when no timed round is in progress."""
    if body.action is ClockAction.EXTEND:
        if body.minutes is None:
            raise Refused("field 'minutes': the minutes to add to the round (fewer: a "
                          "negative number)", "minutes")
        return await clock.extend(gw, tournament, body.minutes)
    if body.action is ClockAction.HOLD:
        return await clock.hold(gw, tournament)
    return await clock.end_round(gw, tournament)
