"""The director's console in a real browser (tests/browser/browser.py), with the seats'
pages and a spectator's: four players, a spectator and the director play a whole board with an
insufficient bid and a ruling given from the console; the console creates a tournament, starts
its round, hands out its links (copied, printed) and exports it; its alert queue is filtered
and marked handled on every director's console; a ruling the server refuses changes nothing;
at 375 px, with no serious axe-core finding."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    PHONE,
    SEATS,
    Tab,
    assert_clean_console,
    assert_only_own_hand,
    assert_step_matches,
    auction,
    click_call,
    history,
    open_tab,
    post,
    screenshot,
    seat_tab,
    serious_violations,
    table_with_players,
    vugraph_tab,
)
from tests.helpers import DEALS
from tests.stack import Stack

RECTIFIED = "E must substitute a sufficient bid or a pass"


def console_tab(browser: Browser, stack: Stack, viewport: Any = None) -> Tab:
    tab = open_tab(browser, f"{stack.url}/director#{stack.director}", viewport)
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    return tab


def queue_items(page: Page, table: str) -> Any:
    """The console's queue, filtered to one table (the session's other tests raise alerts)."""
    page.select_option("#filter-table", table)
    return page.locator("#alert-list .queue-item")


def give_ruling(page: Page, action: str, **fields: str) -> None:
    page.select_option("#ruling-action", action)
    for name, value in fields.items():
        target = page.locator(f"#ruling-{name}")
        if target.evaluate("e => e.tagName") == "SELECT":
            target.select_option(value)
        else:
            target.fill(value)
    page.locator("#ruling-form button[type='submit']").click()


def test_four_seats_a_spectator_and_the_director_play_a_board(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """North opens 1S with a self-alert; East's 1H is insufficient (Law 27): the alert is at
    the top of the director's queue at once; South, the option holder, declines on his page,
    and every page shows the rectification (East substitutes, 27B1(a)). South and West pass,
    but West's pass was made on cards from another board: the director marks the alert
    handled and, from the console, cancels West's call (Law 17D), which every page shows;
    West and North pass, the auction ends (Law 22A), South, on declarer's left (Law 41A),
    faces the opening lead, and the spectator replays the board call by call, the ruling
    among its steps. Each seat's page only ever holds its own hand."""
    table, tokens = table_with_players(stack, "page-board")
    pages = {seat: seat_tab(browser, stack, tokens["seats"][seat]) for seat in SEATS}
    spectator = vugraph_tab(browser, stack, tokens["spectator"])
    director = console_tab(browser, stack)
    tabs.extend([*pages.values(), spectator, director])
    n, e, s, w = (pages[seat] for seat in SEATS)
    console = director.page
    everyone = [*pages.values(), spectator, director]
    for seat, tab in pages.items():
        expect(tab.page.locator("#title")).to_contain_text(
            {"N": "North", "E": "East", "S": "South", "W": "West"}[seat])
        expect(tab.page.locator(".auction thead")).to_contain_text("Ann")

    n.page.check("#self-alert")
    n.page.fill("#self-explanation", "five or more spades")
    click_call(n, "1S")
    # The bidding box offers only sufficient bids (Law 18C): East's insufficient 1H comes
    # from another client of his seat, the API.
    expect(e.page.locator("#bidding-box button[data-call='1H']")).to_be_disabled()
    expect(e.page.locator("#bidding-box button[data-call='1NT']")).to_be_enabled()
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "1H"})

    items = queue_items(console, table)
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("Law 27 E made an insufficient bid, 1H.")
    screenshot(console, "director-queue.png")
    decline = s.page.locator("#option #decline")
    expect(decline).to_be_visible()
    expect(s.page.locator("#option")).to_contain_text("E made an insufficient bid, 1H.")
    expect(s.page.locator("#option")).to_contain_text("Law 27B1(a)")
    for tab in (n, e, w):
        expect(tab.page.locator("#turn")).to_contain_text("South (Cy) decides whether")
        assert tab.page.locator("#option button").count() == 0
    # Law 20F / 16: North's self-alert is told to the opponents, not to his partner.
    for tab in (e, w):
        expect(tab.page.locator("#explanations")).to_contain_text("five or more spades")
    assert "five or more spades" not in s.page.locator("main").inner_text()
    screenshot(s.page, "seat-desktop.png")
    decline.click()

    for tab in everyone[:-1]:
        expect(tab.page.locator("#director")).to_contain_text(RECTIFIED)
        expect(tab.page.locator("#director")).to_contain_text("Law 27")
    expect(e.page.locator("#turn")).to_have_text("Your call.")
    e.page.locator("h1").click()  # the focus anywhere on the page: typed calls still go in
    e.page.keyboard.type("2h")
    e.page.keyboard.press("Enter")
    click_call(s, "P")
    click_call(w, "P")
    expect(n.page.locator("#turn")).to_have_text("Your call.")

    # The director: the alert dealt with, then the table opened from it and the ruling given.
    items.first.locator(".open-table").click()
    expect(console.locator("#table-title")).to_have_text(f"Table {table}")
    expect(console.locator(".compass [data-card]")).to_have_count(52)  # every hand
    expect(console.locator("#director")).to_contain_text(RECTIFIED)
    items.first.locator(".mark").click()
    expect(items).to_have_count(0)  # handled: off the queue
    console.check("#show-handled")
    expect(items.first).to_contain_text("Handled ✓")
    give_ruling(console, "cancel_call", seat="W", law="17D",
                note="West's pass was made on the cards of board 2")
    expect(console.locator("#ruling-result")).to_have_text("Ruling given: cancel a call.")
    ruled = "The Director's ruling (Law 17D): West's last call and those after it cancelled"
    for tab in everyone:
        expect(tab.page.locator("#director")).to_contain_text(ruled)
    expect(w.page.locator("#turn")).to_have_text("Your call.")
    expect(console.locator("#record")).to_contain_text(ruled)
    screenshot(console, "director-table.png")
    click_call(w, "P")
    click_call(n, "P")

    for tab in everyone:
        expect(tab.page.locator("#contract")).to_have_text("Contract: 2♥ by East")
    for tab in [*pages.values(), spectator]:
        assert [label.split(",")[0] for label in auction(tab)] == [
            "North: 1 spades", "East: 2 hearts", "South: pass", "West: pass", "North: pass"]
    expect(s.page.locator("#turn")).to_have_text("You are on lead: choose a card from your hand.")
    expect(w.page.locator("[data-hand] button[data-card]:enabled")).to_have_count(0)
    s.page.locator("[data-hand] button[data-card='SA']").click()  # the lead: one click
    for tab in [*pages.values(), spectator]:
        expect(tab.page.locator(".trick-slot[data-card='SA']")).to_have_count(1)
    expect(e.page.locator("#turn")).to_have_text("Your card from dummy's hand (West).")
    for seat, tab in pages.items():  # and West's, dummy, once the lead is faced (Law 41D)
        assert_only_own_hand(tab, seat, dummy="W")
        assert_clean_console(tab)
    last = s.states()[-1]
    assert last["opening_lead"] == {"seat": "S", "card": "SA"}
    assert "five or more spades" not in json.dumps(s.frames)  # never on South's wire (Law 16)

    # The spectator replays the board, call by call, the Director's ruling among the steps.
    steps = history(stack, table, tokens["spectator"], board=1, states="true")["history"]
    kinds = [step["event"]["type"] for step in steps]
    assert kinds == ["board_started", "players_named", "call", "call", "option", "call",
                     "call", "call", "ruling", "call", "call", "card_played"]
    page = spectator.page
    page.locator("#replay-load").click()
    count = len(steps)
    assert_step_matches(page, steps[0], 0, count)
    page.locator("h1").click()
    for index in range(1, count):
        page.keyboard.press("ArrowRight")
        assert_step_matches(page, steps[index], index, count)
        if kinds[index] == "ruling":
            expect(page.locator("#step")).to_contain_text(ruled)
    assert_clean_console(spectator)
    assert_clean_console(director)


