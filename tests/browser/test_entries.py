"""A tournament's entries in a real browser (tests/browser/browser.py): the Director opens them
from his console's Entries panel and gets the entry link; five players enter on the public entry
page (`/enter#<entry token>`), each told his entrant number; one without his partner's name and
one entered already are refused on the page naming the field; the Director sees the entries
arrive in his panel, refuses one with a reason and closes: the tournament is created with the
four standing pairs (a Howell at two tables), and a late player is told entries are closed. No
serious axe-core finding on either page. A player keeps his own link from the entry page's
answer and follows it: the lobby, waiting for the close, then (the close made) his round-1
table, moved by his page's socket; the refused entry's link says it was refused, and why."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.helpers import DEALS
from tests.stack import Stack

T = "entpage"
REFUSED = "Failed to load resource: the server responded with a status of {}"

expect.set_options(timeout=10_000)


def open_entries(console: Page, tournament: str, event: str, kind: str | None = None) -> str:
    """The console's Entries panel opens entries (one board a round, the test deals; `kind`
    chosen among the movements); the entry link it gives."""
    console.locator(".tab[data-tab='entries']").click()
    console.fill("#entries-tournament", tournament)
    console.fill("#entries-event", event)
    if kind is not None:
        console.select_option("#entries-kind", kind)
    console.fill("#entries-per", "1")
    console.fill("#entries-deals", DEALS)
    console.locator("#entries-open-form button[type='submit']").click()
    expect(console.locator("#entries-open-result")).to_contain_text("Entries open")
    # the panel reads the entries' view, and with it the link, after it says the answer
    expect(console.locator("#entries-link")).to_have_attribute("href", re.compile("#"))
    link = console.locator("#entries-link").get_attribute("href")
    assert link is not None and link.startswith("/enter#")
    return link


def enter(page: Page, *players: tuple[str, str]) -> None:
    for i, (name, pid) in enumerate(players):
        page.fill(f"[name='players[{i}].name']", name)
        page.fill(f"[name='players[{i}].id']", pid)
    page.locator("#send").click()


def test_players_enter_the_director_sees_them_refuses_one_and_closes(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    director = open_tab(browser, f"{stack.url}/director#{stack.director}")
    tabs.append(director)
    console = director.page
    expect(console.locator("#connection")).to_have_text("Connected")
    link = open_entries(console, T, "Tuesday club pairs")
    expect(console.locator("#entries-open-result")).to_contain_text("Entries open: publish")
    expect(console.locator("#entries-link")).to_be_visible()
    assert link.startswith("/enter#v1.")

    players = [("Ann Smith", "EBU 1"), ("Bob Jones", ""), ("Cy Young", ""), ("Di Prince", ""),
               ("Ed Stone", "ed@example.org"), ("Flo Hart", ""), ("Gus Lee", ""),
               ("Hal Moon", ""), ("Ann Smith", "EBU 2"), ("Ivy Lane", "")]
    pages: list[Tab] = []
    for k in range(5):
        tab = open_tab(browser, f"{stack.url}{link}", PHONE if k == 4 else None)
        tabs.append(tab)
        pages.append(tab)
        expect(tab.page.locator("#title")).to_have_text("Entry — Tuesday club pairs")
        enter(tab.page, players[2 * k], players[2 * k + 1])
        expect(tab.page.locator("#entry-result")).to_contain_text(f"entrant {k + 1}")
    # Ann Smith EBU 2 is told apart from Ann Smith EBU 1 by her ID: entrant 5
    expect(pages[4].page.locator("#entry-result")).to_have_text(
        "You are entered: Ann Smith & Ivy Lane, entrant 5 (5 entries so far).")
    links = pages[4].page.locator("#entry-links .link-row")
    expect(links).to_have_count(2)  # each player's own link, to keep
    expect(links.nth(1)).to_contain_text("Ivy Lane")
    assert (pages[4].page.locator("#entry-link-2").input_value() or "").startswith(
        f"{stack.url}/play#v1.")
    screenshot(pages[4].page, "entry-phone.png")
    pages[0].page.locator("#entry-open-1").click()  # Ann Smith follows her link: the lobby
    player = pages[0].page
    expect(player.locator("#play-next")).to_have_text(
        "Entered (entry 1): waiting for the Director to close the entries. Keep this page's "
        "link: it takes you to your table each round.")
    expect(player.locator("#play-entrants li")).to_have_count(5)

    late = open_tab(browser, f"{stack.url}{link}")
    tabs.append(late)
    enter(late.page, ("Jo March", ""), ("", ""))  # no partner's name: 400, on the field
    expect(late.page.locator("#entry-result")).to_contain_text("players[1].name")
    expect(late.page.locator("[name='players[1].name']")).to_have_attribute(
        "aria-invalid", "true")
    enter(late.page, ("Jo March", ""), ("bob  jones", ""))  # Bob entered already: 409
    expect(late.page.locator("#entry-result")).to_contain_text(
        "Not entered: players[1]: bob jones has entered already (entry 1")
    expect(late.page.locator("[name='players[1].name']")).to_have_attribute(
        "aria-invalid", "true")
    assert late.console == [REFUSED.format("400 (Bad Request)"),
                            REFUSED.format("409 (Conflict)")]

    rows = console.locator("#entries-list tr[data-entry]")
    expect(rows).to_have_count(5)  # arrived by the panel's own reading, live
    expect(console.locator("#entries-summary")).to_have_text(
        f"{T}: 5 standing of 5 entries · open")
    screenshot(console, "director-entries.png")
    console.fill("#entries-reason", "not members of the club")
    rows.nth(2).locator(".entry-refuse").click()
    expect(rows.nth(2)).to_have_attribute("data-state", "refused")
    expect(rows.nth(2)).to_contain_text("Refused: not members of the club")
    expect(rows.nth(4).locator("td").nth(1)).to_have_text("4")  # moved up a number
    console.locator("#entries-close").click()
    expect(console.locator("#entries-close-result")).to_have_text(
        f"Entries closed: tournament {T} created with 4 entrants at 2 tables "
        "(howell, 3 rounds of 1 board).")
    expect(console.locator("#entries-summary")).to_contain_text("· closed")
    expect(player.locator("#play-next")).to_contain_text("Round 1: table ")  # by her socket
    expect(player.locator("#play-entrants li")).to_have_count(4)
    refused_link = pages[2].page.locator("#entry-link-1").input_value()
    gone = open_tab(browser, refused_link)  # the refused entry's link says so
    tabs.append(gone)
    expect(gone.page.locator("#play-connection")).to_contain_text(
        "your entry was refused by the Director: not members of the club")
    expect(console.locator(".entry-refuse")).to_have_count(0)

    closed = open_tab(browser, f"{stack.url}{link}")
    tabs.append(closed)
    expect(closed.page.locator("#entry-result")).to_have_text(
        "Entries are closed: ask the Director.")
    expect(closed.page.locator("#send")).to_be_disabled()
    for tab in (director, *pages, closed):
        assert serious_violations(tab.page) == [], tab.page.url
        assert_clean_console(tab)
