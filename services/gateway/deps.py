"""Typed dependencies of the routes: the gateway, and the grant of the request's token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from services.gateway.errors import DIRECTOR_ONLY
from services.gateway.refusals import Kind, Refused
from services.gateway.service import Gateway
from services.gateway.tokens import Grant, Role

_bearer = HTTPBearer(auto_error=False, description="a seat's, a spectator's, a table "
                     "operator's or the director's token")


def gateway(request: Request) -> Gateway:
    found: Gateway = request.app.state.gateway
    return found


GatewayDep = Annotated[Gateway, Depends(gateway)]


def grant(gw: GatewayDep, credentials: Annotated[HTTPAuthorizationCredentials | None,
                                                 Depends(_bearer)]) -> Grant:
    return gw.grant_of(credentials.credentials if credentials is not None else None)


GrantDep = Annotated[Grant, Depends(grant)]


def director(found: GrantDep) -> Grant:
    if found.role != Role.DIRECTOR:
        raise Refused(DIRECTOR_ONLY, kind=Kind.FORBIDDEN)
    return found


DirectorDep = Annotated[Grant, Depends(director)]
