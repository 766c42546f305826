"""The seat page in a real browser (tests/browser/browser.py): at 375 px as at a desk, by
keyboard as by mouse, under the Content-Security-Policy, with no serious axe-core finding. Four
seats play a whole board with a spectator and the director in test_director.py."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.browser.browser import (
    PHONE,
    SEATS,
    Tab,
    assert_clean_console,
    assert_only_own_hand,
    auction,
    click_call,
    open_tab,
    post,
    screenshot,
    seat_tab,
    serious_violations,
    table_with_players,
)
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_seat_page_fits_a_phone(stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """At 375 px: no horizontal scroll, every call of the bidding box on screen, and a call
    made by tapping it."""
    table, tokens = table_with_players(stack, "page-phone")
    tab = seat_tab(browser, stack, tokens["seats"]["N"], PHONE)
    tabs.append(tab)
    page = tab.page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    boxes = page.locator("#bidding-box button").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [r.left, r.right, r.height]; })")
    assert len(boxes) == 38
    assert all(left >= 0 and right <= PHONE["width"] and height >= 32
               for left, right, height in boxes), boxes
    page.check("#self-alert")
    page.fill("#self-explanation", "15-17")
    click_call(tab, "1NT")
    expect(page.locator(".auction tbody")).to_contain_text("1NT")
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "P"})
    expect(page.locator("#turn")).to_contain_text("Waiting for South (Cy)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "seat-phone.png")
    assert_clean_console(tab)


def test_calls_typed_on_the_keyboard(stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """`1h`, `x`, `xx`, `p` and Enter make the calls; a call not open (Law 18C: 1C after 1H)
    is refused on the page and never sent."""
    _, tokens = table_with_players(stack, "page-keys")
    pages = {seat: seat_tab(browser, stack, tokens["seats"][seat]) for seat in SEATS}
    tabs.extend(pages.values())
    for seat, typed in (("N", "1h"), ("E", "x"), ("S", "xx")):
        page = pages[seat].page
        expect(page.locator("#turn")).to_have_text("Your call.")
        page.locator("body").press("Escape")
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
    west = pages["W"].page
    expect(west.locator("#turn")).to_have_text("Your call.")
    west.locator("#typed-call").fill("1c")
    west.keyboard.press("Enter")
    expect(west.locator("#send-error")).to_contain_text("1 clubs is not open to you now")
    west.locator("#typed-call").fill("p")
    west.keyboard.press("Enter")
    expect(pages["N"].page.locator("#turn")).to_have_text("Your call.")
    assert [label.split(",")[0] for label in auction(pages["N"])] == [
        "North: 1 hearts", "East: double", "South: redouble", "West: pass"]
    sent = [json.loads(f) for f in pages["W"].sent]
    assert [m["call"] for m in sent if m.get("type") == "call"] == ["P"]


def test_questions_answers_and_a_mis_click_undone(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 20F1: East asks about North's alerted 2C, North answers on his page, East reads the
    answer and South, North's partner, does not (Law 16). Law 25A: East replaces his mis-clicked
    pass before his partner calls."""
    _, tokens = table_with_players(stack, "page-qa")
    pages = {seat: seat_tab(browser, stack, tokens["seats"][seat]) for seat in SEATS}
    tabs.extend(pages.values())
    n, e, s = pages["N"], pages["E"], pages["S"]
    n.page.check("#self-alert")
    click_call(n, "2C")
    click_call(e, "P")
    undo = e.page.locator("#undo")
    expect(undo).to_contain_text("Undo my Pass")
    undo.click()
    click_call(e, "X")
    for tab in pages.values():
        expect(tab.page.locator("#director")).to_contain_text(
            "E replaced an inadvertent P by X")
    assert [label.split(",")[0] for label in auction(e)] == ["North: 2 clubs", "East: double"]

    e.page.locator(".auction button[data-index='0']").click()
    e.page.locator("#ask").click()
    answer = n.page.locator("#questions form[data-index='0']")
    expect(answer).to_contain_text("East (Bob) asks about your 2♣")
    answer.locator("input").fill("strong, artificial")
    answer.locator("button").click()
    expect(answer).to_have_count(0)
    expect(e.page.locator("#explanations")).to_contain_text("strong, artificial")
    expect(pages["W"].page.locator("#explanations")).to_contain_text("strong, artificial")
    expect(s.page.locator("#turn")).to_have_text("Your call.")
    assert "strong, artificial" not in s.page.locator("main").inner_text()
    for seat, tab in pages.items():
        assert_only_own_hand(tab, seat)
        assert_clean_console(tab)