def test_the_console_creates_a_tournament_starts_its_round_and_hands_out_its_links(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """From the console alone: a tournament of two tables from a dealing program's PBN file,
    its links on a sheet (copied, printed), a seat's page opened from the sheet, the first
    round started (boards 1–2: each next board starts by itself, Law 17E), the overview, and
    the session exported as PBN."""
    director = console_tab(browser, stack)
    tabs.append(director)
    page = director.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=stack.url)
    page.locator(".tab[data-tab='create']").click()
    page.fill("#new-tournament", "console-cup")
    page.fill("#new-event", "Console Cup")
    page.fill("#new-tables", "2")
    page.fill("#new-site", "the club")
    page.fill("#new-date", "2026-11-24")
    page.set_input_files("#new-deals-file", files=[{
        "name": "deals.pbn", "mimeType": "text/plain", "buffer": DEALS.encode()}])
    page.locator("#tournament-form button[type='submit']").click()
    expect(page.locator("#tournament-form-result")).to_have_text(
        "Tournament console-cup: 2 tables created.")
    slips = page.locator("#links .slip")
    expect(slips).to_have_count(2)
    expect(slips.first.locator(".link-row")).to_have_count(5)  # four seats, the spectators
    url = page.locator("#link-console-cup-1-S").input_value()
    assert url.startswith(f"{stack.url}/seat#v1.")
    slips.first.get_by_role("button", name="Copy South's link").click()
    assert page.evaluate("navigator.clipboard.readText()") == url
    page.emulate_media(media="print")
    expect(page.locator("#links-panel")).to_be_visible()
    for hidden in ("#queue-panel", "#tab-create", ".tabs", "#print"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("#links .slip .link-print").first).to_contain_text("/seat#v1.")
    screenshot(page, "director-sheet.png")
    page.emulate_media(media="screen")

    south = open_tab(browser, url)  # the link as a player opens it
    tabs.append(south)
    expect(south.page.locator("#connection")).to_have_text("Connected")
    page.locator(".tab[data-tab='tournament']").click()
    expect(page.locator("#tournament-pick")).to_have_value("console-cup")
    page.fill("#round-number", "1")
    page.fill("#round-boards", "1-2")
    page.locator("#round-form button[type='submit']").click()
    expect(page.locator("#round-result")).to_have_text("Round 1 started at 2 tables.")
    expect(south.page.locator("[data-hand] [data-card]")).to_have_count(13)
    rows = page.locator("#overview tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("bidding")
    expect(page.locator("#tournament-totals")).to_contain_text("2 tables · 2 playing")
    with page.expect_download() as download:
        page.locator("#export-pbn").click()
    exported = download.value.path().read_text()
    assert '[Event "Console Cup"]' in exported and '[Site "the club"]' in exported
    assert exported.count('[Table "') == 2
    assert_clean_console(director)
    assert_clean_console(south)


def test_the_queue_is_filtered_and_a_mark_reaches_every_directors_console(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Two tables with an irregularity each (Law 27, insufficient bids): filtered by table, a
    console lists its table's alerts only; newest first, a new one (Law 30, a pass out of
    rotation) arrives at the top; marked handled on one console, the alert leaves the queue
    of another director's console."""
    tables = [table_with_players(stack, f"queue-{n}") for n in (1, 2)]
    for table, tokens in tables:
        post(stack, table, tokens["seats"]["N"], {"type": "call", "call": "1S"})
        post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "1H"})
    first, second = console_tab(browser, stack), console_tab(browser, stack)
    tabs.extend([first, second])
    items = queue_items(first.page, "queue-1")
    other = queue_items(second.page, "queue-1")
    expect(items).to_have_count(1)
    expect(other).to_have_count(1)
    expect(items.first).to_contain_text("Table queue-1, board 1")
    table, tokens = tables[0]
    post(stack, table, tokens["seats"]["S"], {"type": "option", "accept": False})
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "2H"})
    post(stack, table, tokens["seats"]["N"], {"type": "call", "call": "P"})  # South's turn
    expect(items).to_have_count(2)
    expect(items.first).to_contain_text("Law 30 N passed out of rotation")  # newest on top
    items.nth(1).locator(".mark").click()
    expect(items).to_have_count(1)
    expect(other).to_have_count(1, timeout=15_000)  # the other console's next read
    expect(other.first).to_contain_text("Law 30")
    second.page.check("#show-handled")
    expect(other.nth(1)).to_contain_text("Handled ✓")
    first.page.select_option("#filter-table", "")
    assert first.page.locator("#alert-list [data-alert^='queue-2:']").count() == 1
    assert_clean_console(first)
    assert_clean_console(second)


