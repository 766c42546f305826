"""/docs and /redoc served from local files (services/gateway/http/docs.py): they work without
internet, so the pages may name no other host."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI

from services.gateway.http.docs import install_docs

# src="…" and href="…" in the page, and any absolute URL anywhere in it (scripts included)
REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")
ABSOLUTE = re.compile(r"""(?:https?:)?//[A-Za-z0-9.-]+""")


def tiny_app(**kwargs: object) -> FastAPI:
    """A FastAPI app with one route and the local docs installed."""
    app = FastAPI(title="tiny", **kwargs)  # type: ignore[arg-type]

    @app.get("/ping")
    def ping() -> dict[str, str]:
        return {"pong": "yes"}

    install_docs(app)
    return app


def client_of(app: FastAPI, root_path: str = "") -> httpx.AsyncClient:
    """An HTTP client that calls the app in process (no server, no network)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app, root_path=root_path),
                             base_url="http://testserver")


def references(html: str) -> list[str]:
    """The URLs a page loads: its scripts, styles and icons."""
    return REFERENCE.findall(html)


@pytest.mark.parametrize("kwargs", [{}, {"docs_url": None, "redoc_url": None}],
                         ids=["default-docs", "no-docs"])
@pytest.mark.parametrize("page", ["/docs", "/redoc"])
async def test_a_docs_page_loads_only_local_files(kwargs: dict[str, object], page: str) -> None:
    async with client_of(tiny_app(**kwargs)) as client:
        response = await client.get(page)
        assert response.status_code == 200
        html = response.text
        assert "/openapi.json" in html
        assert ABSOLUTE.findall(html) == [], "the page names another host"
        loaded = references(html)
        assert loaded and all(url.startswith("/docs-assets/") for url in loaded), loaded
        for url in loaded:
            asset = await client.get(url)
            assert asset.status_code == 200, url
            assert len(asset.content) > 1000, url


async def test_swagger_ui_gets_its_script_and_style() -> None:
    async with client_of(tiny_app()) as client:
        loaded = references((await client.get("/docs")).text)
        script = next(url for url in loaded if url.endswith(".js"))
        style = next(url for url in loaded if url.endswith(".css"))
        assert "SwaggerUIBundle" in (await client.get(script)).text
        assert (await client.get(style)).headers["content-type"].startswith("text/css")


async def test_the_pages_follow_the_root_path_behind_a_proxy() -> None:
    async with client_of(tiny_app(), "/gateway") as client:
        html = (await client.get("/docs")).text
        assert "'/gateway/openapi.json'" in html
        assert all(url.startswith("/gateway/docs-assets/") for url in references(html))


async def test_the_api_and_its_schema_are_left_alone() -> None:
    app = tiny_app()
    install_docs(app)  # a second time changes nothing
    async with client_of(app) as client:
        assert (await client.get("/ping")).json() == {"pong": "yes"}
        schema = (await client.get("/openapi.json")).json()
        assert list(schema["paths"]) == ["/ping"]
        assert (await client.get("/docs/oauth2-redirect")).status_code == 200
    docs = [route for route in app.router.routes if getattr(route, "path", "") == "/docs"]
    assert len(docs) == 1


def test_an_app_without_a_schema_is_refused() -> None:
    with pytest.raises(ValueError, match="openapi_url"):
        tiny_app(openapi_url=None)


@pytest.mark.parametrize("root_path", ["", "/gateway"])
async def test_the_pages_are_served_with_a_content_security_policy(root_path: str) -> None:
    """The API's own pages' CSP: /docs (and /redoc, the OAuth2 redirect) carry a CSP: this origin
    only, no frame, no object, and the page's own inline script allowed by its hash alone
    (the hash of the script as served, which names the root path)."""
    import base64
    import hashlib

    async with client_of(tiny_app(), root_path) as client:
        for page in ("/docs", "/redoc", "/docs/oauth2-redirect"):
            response = await client.get(page)
            policy = dict(part.strip().split(" ", 1) for part in
                          response.headers["content-security-policy"].split(";"))
            assert policy["default-src"] == "'self'" and policy["object-src"] == "'none'"
            assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'none'"
            assert "unsafe-inline" not in policy["script-src"]
            assert "unsafe-eval" not in policy["script-src"]
            assert not ABSOLUTE.findall(response.headers["content-security-policy"])
            inline = re.findall(r"<script>(.*?)</script>", response.text, re.DOTALL)
            hashes = {"'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest())
                      .decode() + "'" for s in inline}
            assert set(policy["script-src"].split()) == {"'self'", *hashes}, page
            assert len(hashes) == (0 if page == "/redoc" else 1), page


def test_every_reference_of_the_gateways_schema_resolves_in_its_components() -> None:
    """ReDoc (/redoc) renders only a document whose every `$ref` points into
    `#/components/schemas` and is there: a request body given by hand (the events route's,
    from `EventIn`) once carried pydantic's `#/$defs/…`, and ReDoc showed an error page."""
    from services.gateway.app import create_app
    from tests.fakes import gateway_adapters

    schema = create_app(adapters=gateway_adapters()).app.openapi()  # type: ignore[attr-defined]
    components = schema["components"]["schemas"]
    refs: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert refs, "the document has references"
    prefix = "#/components/schemas/"
    assert [r for r in refs if not r.startswith(prefix)] == []
    assert sorted({r for r in refs if r.removeprefix(prefix) not in components}) == []
