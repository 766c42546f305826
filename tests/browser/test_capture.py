"""The capture page in a real browser (tests/browser/browser.py): a table's operator, with
the token the director issued, records a physical table's auction as he types it (`1h p`,
`w:1s`, `decline`, `lead n d2` …), sees the Director's alert the moment an irregularity is
folded, and the state the server folded is the one he typed; at 375 px as at a desk, under the
Content-Security-Policy, with no serious axe-core finding."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    auction,
    open_tab,
    screenshot,
    serious_violations,
    table_with_players,
)
from tests.helpers import state
from tests.stack import Stack

expect.set_options(timeout=10_000)


def operator_token(stack: Stack, table: str) -> str:
    with stack.client(stack.director) as http:
        response = http.post(f"/api/tables/{table}/operator")
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


def capture_tab(browser: Browser, stack: Stack, table: str, viewport: Any = None) -> Tab:
    """The capture page of a table with board 1 and its players: connected, the four hands
    shown."""
    tab = open_tab(browser, f"{stack.url}/capture#{operator_token(stack, table)}", viewport)
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    expect(tab.page.locator("[data-hand] [data-card]")).to_have_count(52)
    return tab


def enter(tab: Tab, line: str) -> None:
    """Type a line into the entry line and press Enter; wait until all of it is recorded."""
    entry = tab.page.locator("#entry-line")
    entry.fill(line)
    entry.press("Enter")
    expect(entry).to_have_value("")
    expect(tab.page.locator("#entry-error")).to_have_text("")


def sent_events(tab: Tab) -> list[dict[str, Any]]:
    """The events the page sent on its socket (not its token, not its pings)."""
    sent = [json.loads(text) for text in tab.sent]
    return [m for m in sent if m.get("type") not in ("auth", "ping")]


def calls_of(board: dict[str, Any]) -> list[tuple[str, str]]:
    return [(c["seat"], c["call"]) for c in board["calls"]]


def test_a_capture_session_records_an_out_of_rotation_call_and_sees_the_alert(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """North opens 1H, East passes; West bids 1S at South's turn: a bid out of rotation
    (Law 31), which North, West's LHO, may accept (Law 29A). The page calls for the Director
    at once. North does not accept (Law 29B): at RHO's turn, Law 31A: South passes, so West
    must repeat 1S (31A1, no penalty); three passes close the auction (Law 22A) and North, on
    declarer's left (Law 41A), faces the opening lead, clicked in his hand."""
    table, _ = table_with_players(stack, "cap-board")
    tab = capture_tab(browser, stack, table)
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#board-info")).to_have_text(
        "Board 1 · Dealer North · Vulnerable: None")
    expect(page.locator(".compass")).to_contain_text("Ann")
    expect(page.locator("#turn")).to_have_text("North (Ann) to call.")
    expect(page.locator("#call-director")).to_be_empty()

    enter(tab, "1h p")
    expect(page.locator("#turn")).to_have_text("South (Cy) to call.")
    assert [label.split(",")[0] for label in auction(tab)] == [
        "North: 1 hearts", "East: pass"]

    enter(tab, "w:1s")
    banner = page.locator("#call-director")
    expect(banner).to_contain_text("Call the Director")
    expect(banner).to_contain_text("Law 31")
    expect(banner).to_contain_text("W bid 1S out of rotation; it was S's turn.")
    expect(banner).to_contain_text("N may accept it by calling (Law 29A)")
    assert banner.get_attribute("role") == "alert"
    option = page.locator("#option")
    expect(option).to_contain_text("North (Ann)'s option (Law 31)")
    expect(page.locator("#turn")).to_contain_text("North (Ann) decides whether to accept")
    screenshot(page, "capture-desktop.png")

    option.locator("#decline").click()
    expect(banner).to_contain_text("S calls. If he passes, W must repeat 1S")
    expect(page.locator("#turn")).to_have_text("South (Cy) to call.")
    page.locator("#director-called").click()
    expect(banner).to_be_empty()
    expect(page.locator("#director")).to_contain_text("W bid 1S out of rotation")

    enter(tab, "p 1s p p p")
    expect(page.locator("#contract")).to_have_text("Contract: 1♠ by West")
    expect(page.locator("#turn")).to_have_text("North (Ann) is on lead.")
    page.locator(".compass-seat.north [data-card='D2']").click()
    entry = page.locator("#entry-line")
    expect(entry).to_have_value("d2")  # the card of the hand due to play (capture-play.js)
    expect(entry).to_be_focused()
    entry.press("Enter")
    expect(page.locator("#turn")).to_have_text("East (Bob) to play, trick 1.")

    board = state(stack, table, stack.director)["board"]
    assert calls_of(board) == [("N", "1H"), ("E", "P"), ("S", "P"), ("W", "1S"), ("N", "P"),
                               ("E", "P"), ("S", "P")]
    assert [a["kind"] for a in board["alerts"]] == ["bid_out_of_rotation"]
    assert [r["law"] for r in board["rectifications"]] == ["31A", "31A1"]
    assert board["contract"]["declarer"] == "W" and board["status"] == "closed"
    assert board["opening_lead"] == {"seat": "N", "card": "D2"}
    assert [(e["type"], e["seat"]) for e in sent_events(tab)] == [
        ("call", "N"), ("call", "E"), ("call", "W"), ("option", "N"), ("call", "S"),
        ("call", "W"), ("call", "N"), ("call", "E"), ("call", "S"), ("card_played", "N")]
    assert_clean_console(tab)