def test_a_ruling_the_server_refuses_says_why_and_changes_nothing(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """An adjusted score (Law 12C) with no score is refused: the form says which field, and
    the table's record is as it was."""
    table, _ = table_with_players(stack, "ruling-refused")
    director = console_tab(browser, stack)
    tabs.append(director)
    page = director.page
    page.locator(".tab[data-tab='tables']").click()
    page.locator(f"#table-list button[data-table='{table}']").click()
    expect(page.locator("#record li")).to_have_count(2)  # the board, the players' names
    before = history(stack, table, stack.director)["history"]
    give_ruling(page, "adjusted_score", law="12C")
    expect(page.locator("#ruling-result")).to_contain_text(  # in words, the field by its label
        "Refused: an adjusted score ruling needs the score (Score)")
    expect(page.locator("#ruling-score")).to_have_attribute("aria-invalid", "true")
    assert history(stack, table, stack.director)["history"] == before
    give_ruling(page, "adjusted_score", score="A+/A-", law="12C")
    expect(page.locator("#director")).to_contain_text(
        "The Director's ruling (Law 12C): adjusted score A+/A-.")
    assert director.errors == [] and director.csp_violations() == []
    assert director.console == ["Failed to load resource: the server responded with a status "
                                "of 400 (Bad Request)"]  # the refusal, and nothing else


def test_the_console_fits_a_phone_with_no_serious_accessibility_violation(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """At 375 px: no horizontal scroll on the queue and on a table; axe-core finds nothing
    critical or serious on either."""
    table, tokens = table_with_players(stack, "console-phone")
    post(stack, table, tokens["seats"]["N"], {"type": "call", "call": "1NT"})
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "1S"})  # Law 27
    director = console_tab(browser, stack, PHONE)
    tabs.append(director)
    page = director.page
    items = queue_items(page, table)
    expect(items).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(page) == []
    items.first.locator(".open-table").click()
    expect(page.locator(".compass [data-card]")).to_have_count(52)
    page.locator("#table-links").click()
    expect(page.locator("#links .link-row")).to_have_count(5)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(page) == []
    screenshot(page, "director-phone.png")
    assert_clean_console(director)
