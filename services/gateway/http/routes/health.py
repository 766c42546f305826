"""Health and readiness: Kafka (reachable, and taking appends) and Redis (reachable)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from services.gateway.http.deps import GatewayDep
from services.gateway.http.models import Health, Ready
from services.gateway.http.probes import dependencies

router = APIRouter(tags=["health"])


async def _checked(gw: GatewayDep) -> Health:
    found = await dependencies(gw.adapters.health, gw.appends)
    healthy = all(v == "ok" for v in found.values())
    return Health.model_validate({"status": "ok" if healthy else "unavailable", **found})


@router.get("/healthz", response_model=Health, responses={503: {"model": Health}})
async def healthz(gw: GatewayDep) -> JSONResponse:
    """Kafka and Redis, each "ok" or "unreachable" (Kafka reachable but taking no appends:
    "not writable"); 503 when either is not "ok"."""
    health = await _checked(gw)
    return JSONResponse(health.model_dump(), status_code=200 if health.status == "ok" else 503)


@router.get("/livez")
async def livez() -> dict[str, bool]:
    """For liveness probes: the process answers (whatever Kafka and Redis do: restarting the
    gateway would not bring them back)."""
    return {"alive": True}


@router.get("/readyz", response_model=Ready, responses={503: {"model": Ready}})
async def readyz(gw: GatewayDep) -> JSONResponse:
    """For probes: 200 when the gateway can take calls (Kafka takes its appends, Redis is
    reachable)."""
    ready = (await _checked(gw)).status == "ok"
    return JSONResponse({"ready": ready}, status_code=200 if ready else 503)
