"""The seat page's auction is appended to, not drawn anew, at a call (pages.md, "The table";
the click-to-all-four-pages time in docs/performance.md, "The pages"): the cells of the calls
already made, the empty cells before the dealer's first call and the table itself stay the
same nodes; a new call is one new cell where the "?" stood, and a row is added only when a
row fills. Law 20B: the auction stays in sight as it was, call by call, and each call is still
a button that opens what was said of it (Law 20F)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import DESKTOP, Tab, auction, click_call, post, seat_tab
from tests.browser.test_table import board_two
from tests.stack import Stack

expect.set_options(timeout=10_000)

CELLS = ".auction tbody td:not(.next) > [aria-label]"
KEEP = """() => { window.__kept = {
  table: document.querySelector("#auction table.auction"),
  rows: [...document.querySelectorAll("#auction tbody tr")],
  cells: [...document.querySelectorAll("#auction tbody td:not(.next)")],
  next: document.querySelector("#auction tbody td.next"),
}; }"""
STILL = """() => { const k = window.__kept; return {
  table: k.table.isConnected, rows: k.rows.map((r) => r.isConnected),
  cells: k.cells.map((c) => c.isConnected), next: k.next.isConnected }; }"""
ROWS = """() => [...document.querySelectorAll("#auction tbody tr")].map((tr) =>
  [...tr.cells].map((td) => td.className || "call"))"""


def test_a_call_appends_one_cell_and_keeps_the_auctions_others(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 20B: East (dealer) passes, South bids 1S, then West's and North's calls arrive
    from the other pages: the cells drawn before each stay the same nodes."""
    table = "redraw-auction"
    seats = board_two(stack, table)["seats"]
    east = seat_tab(browser, stack, seats["E"], DESKTOP)  # dealer East: W and N cells empty
    tabs.append(east)
    page = east.page
    click_call(east, "P")
    post(stack, table, seats["S"], {"type": "call", "call": "1S"})
    expect(page.locator(CELLS)).to_have_count(2)
    assert page.evaluate(ROWS) == [["empty", "empty", "call", "call"],
                                   ["next", "empty", "empty", "empty"]]
    page.evaluate(KEEP)

    post(stack, table, seats["W"], {"type": "call", "call": "P"})  # into the second row
    expect(page.locator(CELLS)).to_have_count(3)
    assert page.evaluate(ROWS) == [["empty", "empty", "call", "call"],
                                   ["call", "next", "empty", "empty"]]
    still = page.evaluate(STILL)
    assert still == {"table": True, "rows": [True, True],
                     "cells": [True, True, True, True, False, True, True],
                     "next": False}, still  # West's "?" and North's empty cell gave way

    page.evaluate(KEEP)
    post(stack, table, seats["N"], {"type": "call", "call": "P"})
    expect(page.locator(CELLS)).to_have_count(4)
    still = page.evaluate(STILL)
    assert still == {"table": True, "rows": [True, True],
                     "cells": [True, True, True, True, True, False, True],
                     "next": False}, still
    assert auction(east) == ["East: pass", "South: 1 spades", "West: pass", "North: pass"]

    page.locator(".auction button.call-button[data-index='1']").click()  # still a button
    expect(page.locator("#call-detail")).to_contain_text("1")
