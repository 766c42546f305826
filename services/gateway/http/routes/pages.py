"""The web pages: each a file of `services/gateway/web/` (HTML, ES modules, CSS; no build step,
no CDN: they work with no internet), served with a Content-Security-Policy that allows no
inline script or style and no other origin. A page finds its token in the URL's fragment
(`/seat#<token>`: a fragment never reaches a server or its logs) and sends it as its socket's
first message."""

from __future__ import annotations

from pathlib import Path
from typing import Literal
from urllib.parse import quote

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import Message, Receive, Scope, Send

from services.common.public_links import public_link
from services.gateway.http.models import OperatorLink, TableLinks
from services.gateway.tokens import Role, sign

WEB = Path(__file__).resolve().parents[2] / "web"
# /<page> serves web/<page>.html
PAGES = ("seat", "vugraph", "director", "capture", "results", "enter", "hand-records",
         "play")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; "
       "object-src 'none'")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"}

SEATS: tuple[Literal["N", "E", "S", "W"], ...] = ("N", "E", "S", "W")

router = APIRouter(include_in_schema=False)


# Each link below is `base` (the public address, `Settings.link_base`: "" keeps it relative
# to the address the gateway was asked at) and the page's path (services/common/public_links).

def seat_link(token: str, base: str = "") -> str:
    """A seat's page on this gateway, its token in the fragment: never sent to a server."""
    return public_link(base, f"/seat#{token}")


def capture_link(token: str, base: str = "") -> str:
    """The capture page for a table's operator token, its token in the fragment."""
    return public_link(base, f"/capture#{token}")


def operator_link(key: bytes, table: str, expires: int, base: str = "") -> OperatorLink:
    """A table's operator token (role `operator`, no seat) and its capture page."""
    token = sign(key, table, None, Role.OPERATOR, expires)
    return OperatorLink(table=table, token=token, link=capture_link(token, base))


def table_links(key: bytes, table: str, expires: int, base: str = "") -> TableLinks:
    """A table's seat and spectator tokens, its seats' pages and its spectators' page."""
    seats = {seat: sign(key, table, seat, Role.SEAT, expires) for seat in SEATS}
    spectator = sign(key, table, None, Role.SPECTATOR, expires)
    return TableLinks(table=table, seats=seats, spectator=spectator,
                      links={seat: seat_link(token, base) for seat, token in seats.items()},
                      vugraph=vugraph_link(spectator, base))


def director_link(director_token: str, base: str = "") -> str:
    """The director's console: his token in the fragment, as every page's."""
    return public_link(base, f"/director#{director_token}")


def vugraph_link(token: str, base: str = "") -> str:
    """The vugraph page for a spectator's token (one table) or a tournament's vugraph token
    (its list of tables)."""
    return public_link(base, f"/vugraph#{token}")


def results_link(tournament: str, base: str = "") -> str:
    """A tournament's public results page: its name in the fragment, no token."""
    return public_link(base, f"/results#{quote(tournament, safe='')}")


def _page(name: str) -> FileResponse:
    return FileResponse(WEB / f"{name}.html", media_type="text/html",
                        headers=SECURITY_HEADERS)


def _route(name: str) -> None:
    async def page() -> FileResponse:
        return _page(name)
    page.__name__ = f"page_{name.replace('-', '_')}"
    router.add_api_route(f"/{name}", page, methods=["GET"])


for _name in PAGES:
    _route(_name)


@router.get("/")
async def landing() -> FileResponse:
    """What this server is, with links to its pages and its API's reference: the gateway's
    address opened in a browser."""
    return _page("index")


class _Secured:
    """The pages' assets with the pages' security headers."""

    def __init__(self, app: StaticFiles) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [
                    *message.get("headers", []),
                    *((k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items())]}
            await send(message)
        await self.app(scope, receive, send_secured)


def install_pages(app: FastAPI) -> None:
    """The pages' routes and their assets under `/web`."""
    app.include_router(router)
    app.mount("/web", _Secured(StaticFiles(directory=WEB)), name="web")
