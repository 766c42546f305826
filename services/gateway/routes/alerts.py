"""The director's alerts, from Kafka's alerts topic (`services.gateway.alert_feed`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from services.gateway.deps import DirectorDep, GatewayDep
from services.gateway.errors import responses
from services.gateway.models import Alerts

router = APIRouter(prefix="/api/alerts", tags=["alerts"])


@router.get("", responses=responses(400, 401, 403))
async def get_alerts(gw: GatewayDep, _: DirectorDep,
                     count: Annotated[int, Query(ge=1, le=1000)] = 100) -> Alerts:
    """The latest alerts, oldest first."""
    return Alerts(alerts=gw.clients.alerts.latest(count))
