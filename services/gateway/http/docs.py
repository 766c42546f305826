"""The API's documentation pages, served from this machine: no CDN, no internet needed.

FastAPI's own `/docs` (Swagger UI) and `/redoc` (ReDoc) pages load their JavaScript and CSS from
a CDN, so they are blank offline. `install_docs` replaces them with the same pages pointing at
the files the PyPI package `fastapi-offline` installs (Swagger UI 5, ReDoc 2, a favicon), which
it serves under `/docs-assets`. This is FastAPI's "Self-Hosting JavaScript and CSS for docs",
done on an app that already exists.

Each page is served with a Content-Security-Policy, as the gateway's own pages are: scripts and
styles from this origin only, and the page's own inline script allowed by its hash (computed
for the page as served: its URLs follow the root path), nothing from another host, no frame,
no object. ReDoc writes its styles into the page as it renders (styled-components) and runs its
search in a worker made from a blob: its page allows inline styles and blob workers, and no
inline script at all.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.routing import Mount, Route

ASSETS = Path(fastapi_offline.__file__).parent / "static"  # swagger-ui-bundle.js, …
ASSETS_URL = "/docs-assets"
DOCS_URL = "/docs"
REDOC_URL = "/redoc"
OAUTH2_REDIRECT_URL = "/docs/oauth2-redirect"

Page = Callable[[Request], Awaitable[HTMLResponse]]
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)  # no src: the page's own
COMMON = ("default-src 'self'", "img-src 'self' data:", "connect-src 'self'",
          "font-src 'self'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
          "object-src 'none'")


def _hashes(html: str) -> str:
    """The CSP sources that allow the page's inline scripts, and no other: their hashes."""
    return " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"
        for script in INLINE_SCRIPT.findall(html))


def with_csp(page: HTMLResponse, *policy: str) -> HTMLResponse:
    """`page` with a Content-Security-Policy: `COMMON`, `policy`, and scripts from this
    origin and the page's own inline ones (by hash)."""
    html = bytes(page.body).decode()
    scripts = " ".join(filter(None, ("script-src 'self'", _hashes(html))))
    page.headers["Content-Security-Policy"] = "; ".join((*COMMON, scripts, *policy))
    page.headers["X-Content-Type-Options"] = "nosniff"
    page.headers["Referrer-Policy"] = "no-referrer"
    return page


def install_docs(app: FastAPI) -> None:
    """Serve `/docs` (Swagger UI) and `/redoc` (ReDoc) from local files instead of a CDN.

    Works whether the app was created with FastAPI's default docs pages or with
    `docs_url=None, redoc_url=None`: its own pages are removed first. Calling it twice is
    harmless. The app must serve its OpenAPI schema (`openapi_url` set)."""
    if app.openapi_url is None:
        raise ValueError("the app serves no OpenAPI schema (openapi_url=None): no docs to show")
    _remove_docs_routes(app)
    app.docs_url, app.redoc_url = DOCS_URL, REDOC_URL
    app.swagger_ui_oauth2_redirect_url = OAUTH2_REDIRECT_URL
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs-assets")
    app.add_route(DOCS_URL, _swagger_page(app), include_in_schema=False)
    app.add_route(OAUTH2_REDIRECT_URL, _oauth2_redirect, include_in_schema=False)
    app.add_route(REDOC_URL, _redoc_page(app), include_in_schema=False)


def _remove_docs_routes(app: FastAPI) -> None:
    """Drop the docs pages FastAPI added (wherever the app put them) and any earlier install."""
    pages = {app.docs_url, app.redoc_url, app.swagger_ui_oauth2_redirect_url,
             DOCS_URL, REDOC_URL, OAUTH2_REDIRECT_URL} - {None}
    app.router.routes[:] = [
        route for route in app.router.routes
        if not (type(route) is Route and route.path in pages)
        and not (isinstance(route, Mount) and route.path == ASSETS_URL)]


def _root(request: Request) -> str:
    """The prefix the app is served under (behind a proxy), '' when at the root."""
    root: str = request.scope.get("root_path", "")
    return root.rstrip("/")


def _swagger_page(app: FastAPI) -> Page:
    """The `/docs` endpoint: Swagger UI, its script, style and icon from `ASSETS_URL`."""

    async def swagger_ui(request: Request) -> HTMLResponse:
        root = _root(request)
        return with_csp(get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - Swagger UI",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            oauth2_redirect_url=f"{root}{OAUTH2_REDIRECT_URL}",
            init_oauth=app.swagger_ui_init_oauth,
            swagger_ui_parameters=app.swagger_ui_parameters), "style-src 'self'")

    return swagger_ui


def _redoc_page(app: FastAPI) -> Page:
    """The `/redoc` endpoint: ReDoc from `ASSETS_URL`, without Google's fonts."""

    async def redoc(request: Request) -> HTMLResponse:
        root = _root(request)
        return with_csp(get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            with_google_fonts=False), "style-src 'self' 'unsafe-inline'",
            "worker-src 'self' blob:")

    return redoc


async def _oauth2_redirect(request: Request) -> HTMLResponse:
    """Swagger UI's OAuth2 redirect page (its 'Authorize' flow comes back here)."""
    return with_csp(get_swagger_ui_oauth2_redirect_html(), "style-src 'self'")
