"""The browser-test harness: Debian's Chromium driven by Playwright (its own browser download
cannot be fetched here), the pages' frames and console as the tests read them, axe-core's
accessibility audit (the `axe-playwright-python` package ships `axe.min.js`), screenshots."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, WebSocket

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("TABLESERVER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 375, "height": 740}
SERIOUS = ("critical", "serious")


def chromium_path() -> str:
    """Debian's Chromium (`apt-get install chromium`; `make test` installs it as root), or
    the one TABLESERVER_CHROMIUM names."""
    found = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    if not found:
        raise RuntimeError(f"no Chromium at {CHROMIUM}: install Debian's package "
                           "(apt-get install chromium) or set TABLESERVER_CHROMIUM")
    return found


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=chromium_path(), headless=True,
                                      args=CHROMIUM_ARGS)


@dataclass
class Tab:
    """A page with what it received on its sockets and what its console said."""

    page: Page
    frames: list[str] = field(default_factory=list)  # received on its sockets
    sent: list[str] = field(default_factory=list)  # sent on them
    console: list[str] = field(default_factory=list)  # errors and warnings
    errors: list[str] = field(default_factory=list)  # uncaught exceptions

    def states(self) -> list[dict[str, Any]]:
        """The boards received on the socket, in order."""
        boards = []
        for text in self.frames:
            message = json.loads(text)
            if isinstance(message, dict) and "board" in message and message["board"]:
                boards.append(message["board"])
        return boards

    def csp_violations(self) -> list[str]:
        return [m for m in self.console if "Content Security Policy" in m]


def open_tab(browser: Browser, url: str, viewport: dict[str, int] | None = None,
             prepare: Callable[[BrowserContext], None] | None = None) -> Tab:
    """A new page (its own context) at `url`, recording its frames and console; `prepare`
    sees the context first (e.g. to route its sockets)."""
    context = browser.new_context(viewport=viewport or DESKTOP)  # type: ignore[arg-type]
    if prepare is not None:
        prepare(context)
    page = context.new_page()
    tab = Tab(page)

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: tab.frames.append(
            payload if isinstance(payload, str) else payload.decode()))
        ws.on("framesent", lambda payload: tab.sent.append(
            payload if isinstance(payload, str) else payload.decode()))

    def on_console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            tab.console.append(message.text)

    page.on("websocket", on_socket)
    page.on("console", on_console)
    page.on("pageerror", lambda exc: tab.errors.append(str(exc)))
    page.goto(url)
    return tab


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations of impact critical or serious on the page as it is."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    violations: list[dict[str, Any]] = results.response["violations"]
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in violations if v["impact"] in SERIOUS]


def screenshot(page: Page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.evaluate("window.scrollTo(0, 0)")  # a sticky panel is drawn where the page begins
    page.screenshot(path=str(path), full_page=True)
    return path
