"""The gateway's address opened in a browser (`/`): a page that says what the server is and
links to its pages and its API's reference, served as every page is (its CSP), each link one
the gateway answers."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from fastapi import FastAPI

from services.common.settings import Settings
from services.gateway.app import create_app
from services.gateway.http.routes.pages import CSP

HREF = re.compile(r'href="(/[^"#]*)"')
NEEDS_CLIENTS = {"/healthz", "/readyz"}  # they ask Kafka and Redis: in the schema only


def app_of(data: Path) -> FastAPI:
    guard = create_app(Settings(TABLESERVER_DATA=data))
    assert isinstance(guard.app, FastAPI)
    return guard.app


async def test_the_landing_page_links_to_the_pages_and_the_api(tmp_path: Path) -> None:
    app = app_of(tmp_path)
    transport = httpx.ASGITransport(app)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        response = await client.get("/")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        assert response.headers["content-security-policy"] == CSP
        assert "<h1>tableserver</h1>" in response.text
        links = set(HREF.findall(response.text)) - {"/web/style.css"}
        assert {"/director", "/vugraph", "/seat", "/capture", "/docs", "/openapi.json"} <= links
        for link in sorted(links - NEEDS_CLIENTS):
            assert (await client.get(link)).status_code == 200, link
        assert set(app.openapi()["paths"]) >= NEEDS_CLIENTS
