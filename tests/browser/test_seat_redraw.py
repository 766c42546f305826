"""The seat page redraws at a call only what the call changed (pages.md, "The table"; the
click-to-all-four-pages time in docs/performance.md, "The pages"): the seat to act moves, so
the plates of the seat that called and of the next are put out and lit (their "to call" badge
moved, the plates themselves kept), and no hand's cards or backs and not the board's box are
drawn anew, which a call in the auction leaves as they were. Law 41D:
every hand but one's own stays hidden (backs) through the auction, as before."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import DESKTOP, SEATS, Tab, cards_of, click_call, post, seat_tab
from tests.browser.test_table import backs, board_two, faces, lit
from tests.stack import Stack

expect.set_options(timeout=10_000)

KEEP = """() => { window.__kept = {
  hand: document.querySelector("#hand [data-hand]"),
  card: document.querySelector("#hand [data-hand] [data-card]"),
  backs: [...document.querySelectorAll("#play-table .place[data-seat] [data-backs]")],
  box: document.querySelector("#board-box"),
  plate: document.querySelector("#hand .plate"),
}; }"""
STILL = """() => { const k = window.__kept; return {
  hand: k.hand.isConnected, card: k.card.isConnected, box: k.box.isConnected,
  backs: k.backs.map((b) => b.isConnected), plate: k.plate.isConnected }; }"""


def test_a_call_moves_the_lit_badge_and_redraws_no_plate_hand_nor_the_boards_box(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 41D: through the auction one's own hand faced, the three others backs of 13."""
    table = "redraw-plates"
    seats = board_two(stack, table)["seats"]
    east = seat_tab(browser, stack, seats["E"], DESKTOP)  # dealer East
    tabs.append(east)
    page = east.page
    expect(page.locator("#board-box")).to_contain_text("Board 2")
    assert lit(page, "E") == ["E"]
    page.evaluate(KEEP)

    click_call(east, "P")  # East's own call: his plate loses "to call", South's gains it
    expect(page.locator("#play-table [data-seat='S'].to-act .plate .badge.act")).to_have_count(1)
    expect(page.locator("#hand .plate .badge.act")).to_have_count(0)
    expect(page.locator("#hand .plate.lit")).to_have_count(0)
    post(stack, table, seats["S"], {"type": "call", "call": "1S"})  # a call from another page
    expect(page.locator(".auction tbody td:not(.next) > [aria-label]")).to_have_count(2)
    expect(page.locator("#play-table [data-seat='W'] .plate .badge.act")).to_have_count(1)

    still = page.evaluate(STILL)
    assert still == {"hand": True, "card": True, "box": True, "backs": [True, True, True],
                     "plate": True}, still  # the plate put out, not drawn anew
    assert lit(page, "E") == ["W"]
    assert faces(page, "E", "E") == cards_of("E")
    assert backs(page) == {seat: 13 for seat in SEATS if seat != "E"}
    expect(page.locator("#board-box")).to_contain_text("Board 2")
