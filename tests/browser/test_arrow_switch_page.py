"""The public results page of an arrow-switched Mitchell (docs/scoring.md, docs/pages.md) in a
real browser: six pairs, three rounds played on the real stack, the last switched
(tests/integration/test_arrow_switch.py plays the same); the page names the form and shows the
six pairs in one field ranked as Law 78A by hand ranks them
(tests/integration/pairs_by_hand.py)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.integration.pairs_by_hand import by_hand, ranks
from tests.integration.test_arrow_switch import play_arrow_switched
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_shows_an_arrow_switched_mitchell_as_one_field(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "apage"
    with stack.client(stack.director) as http:
        played, _ = play_arrow_switched(http, t)
    expected = by_hand(played, {}, [])
    places = ranks(expected)
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#summary")).to_contain_text(
        "mitchell, arrow-switched (last round): one field")
    expect(page.locator("#rankings table")).to_have_count(1)  # one field, not NS and EW
    expect(page.locator("#rankings tr[data-entrant]")).to_have_count(6)
    for pair, percent in expected.items():
        row = page.locator(f"#rankings tr[data-entrant='{pair}']")
        expect(row.locator("td[data-percent]")).to_have_text(f"{percent:.2f}")
        expect(row).to_contain_text(str(places[pair]))
    screenshot(page, "results-arrow-switch.png")
    assert_clean_console(tab)
