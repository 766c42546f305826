"""The public results page of an event in two sections with a top across the field
(docs/scoring.md, docs/pages.md) in a real browser: two Mitchells of six pairs played on the
real stack and worked by hand (tests/integration/test_sections.py); the page names the form,
ranks the pairs over the field per direction, and each section's pairs by their place within
it, with their place overall."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.integration.pairs_by_hand import by_hand, ranks
from tests.integration.test_sections import play_sections
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_ranks_each_section_with_a_top_across_the_field(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "sectpage"
    with stack.client(stack.director) as http:
        played, doc = play_sections(http, t)
    percent = by_hand(played, {}, [])
    overall = {r["entrant"]: r["rank"] for r in doc["rankings"]}  # checked by the stack test
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#summary")).to_contain_text(
        "mitchell in 2 sections, a top across the field")
    for section, pairs in (("A", range(1, 7)), ("B", range(7, 13))):
        for of_field in ((0, 1, 2), (3, 4, 5)):
            mine = {p: percent[p] for p in pairs if (p - 1) % 6 in of_field}
            within = ranks(mine)
            rows = page.locator(f"#sections tr[data-section='{section}']").filter(
                has=page.locator("td"))
            for pair, place in within.items():
                row = rows.and_(page.locator(f"tr[data-entrant='{pair}']"))
                expect(row).to_have_attribute("data-section-rank", str(place))
                expect(row.locator("td").nth(2)).to_have_text(f"{round(mine[pair], 2):.2f}")
                expect(row.locator("td[data-overall]")).to_have_text(str(overall[pair]))
    screenshot(page, "results-sections.png")
    assert_clean_console(tab)