def test_other_events_from_the_entry_line(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """North replaces his inadvertent 1H by 1S (Law 25A), East exposes the king of diamonds
    (Law 24: West must pass at his next turn), asks about North's call and South explains it
    aloud (Law 20F1: at the table, partner explains to all), East bids 2C with an alert and
    its explanation (Law 20F)."""
    table, _ = table_with_players(stack, "cap-events")
    tab = capture_tab(browser, stack, table)
    tabs.append(tab)
    page = tab.page
    enter(tab, "1h")
    enter(tab, "slip n 1s")
    expect(page.locator("#director")).to_contain_text("N replaced an inadvertent 1H by 1S")
    enter(tab, "show e dk")
    expect(page.locator("#call-director")).to_contain_text("E exposed DK during the auction")
    enter(tab, "ask e 1")
    page.locator(".auction button[data-index='0']").click()
    expect(page.locator("#entry-line")).to_have_value("explain s 1 ")
    page.locator("#entry-line").press_sequentially("five or more spades")
    page.locator("#entry-line").press("Enter")
    expect(page.locator("#explanations")).to_contain_text("five or more spades")
    enter(tab, "2c!(natural, 5+ clubs)")
    expect(page.locator("#explanations")).to_contain_text("natural, 5+ clubs")
    expect(page.locator("#turn")).to_have_text("South (Cy) to call.")

    board = state(stack, table, stack.director)["board"]
    assert calls_of(board) == [("N", "1S"), ("E", "2C")]
    assert board["calls"][1]["alert"] is True
    assert board["calls"][1]["explanation"] == "natural, 5+ clubs"
    assert board["exposed_cards"] == [{"seat": "E", "card": "DK", "led": False}]
    assert [(q["seat"], q["index"]) for q in board["questions"]] == [("E", 0)]
    assert [(e["seat"], e["caller"], e["explanation"]) for e in board["explanations"]] == [
        ("S", "N", "five or more spades")]
    assert [a["kind"] for a in board["alerts"]] == ["change_of_call", "exposed_card"]
    assert_clean_console(tab)


def test_a_bad_entry_is_refused_with_nothing_changed(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """A line with a word that is not a call sends nothing; an option with none open sends
    nothing; a call the server refuses (an explanation over 2,000 characters) stops the line
    there: the calls before it stand, it and those after it stay in the entry line."""
    table, _ = table_with_players(stack, "cap-errors")
    tab = capture_tab(browser, stack, table)
    tabs.append(tab)
    page = tab.page
    entry, error = page.locator("#entry-line"), page.locator("#entry-error")
    entry.fill("1h zz p")
    entry.press("Enter")
    expect(error).to_have_text('"zz" is not a call: type e.g. 1h, 3nt, p, x, xx, w:1s or 2c!')
    expect(entry).to_have_value("1h zz p")
    entry.fill("decline")
    entry.press("Enter")
    expect(error).to_contain_text("No option is open")
    assert sent_events(tab) == []

    long = "x" * 2001
    entry.fill(f"1h p 2c!({long}) p")
    entry.press("Enter")
    expect(error).to_contain_text("(South) not recorded: the explanation is longer than "
                                  "2000 characters")  # the server's words, its field named so
    expect(entry).to_have_value(f"2c!({long}) p")
    board = state(stack, table, stack.director)["board"]
    assert calls_of(board) == [("N", "1H"), ("E", "P")]
    assert_clean_console(tab)


def test_the_capture_page_fits_a_phone_and_has_no_serious_accessibility_violation(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """At 375 px: no horizontal scroll, the entry line on screen; a call out of rotation
    typed there (Law 30: East passes at North's turn; South, his LHO, holds the option,
    Law 29A) and the Director called. axe-core finds nothing critical or serious, on the phone
    nor at a desk."""
    table, _ = table_with_players(stack, "cap-phone")
    tab = capture_tab(browser, stack, table, PHONE)
    tabs.append(tab)
    page = tab.page
    box = page.locator("#entry-line").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    enter(tab, "e:p")
    expect(page.locator("#call-director")).to_contain_text("E passed out of rotation")
    expect(page.locator("#option #accept")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    screenshot(page, "capture-phone.png")
    assert serious_violations(page) == []
    desk = capture_tab(browser, stack, table)
    tabs.append(desk)
    expect(desk.page.locator("#call-director")).to_contain_text("E passed out of rotation")
    assert serious_violations(desk.page) == []
    assert_clean_console(tab)


@pytest.mark.parametrize(("line", "read"), [
    ("1h p 2s x", {"calls": [[None, "1H", False, None], [None, "P", False, None],
                             [None, "2S", False, None], [None, "X", False, None]]}),
    ("W:1nt xx", {"calls": [["W", "1NT", False, None], [None, "XX", False, None]]}),
    ("2c!(strong, artificial)", {"calls": [[None, "2C", True, "strong, artificial"]]}),
    ("accept", {"event": {"type": "option", "seat": None, "accept": True}}),
    ("slip e 2h", {"event": {"type": "call_changed", "seat": "E", "call": "2H",
                             "inadvertent": True}}),
    ("show w h10", {"event": {"type": "card_exposed", "seat": "W", "card": "HT"}}),
    ("lead d2", {"event": {"type": "opening_lead", "seat": None, "card": "D2"}}),
    ("ask e 3", {"event": {"type": "question", "seat": "E", "index": 2}}),
    ("explain s 1 16+ any shape", {"event": {"type": "explanation", "seat": "S", "index": 0,
                                             "explanation": "16+ any shape"}}),
    ("q:1s", {"error": '"q:" is not a seat: n, e, s or w'}),
    ("show w", {"error": "Type show <seat> <card>, e.g. show w hk."}),
    # declarer's lead option (Laws 50D2, 51B; Law 26): the seat is declarer's, from the state
    ("require h", {"event": {"type": "lead_option", "seat": None, "choice": "require",
                             "suit": "H"}}),
    ("prohibit S", {"event": {"type": "lead_option", "seat": None, "choice": "prohibit",
                              "suit": "S"}}),
    ("prohibit", {"event": {"type": "lead_option", "seat": None, "choice": "prohibit"}}),
    ("free", {"event": {"type": "lead_option", "seat": None, "choice": "free"}}),
    ("require", {"error": "Type require <suit>, e.g. require h."}),
    ("free h", {"error": "Type free alone."}),
    ("prohibit x", {"error": "Type prohibit <suit>, e.g. prohibit h, or prohibit alone (every "
                             "suit of the penalty cards)."}),
])
def test_the_entry_lines_syntax(stack: Stack, browser: Browser, tabs: list[Tab], line: str,
                                read: dict[str, Any]) -> None:
    """The syntax the page and docs/pages.md document, read by the page's own module."""
    if not tabs:
        tabs.append(open_tab(browser, f"{stack.url}/capture"))
    found = tabs[0].page.evaluate(
        """async (line) => {
          const { parseEntry } = await import("/web/capture-entry.js");
          const read = parseEntry(line);
          if (read.calls) {
            read.calls = read.calls.map((c) => [c.seat, c.call, c.alert, c.explanation]);
          }
          return read;
        }""", line)
    assert found == read
