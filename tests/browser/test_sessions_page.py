"""The public results page of a multi-session event's second session (docs/scoring.md,
docs/pages.md) in a real browser: two sessions played on the real stack
(tests/integration/test_sessions.py plays the same), the page names the session and shows the
overall ranking, each pair's percentage in each session and carried over, as worked by hand."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.integration.test_sessions import overall_ranks, play_two_sessions
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_shows_the_totals_carried_over(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    with stack.client(stack.director) as http:
        _, _, expected = play_two_sessions(http, "msp1", "msp2")
    places = overall_ranks(expected)
    tab = open_tab(browser, f"{stack.url}/results#msp2")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#summary")).to_contain_text("Tuesday · 6 pairs")
    overall = page.locator("#overall")
    expect(overall).to_contain_text("Overall, 2 sessions carried over")
    expect(overall.locator("th")).to_contain_text(["Monday %", "Tuesday %"])
    expect(overall.locator("tr[data-name]")).to_have_count(6)
    for name, percent in expected.items():
        row = overall.locator(f"tr[data-name='{name}']")
        expect(row.locator("td[data-percent]")).to_have_text(f"{percent:.2f}")
        expect(row.locator("td[data-session]")).to_have_count(2)
        expect(row).to_have_attribute("data-rank", str(places[name]))
    screenshot(page, "results-sessions.png")
    assert_clean_console(tab)
