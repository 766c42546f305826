"""The public results page of a fouled board (Law 87; docs/scoring.md, docs/pages.md) in a real
browser: the six-pair arrow-switched Mitchell played on the real stack, board 1 marked fouled at
one place (tests/integration/test_fouled_board.py does the same through the API); the
traveller says the board is fouled with the Director's reason, each line its form, and the
points as Law 87B by hand scores them."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.integration.test_arrow_switch import play_arrow_switched
from tests.integration.test_fouled_board import fouled_at, law_87b
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_shows_a_fouled_board_in_its_groups(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "fpage"
    with stack.client(stack.director) as http:
        played, _ = play_arrow_switched(http, t)
        board_1 = {(ns, ew): s for (b, ns, ew), s in played.items() if b == 1}
        changed = sorted(board_1)[0]
        answer = fouled_at(http, t, {"board": 1, "reason": "hands of E and W swapped",
                                     "groups": [[{"ns": changed[0], "ew": changed[1]}]]})
        assert answer.status_code == 202, answer.text
    points = law_87b(board_1, [{changed}, set(board_1) - {changed}], 3)
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    board = page.locator(".traveller[data-board='1']")
    expect(board).to_contain_text(
        "Board 1 — fouled (Law 87): 2 groups scored apart — hands of E and W swapped")
    for (ns, ew), mp in points.items():
        row = board.locator(f"tr[data-ns='{ns}'][data-ew='{ew}']")
        expect(row).to_have_attribute("data-group", "1" if (ns, ew) == changed else "0")
        expect(row).to_contain_text(
            "changed form 1" if (ns, ew) == changed else "correct form")
        expect(row).to_contain_text(f"{mp:.2f}")
    board.scroll_into_view_if_needed()
    screenshot(page, "results-fouled-board.png")
    assert_clean_console(tab)
