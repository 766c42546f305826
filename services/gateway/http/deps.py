"""Typed dependencies of the routes: the gateway, and the grant of the request's token.

Each is `async def`, though none awaits: FastAPI runs a plain `def` dependency in a thread of
its pool, a hand-off to a thread and back for each (a director's board start had three:
py-spy and strace saw the threads' futexes under the pipeline bench's load)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from services.gateway.refusals import DIRECTOR_ONLY, Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Grant, Role

_bearer = HTTPBearer(auto_error=False, description="a seat's, a spectator's, a table "
                     "operator's or the director's token")


async def gateway(request: Request) -> Gateway:
    found: Gateway = request.app.state.gateway
    return found


GatewayDep = Annotated[Gateway, Depends(gateway)]


async def grant(gw: GatewayDep, credentials: Annotated[HTTPAuthorizationCredentials | None,
                                                 Depends(_bearer)]) -> Grant:
    return gw.grant_of(credentials.credentials if credentials is not None else None)


GrantDep = Annotated[Grant, Depends(grant)]


async def director(found: GrantDep) -> Grant:
    if found.role != Role.DIRECTOR:
        raise Refused(DIRECTOR_ONLY, kind=Kind.FORBIDDEN)
    return found


DirectorDep = Annotated[Grant, Depends(director)]
