"""The public results page of an individual (docs/scoring.md "Individuals", docs/pages.md) in
a real browser: eight players played on the real stack with the Director's scores, worked by
hand (tests/integration/test_individuals.py); the page names the form, ranks the players
(Law 78A: each his own side's matchpoints) and lists the partnerships the travellers name."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.integration.test_individuals import BY_HAND, play_individual
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_ranks_the_players_of_an_individual(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "indivpage"
    with stack.client(stack.director) as http:
        play_individual(stack, http, t)
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#summary")).to_contain_text("8 players")
    expect(page.locator("#summary")).to_contain_text("individual")
    rows = page.locator("#individuals tr[data-entrant]")
    expect(rows).to_have_count(8)
    for player, (rank, _, percent) in BY_HAND.items():
        row = page.locator(f"#individuals tr[data-entrant='{player}']")
        expect(row).to_have_attribute("data-rank", str(rank))
        expect(row.locator("td").nth(1)).to_contain_text(f"P{player}")
        expect(row.locator("td[data-percent]")).to_have_text(f"{percent:.2f}")
    expect(page.locator("#individuals tr[data-partnership='103'] td").nth(1)).to_have_text(
        "P1 & P3")
    screenshot(page, "results-individual.png")
    assert_clean_console(tab)
