"""The browser-test harness: Debian's Chromium driven by Playwright (its own browser download
cannot be fetched here), the pages' frames and console as the tests read them, axe-core's
accessibility audit (the `axe-playwright-python` package ships `axe.min.js`), screenshots."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    WebSocket,
    expect,
)

from shared.deal import parse_deal
from tests.helpers import DEAL, new_table
from tests.stack import Stack

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
             prepare: Callable[[BrowserContext], None] | None = None,
             ignore_https_errors: bool = False) -> Tab:
    """A new page (its own context) at `url`, recording its frames and console; `prepare`
    sees the context first (e.g. to route its sockets); `ignore_https_errors` for a
    self-signed certificate (the TLS front's in tests/tls_front.py)."""
    context = browser.new_context(viewport=viewport or DESKTOP,  # type: ignore[arg-type]
                                  ignore_https_errors=ignore_https_errors)
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


SEATS = "NESW"


HANDS = {seat.name: hand for seat, hand in parse_deal(DEAL).items()}


PLAYERS = {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}


def cards_of(seat: str) -> set[str]:
    """A seat's cards as the page spells them in `data-card`: suit then rank ("HK")."""
    return {suit + rank for suit, ranks in zip("SHDC", HANDS[seat].split("."), strict=True)
            for rank in ranks}


def played_cards(state: dict[str, Any]) -> set[str]:
    """The cards a board's state says were played to its tricks."""
    tricks = (state.get("play") or {}).get("tricks") or []
    return {entry["card"] for trick in tricks for entry in trick["cards"]}


def hand_patterns(seat: str) -> list[re.Pattern[str]]:
    """The PBN text of a hand and each of its suits of 3 cards or more, as whole words."""
    pbn = HANDS[seat]
    return [re.compile(rf"(?<![2-9TJQKA]){re.escape(text)}(?![2-9TJQKA])")
            for text in [pbn, *(suit for suit in pbn.split(".") if len(suit) >= 3)]]


def post(stack: Stack, table: str, token: str, event: dict[str, Any]) -> None:
    with stack.client(token) as http:
        response = http.post(f"/api/tables/{table}/events", json=event)
        assert response.status_code == 202, response.text


def table_with_players(stack: Stack, table: str) -> tuple[str, dict[str, Any]]:
    """A table with board 1 started and the players named; its name and tokens."""
    tokens = new_table(stack, table)
    with stack.client(stack.director) as http:
        assert http.post(f"/api/tables/{table}/players",
                         json={"players": PLAYERS}).status_code == 202
    return table, tokens


def seat_tab(browser: Browser, stack: Stack, token: str, viewport: Any = None) -> Tab:
    tab = open_tab(browser, f"{stack.url}/seat#{token}", viewport)
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    expect(tab.page.locator("[data-hand] [data-card]")).to_have_count(13)
    return tab


def click_call(tab: Tab, call: str) -> None:
    button = tab.page.locator(f"#bidding-box button[data-call='{call}']")
    expect(button).to_be_enabled()
    button.click()


def auction(tab: Tab) -> list[str]:
    """The calls the page's auction diagram shows, in order, as their labels say."""
    labels: list[str] = tab.page.locator(".auction tbody td:not(.next) > [aria-label]"
                                         ).evaluate_all("els => els.map(e => e.ariaLabel)")
    return labels


def assert_only_own_hand(tab: Tab, seat: str, dummy: str | None = None) -> None:
    """The page shows one hand, this seat's; no other hand is in the page or in any frame its
    socket received, but `dummy`'s once the opening lead is faced (Law 41D: shown to all)."""
    page = tab.page
    assert tab.frames, "nothing received on the socket"
    last = tab.states()[-1]
    played = played_cards(last)
    spread = dummy is not None and dummy != seat and last.get("opening_lead") is not None
    assert page.locator("[data-hand]").count() == (2 if spread else 1)
    shown = set(page.locator("#hand [data-hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    assert shown == cards_of(seat) - played
    if spread:
        spread_cards = set(page.locator(f"[data-seat='{dummy}'] [data-hand] [data-card]"
                                        ).evaluate_all("els => els.map(e => e.dataset.card)"))
        assert spread_cards == cards_of(dummy) - played
    received = "\n".join(tab.frames)
    for other in SEATS.replace(seat, "").replace(dummy or seat, ""):
        for pattern in hand_patterns(other):
            assert not pattern.search(received), f"{seat} received {other}'s {pattern.pattern}"
    for board in tab.states():
        hands = board.get("deal", "").split(":")[1].split()
        led = board.get("opening_lead") is not None
        for other, hand in zip(SEATS, hands, strict=True):
            shown = other == seat or (other == dummy and led)
            assert (hand != "-") == shown, f"{seat} received {other}'s hand: {hand}"


def assert_clean_console(tab: Tab) -> None:
    assert tab.csp_violations() == [], tab.csp_violations()
    assert tab.errors == [] and tab.console == [], (tab.errors, tab.console)


NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


STRAINS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}


def words(call: str) -> str:
    """A call as the page's labels say it: "1 hearts", "pass"."""
    other = {"P": "pass", "X": "double", "XX": "redouble"}
    return other.get(call) or f"{call[0]} {STRAINS[call[1:]]}"


def expected_auction(state: dict[str, Any]) -> list[str]:
    """The labels of the auction diagram for a board's state: its calls, then the irregular
    call awaiting the option holder."""
    calls = [f"{NAMES[c['seat']]}: {words(c['call'])}" for c in state["calls"]]
    pending = state.get("pending")
    return calls + ([f"{NAMES[pending['offender']]}: {words(pending['call'])}"]
                    if pending else [])


def vugraph_tab(browser: Browser, stack: Stack, token: str, viewport: Any = None,
                **more: Any) -> Tab:
    tab = open_tab(browser, f"{stack.url}/vugraph#{token}", viewport, **more)
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    return tab


def hands_shown(page: Page) -> dict[str, set[str]]:
    """Each seat's cards as the page's four hands show them."""
    found: dict[str, list[str]] = page.locator(".compass-seat").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.seat, "
        "[...e.querySelectorAll('[data-card]')].map(c => c.dataset.card)]))")
    return {seat: set(cards) for seat, cards in found.items()}


def assert_step_matches(page: Page, step: dict[str, Any], index: int, count: int) -> None:
    """The page shows the state the history gives for this event."""
    state = step["state"]
    expect(page.locator("#step-count")).to_have_text(f"Event {index + 1} of {count}")
    assert page.locator("#replay-slider").input_value() == str(index)
    assert [label.split(",")[0] for label in auction_labels(page)] == \
        expected_auction(state), index
    assert page.locator("#director .director-alert").count() == len(state["alerts"]), index
    assert page.locator("#director .rectification").count() == \
        len(state["rectifications"]), index
    contract = page.locator("#contract").inner_text()
    assert ("Contract:" in contract) == (state["contract"] is not None), index
    played = played_cards(state)
    assert hands_shown(page) == {seat: cards_of(seat) - played for seat in SEATS}


def auction_labels(page: Page) -> list[str]:
    labels: list[str] = page.locator(".auction tbody td:not(.next) > [aria-label]"
                                     ).evaluate_all("els => els.map(e => e.ariaLabel)")
    return labels


def history(stack: Stack, table: str, token: str, **params: Any) -> dict[str, Any]:
    with stack.client(token) as http:
        response = http.get(f"/api/tables/{table}/history", params=params)
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found
