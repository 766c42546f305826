"""The vugraph page in a real browser (tests/browser/browser.py): a spectator follows a
board live as the seats call (an insufficient bid, the Director's alert and rectification),
sees the four hands the server sends him, replays the board event by event (each step the
state the history gives for it), on a phone as at a desk, under the Content-Security-Policy,
with no serious axe-core finding; a tournament's vugraph link lists its tables and reads no
table itself."""

from __future__ import annotations

import json
import re

import httpx
from playwright.sync_api import Browser, WebSocketRoute, expect

from tests.browser.browser import (
    PHONE,
    PLAYERS,
    Tab,
    assert_clean_console,
    assert_step_matches,
    auction,
    cards_of,
    hands_shown,
    history,
    post,
    screenshot,
    serious_violations,
    table_with_players,
    vugraph_tab,
)
from tests.browser.test_director import console_tab
from tests.helpers import DEALS
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_a_spectator_follows_a_board_live_and_replays_it_event_by_event(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """North opens 1S, self-alerted (a spectator is told, as the opponents are: Law 20F);
    East's insufficient 1H (Law 27) brings the Director's alert to the page; South declines,
    East substitutes 2H (27B1(a)), three passes, South leads. Then the board is replayed with
    the arrow keys, Home and End, and the slider: each step shows the history's state."""
    table, tokens = table_with_players(stack, "vg-board")
    seats = tokens["seats"]
    tab = vugraph_tab(browser, stack, tokens["spectator"])
    tabs.append(tab)
    page = tab.page
    expect(page.locator(".compass [data-card]")).to_have_count(52)
    assert hands_shown(page) == {seat: cards_of(seat) for seat in "NESW"}
    for seat, name in PLAYERS.items():
        expect(page.locator(f".compass-seat[data-seat='{seat}'] h3")).to_contain_text(name)
    expect(page.locator("#turn")).to_have_text("North (Ann) to call.")

    post(stack, table, seats["N"], {"type": "call", "call": "1S", "alert": True,
                                    "explanation": "five or more spades"})
    post(stack, table, seats["E"], {"type": "call", "call": "1H"})
    expect(page.locator("#director")).to_contain_text("E made an insufficient bid, 1H.")
    expect(page.locator("#director")).to_contain_text("Law 27")
    expect(page.locator("#turn")).to_have_text("South (Cy) decides whether to accept 1♥ by "
                                               "East (Bob).")
    expect(page.locator("#explanations")).to_contain_text("five or more spades")
    post(stack, table, seats["S"], {"type": "option", "accept": False})
    expect(page.locator("#director")).to_contain_text(
        "E must substitute a sufficient bid or a pass")
    post(stack, table, seats["E"], {"type": "call", "call": "2H"})
    for seat in "SWN":
        post(stack, table, seats[seat], {"type": "call", "call": "P"})
    expect(page.locator("#contract")).to_have_text("Contract: 2♥ by East")
    expect(page.locator("#turn")).to_have_text("South (Cy) is on lead.")
    post(stack, table, seats["S"], {"type": "card_played", "card": "SA"})
    expect(page.locator("#turn")).to_have_text("East (Bob) to play from dummy (West).")
    expect(page.locator(".compass-centre .trick-slot.bottom")).to_have_attribute(
        "data-card", "SA")
    expect(page.locator(".compass-seat[data-seat='S'] [data-card='SA']")).to_have_count(0)
    assert [label.split(",")[0] for label in auction(tab)] == [
        "North: 1 spades", "East: 2 hearts", "South: pass", "West: pass", "North: pass"]
    screenshot(page, "vugraph-desktop.png")
    assert serious_violations(page) == []

    steps = history(stack, table, tokens["spectator"], board=1, states="true")["history"]
    count = len(steps)
    assert [s["event"]["type"] for s in steps] == [
        "board_started", "players_named", "call", "call", "option", "call", "call", "call",
        "call", "card_played"]
    page.locator("#replay-load").click()
    expect(page.locator("#mode")).to_have_text(f"Replay: event 1 of {count}")
    assert_step_matches(page, steps[0], 0, count)
    page.locator("h1").click()  # the focus off the slider: the page's own keys
    for index in range(1, count):
        page.keyboard.press("ArrowRight")
        assert_step_matches(page, steps[index], index, count)
        if steps[index]["state"].get("pending"):
            expect(page.locator("#step")).to_contain_text("East (Bob) calls 1♥")
            expect(page.locator("#step")).to_contain_text("Law 27 E made an insufficient bid")
            pending_at = index
    page.keyboard.press("ArrowRight")  # past the end: stays at the last event
    assert_step_matches(page, steps[-1], count - 1, count)
    page.keyboard.press("Home")
    assert_step_matches(page, steps[0], 0, count)
    page.keyboard.press("End")
    assert_step_matches(page, steps[-1], count - 1, count)
    page.keyboard.press("ArrowLeft")
    assert_step_matches(page, steps[-2], count - 2, count)
    slider = page.locator("#replay-slider")  # dragged to the insufficient bid
    slider.evaluate("(e, i) => { e.value = String(i); e.dispatchEvent(new Event('input')); }",
                    pending_at)
    assert_step_matches(page, steps[pending_at], pending_at, count)
    screenshot(page, "vugraph-replay.png")
    slider.focus()  # the slider's own keys
    page.keyboard.press("ArrowRight")
    assert_step_matches(page, steps[pending_at + 1], pending_at + 1, count)
    at = history(stack, table, tokens["spectator"], board=1,
                 until=steps[pending_at]["offset"])  # the step is the history's state there
    assert at["state"] == steps[pending_at]["state"]
    assert serious_violations(page) == []

    page.locator("#replay-live").click()
    expect(page.locator("#mode")).to_have_text("Live")
    expect(page.locator("#turn")).to_have_text("East (Bob) to play from dummy (West).")
    histories = [json.loads(m) for m in tab.sent]
    assert all(m.get("type") in ("auth", "ping") for m in histories)  # a spectator sends none
    assert_clean_console(tab)


def test_the_vugraph_page_fits_a_phone_and_hides_hands_the_server_withholds(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """At 375 px: no horizontal scroll, four hands and the auction on screen; axe-core finds
    nothing serious. A state with no hands (the vugraph delay not passed; here the socket's
    frames rewritten by the browser's router, the stack running with no delay) shows "Hands
    after the delay" and no card."""
    table, tokens = table_with_players(stack, "vg-phone")
    post(stack, table, tokens["seats"]["N"], {"type": "call", "call": "1NT", "alert": True,
                                              "explanation": "15-17"})
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "X"})
    tab = vugraph_tab(browser, stack, tokens["spectator"], PHONE)
    tabs.append(tab)
    page = tab.page
    expect(page.locator(".compass [data-card]")).to_have_count(52)
    expect(page.locator(".auction tbody")).to_contain_text("Dbl")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    for seat in "NESW":
        box = page.locator(f".compass-seat[data-seat='{seat}']").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "vugraph-phone.png")
    assert serious_violations(page) == []
    assert_clean_console(tab)

    def without_hands(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def forward(message: str | bytes) -> None:
            body = json.loads(message)
            if isinstance(body, dict) and body.get("board"):
                body["board"]["deal"] = None
            ws.send(json.dumps(body))
        server.on_message(forward)

    delayed = vugraph_tab(browser, stack, tokens["spectator"], PHONE, prepare=lambda c:
                          c.route_web_socket(re.compile(r".*/feed.*"), without_hands))
    tabs.append(delayed)
    expect(delayed.page.locator(".hidden-hand")).to_have_count(4)
    expect(delayed.page.locator(".hidden-hand").first).to_have_text("Hands after the delay")
    assert delayed.page.locator("[data-card]").count() == 0
    expect(delayed.page.locator(".auction tbody")).to_contain_text("Dbl")


def test_a_tournaments_vugraph_lists_its_tables_and_reads_none(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The tournament's vugraph link (in its creation's answer) lists its tables: board,
    status, whose turn, no hand; each links to its spectator page. The token reads no table
    and no other tournament; a seat's token does not list the tables. A table's page shows
    nothing of board 1 while the other tables play it (Laws 80B, 16C1): it says so, until
    the Director ticks the table as a vugraph match in the console's overview; then its
    hands."""
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={"tournament": "vgt", "tables": 3,
                                                   "deals": DEALS}).json()
        assert http.post("/api/tournaments/vgt/rounds",
                         json={"round": 1, "boards": [1, 2]}).status_code == 202
    link = made["vugraph"]
    assert link.startswith("/vugraph#")
    token = link.split("#", 1)[1]
    with stack.client(token) as http:
        listed = http.get("/api/tournaments/vgt/vugraph")
        assert listed.status_code == 200, listed.text
        assert "deal" not in listed.text and "alerts" not in listed.text
        assert http.get("/api/tables/vgt-1/state").status_code == 403
        assert http.get("/api/tables/vgt-1/history").status_code == 403
        assert http.post("/api/tables/vgt-1/events",
                         json={"type": "call", "call": "P"}).status_code == 403
        assert http.get("/api/tournaments/other/vugraph").status_code == 403
        assert http.get("/api/tournaments/vgt").status_code == 403  # the director's overview
    seat = made["tables"][0]["seats"]["N"]
    assert httpx.get(f"{stack.url}/api/tournaments/vgt/vugraph",
                     headers={"Authorization": f"Bearer {seat}"}).status_code == 403

    tab = vugraph_tab(browser, stack, token)
    tabs.append(tab)
    page = tab.page
    rows = page.locator(".tables tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator(".tables tr[data-table='vgt-2']")).to_contain_text("bidding")
    expect(page.locator(".tables tr[data-table='vgt-2']")).to_contain_text("North")
    assert serious_violations(page) == []
    screenshot(page, "vugraph-tables.png")
    expect(page.locator(".tables tr[data-table='vgt-2']")).to_contain_text(
        "once every table has played them")
    page.locator("a[aria-label='Watch table vgt-2']").click()
    expect(page.locator("#title")).to_have_text("Vugraph · Table vgt-2")
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator(".withheld")).to_have_text(
        "Board 1 is still being played at other tables of the tournament: it is shown once "
        "every table has played it.")
    assert page.locator("[data-card]").count() == 0
    assert page.locator(".auction").count() == 0

    console = console_tab(browser, stack)
    tabs.append(console)
    desk = console.page
    desk.locator(".tab[data-tab='tournament']").click()
    desk.select_option("#tournament-pick", "vgt")
    desk.get_by_role("checkbox", name="Show table vgt-2 live to the public").check()
    expect(desk.locator("#tournament-result")).to_have_text(
        "Table vgt-2 is shown live to the public, after the delay.")
    expect(page.locator(".compass [data-card]")).to_have_count(52, timeout=25_000)
    expect(page.locator(".withheld")).to_have_count(0)
    page.go_back()
    expect(page.locator(".tables tbody tr")).to_have_count(3)
    expect(page.locator(".tables tr[data-table='vgt-2']")).to_contain_text(
        "as played (a vugraph match)")
    assert_clean_console(tab)
    assert_clean_console(console)
