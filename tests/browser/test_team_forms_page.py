"""The public results page of a board-a-match team match (docs/scoring.md, docs/pages.md) in a
real browser: the match played on the real stack (tests/integration/test_team_forms.py plays
the same); the page names the form, ranks the teams by boards won and shows each board's
point to each team as worked by hand from the rooms' scores (the ACBL Handbook's rule)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.integration.test_team_forms import bam_by_hand, play_match
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_shows_a_board_a_match_match(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "bpage"
    with stack.client(stack.director) as http:
        scores, _ = play_match(http, t, "board_a_match")
    by_hand = bam_by_hand(scores)
    home = sum(by_hand.values())
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#summary")).to_contain_text("2 teams · teams, board-a-match")
    expect(page.locator("#rankings caption")).to_have_text(
        "Teams by boards won (board-a-match)")
    expect(page.locator("#rankings tr[data-entrant='1'] td[data-points]")).to_have_text(
        f"{home:.2f}")
    expect(page.locator("#rankings tr[data-entrant='2'] td[data-points]")).to_have_text(
        f"{4 - home:.2f}")
    match = page.locator("#travellers .traveller[data-match='1-2']")
    for board, won in by_hand.items():
        cells = match.locator(f"tr[data-board='{board}'] td")
        expect(cells.nth(3)).to_have_text(f"{won:.2f}")
        expect(cells.nth(4)).to_have_text(f"{1 - won:.2f}")
    screenshot(page, "results-board-a-match.png")
    assert_clean_console(tab)
