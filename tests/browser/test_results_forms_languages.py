"""The results page's views of the other forms in the catalogues (pages.md, "Languages and
high contrast"): two sections with a top across the field (each section's ranking beside the
place over the field), a Swiss pairs (each round's matches to VPs, Law 78B) and an individual
(the players ranked, each on his own side's matchpoints, Law 78A, and the partnerships), each
played on the real stack as its own browser test plays it; in the pseudo-language every text,
label and title of each view comes from the catalogue but the names."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab
from tests.browser.catalogue_words import PSEUDO, unwrapped_words, wrapped_share
from tests.integration.test_individuals import play_individual
from tests.integration.test_sections import play_sections
from tests.integration.test_swiss_pairs import play_swiss_pairs
from tests.stack import Stack

expect.set_options(timeout=15_000)


def test_the_sections_swiss_pairs_and_individual_views_come_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Two Mitchell sections, a Swiss pairs (Law 78B: IMPs to VPs) and an individual (Law
    78A) played to their ends; each one's results in the pseudo-language: its own view shown
    (the sections' rankings, the Swiss rounds' matches, the players and partnerships) and no
    text, label or title outside the catalogue."""
    with stack.client(stack.director) as http:
        play_sections(http, "rfsect")
        play_swiss_pairs(http, "rfswiss")
        play_individual(stack, http, "rfindiv")
    tab = open_tab(browser, f"{stack.url}/results?lang={PSEUDO}#rfsect")
    tabs.append(tab)
    page = tab.page
    found: dict[str, list[str]] = {}
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(page.locator("#sections tr[data-section='B'][data-entrant]")).to_have_count(6)
    assert wrapped_share(page) > 50
    found["sections"] = unwrapped_words(page)

    page.evaluate("window.location.hash = '#rfswiss'")
    expect(page.locator("#swiss-matches tr[data-round]")).to_have_count(9)
    found["Swiss pairs"] = unwrapped_words(page)

    page.evaluate("window.location.hash = '#rfindiv'")
    expect(page.locator("#individuals tr[data-entrant]")).to_have_count(8)
    expect(page.locator("#individuals tr[data-partnership]").first).to_be_visible()
    found["individual"] = unwrapped_words(page)
    assert {where: words for where, words in found.items() if words} == {}
    assert_clean_console(tab)
