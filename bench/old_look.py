"""The seat page as it was at an earlier commit, served to a browser context of this run
(`pages_bench.py --against COMMIT`): Playwright answers the context's requests for `/seat`
and `/web/…` with that commit's files (`git show`), with the pages' security headers; every
other request (the API, the feed's socket) reaches this run's gateway. So the same stack and
the same browser serve the page's old look and its new one, turn about."""

from __future__ import annotations

import mimetypes
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from services.gateway.http.routes.pages import SECURITY_HEADERS
from tests.browser.browser import CHROMIUM_ARGS, chromium_path

ROOT = Path(__file__).resolve().parent.parent
WEB = "services/gateway/web"
TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html",
         ".json": "application/json"}


def launch_for_both(playwright: Any) -> Any:
    """Headless Chromium as tests/browser/browser.py launches it, but for its Local Network
    Access checks: a page Playwright answers has no address, so Chromium would refuse its
    socket to the gateway on 127.0.0.1 (ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS). Both
    looks run in this one browser."""
    return playwright.chromium.launch(
        executable_path=chromium_path(), headless=True,
        args=[*CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks"])


def files_at(commit: str) -> dict[str, bytes]:
    """The page files of `commit`: their path under `/web/` (and `seat` for the page itself)
    → their bytes."""
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "-r", "--name-only", commit,
                            f"{WEB}/"], check=True, capture_output=True, text=True).stdout
    found: dict[str, bytes] = {}
    for name in names.split():
        found[name.removeprefix(f"{WEB}/")] = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:{name}"], check=True,
            capture_output=True).stdout
    return found


def serve_old(context: Any, files: dict[str, bytes]) -> None:
    """Answer `context`'s requests for the seat page and its assets from `files`."""
    def answer(route: Any) -> None:
        path = urlsplit(route.request.url).path
        name = "seat.html" if path == "/seat" else path.removeprefix("/web/")
        if path != "/seat" and not path.startswith("/web/"):
            route.continue_()
            return
        body = files.get(name)
        if body is None:
            route.fulfill(status=404, headers=SECURITY_HEADERS, body=b"")
            return
        kind = TYPES.get(Path(name).suffix) or mimetypes.guess_type(name)[0] or "text/plain"
        route.fulfill(status=200, headers={**SECURITY_HEADERS, "Content-Type": kind},
                      body=body)
    context.route("**/*", answer)