def test_no_serious_accessibility_violations(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """axe-core finds nothing critical or serious on the seat page: with an option to
    exercise, an alert, the Director's words, at a desk and on a phone."""
    table, tokens = table_with_players(stack, "page-axe")
    north = seat_tab(browser, stack, tokens["seats"]["N"])
    tabs.append(north)
    north.page.check("#self-alert")
    north.page.fill("#self-explanation", "five or more spades")
    click_call(north, "1S")
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "1H"})
    south = seat_tab(browser, stack, tokens["seats"]["S"])
    east = seat_tab(browser, stack, tokens["seats"]["E"], PHONE)
    tabs.extend([south, east])
    expect(south.page.locator("#option #decline")).to_be_visible()
    expect(east.page.locator("#director")).to_contain_text("insufficient bid")
    east.page.locator(".auction button[data-index='0']").click()
    for tab in (north, south, east):
        assert serious_violations(tab.page) == []


def test_the_page_reconnects_and_resumes_after_the_last_state_read(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """A socket dropped (here by the browser's router, between page and gateway): the page
    says so, reconnects with `since` = the id of the last state it read, and catches up with
    the calls made meanwhile."""
    table, tokens = table_with_players(stack, "page-resume")
    routes: list[tuple[str, WebSocketRoute]] = []

    def through(ws: WebSocketRoute) -> None:  # forwards both ways, as if not there
        routes.append((ws.url, ws))
        ws.connect_to_server()

    tab = open_tab(browser, f"{stack.url}/seat#{tokens['seats']['E']}", prepare=lambda c:
                   c.route_web_socket(re.compile(r".*/feed.*"), through))
    tabs.append(tab)
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    post(stack, table, tokens["seats"]["N"], {"type": "call", "call": "1D"})
    expect(tab.page.locator("#turn")).to_have_text("Your call.")
    last_id = json.loads(tab.frames[-1])["id"]
    assert "since" not in routes[0][0]

    routes[0][1].close(code=1011, reason="gone")
    expect(tab.page.locator("#connection")).to_contain_text("reconnecting")
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "P"})
    post(stack, table, tokens["seats"]["S"], {"type": "call", "call": "1S"})
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    assert len(routes) == 2 and routes[1][0].endswith(f"?since={last_id}")
    expect(tab.page.locator("#turn")).to_have_text("Waiting for West (Di).")
    assert [label.split(",")[0] for label in auction(tab)] == [
        "North: 1 diamonds", "East: pass", "South: 1 spades"]


def test_a_call_answered_503_with_retry_after_is_sent_again_and_taken(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Overload: a gateway at its bound of events in flight acks a call 503 with
    `retry_after` (here the browser's router answers so, in the gateway's words, for the
    first event only). The page says nothing of it, sends the call again after that second
    with the same `client_seq` (folded once), and the gateway takes it."""
    _, tokens = table_with_players(stack, "page-busy")
    events: list[dict[str, object]] = []  # the events the page sent, refused or forwarded

    def busy_once(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            body = json.loads(message)
            if "client_seq" in body:
                events.append(body)
            if len(events) == 1 and "client_seq" in body:
                ws.send(json.dumps({
                    "ack": body["client_seq"], "status": 503, "retry_after": 1, "field": None,
                    "error": "too many events at once: 128 are under way on this gateway; "
                             "retry after 1 s"}))
                return
            server.send(message)

        ws.on_message(from_page)

    tab = open_tab(browser, f"{stack.url}/seat#{tokens['seats']['N']}", prepare=lambda c:
                   c.route_web_socket(re.compile(r".*/feed.*"), busy_once))
    tabs.append(tab)
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    click_call(tab, "1H")
    expect(tab.page.locator("#turn")).to_have_text(re.compile("Waiting for East"))
    assert [label.split(",")[0] for label in auction(tab)] == ["North: 1 hearts"]
    expect(tab.page.locator("#send-error")).to_have_text("")
    assert len(events) == 2 and events[0] == events[1], events
    assert_clean_console(tab)


@pytest.mark.parametrize(("path", "rendered"), [
    ("/docs", ".opblock"),  # Swagger UI: an operation's block
    ("/redoc", "[role=search]"),  # ReDoc: its search box
])
def test_the_api_docs_work_under_their_content_security_policy(
        stack: Stack, browser: Browser, tabs: list[Tab], path: str, rendered: str) -> None:
    """The API's own pages' CSP: /docs and /redoc are served with a CSP (no other origin, Swagger
    UI's own inline script by its hash), and the offline Swagger UI and ReDoc files work
    under it: the page renders the API, with nothing refused or failing in the console."""
    with stack.client() as http:
        policy = http.get(path).headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-eval" not in policy and "script-src 'self'" in policy
    tab = open_tab(browser, f"{stack.url}{path}")
    tabs.append(tab)
    expect(tab.page.locator(rendered).first).to_be_visible()
    expect(tab.page.get_by_text("/api/tables/{table}/events").first).to_be_visible()
    if path == "/redoc":  # ReDoc's sidebar shows Redocly's logo from their CDN, hidden when
        # it fails to load (offline): the policy refuses it, as it must (no other host)
        refused = [m for m in tab.console if "https://cdn.redoc.ly/redoc/logo-mini.svg" in m]
        assert len(refused) <= 1 and all("img-src" in m for m in refused), refused
        tab.console = [m for m in tab.console if m not in refused]
    assert_clean_console(tab)
