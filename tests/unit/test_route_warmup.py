"""The gateway's routes built at start-up, not by its first requests
(services/gateway/http/route_warmup.py): FastAPI builds an included router's routes lazily,
and on a busy gateway the first request paid for them with the loop held for seconds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from services.common.settings import Settings
from services.gateway.app import create_app
from services.gateway.http import route_warmup
from tests.fakes import gateway_adapters


def _included(app: FastAPI) -> list[Any]:
    return [r for r in app.router.routes if hasattr(r, "effective_candidates")]


def _built(router: Any) -> bool:
    return bool(router._effective_candidates_version == router.original_router
                ._get_routes_version())


@pytest.mark.asyncio
async def test_every_included_routers_routes_are_built_before_the_first_request(
        tmp_path: Path) -> None:
    guard = create_app(Settings(TABLESERVER_DATA=tmp_path, TABLESERVER_SIGNING_KEY="k" * 32,
                                TABLESERVER_DIRECTOR_TOKEN="d" * 32), gateway_adapters())
    app = guard.app
    assert isinstance(app, FastAPI)
    included = _included(app)
    assert len(included) >= 10  # the gateway's routers, each included
    assert not any(_built(r) for r in included)  # FastAPI builds them lazily
    built = route_warmup.warm(app)
    assert built == sum(len(r.original_router.routes) for r in included)
    assert all(_built(r) for r in included)
    transport = httpx.ASGITransport(app=guard)
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        assert (await client.get("/livez")).status_code == 200  # the built routes serve
