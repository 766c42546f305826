"""The public results page of a Swiss pairs (docs/scoring.md, docs/pages.md) in a real
browser: six pairs, three rounds played on the real stack and worked by hand
(tests/integration/test_swiss_pairs.py); the page names the form, ranks the pairs by VPs in
the document's order, and lists each round's matches with each pair's IMPs and VPs."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.integration.test_swiss_pairs import play_swiss_pairs
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_shows_a_swiss_pairs_matches_and_vps(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "swpage"
    with stack.client(stack.director) as http:
        vp, imps, pairings, doc = play_swiss_pairs(http, t)
    met = {frozenset(m) for pairing in pairings.values() for m in pairing}
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#summary")).to_contain_text("Swiss pairs, cross_imps to VPs a match")
    rows = page.locator("#rankings tr[data-entrant]")
    expect(rows).to_have_count(6)
    for k, r in enumerate(doc["rankings"]):
        expect(rows.nth(k)).to_have_attribute("data-entrant", str(r["entrant"]))
        expect(rows.nth(k).locator("td[data-vp]")).to_have_text(f"{round(vp[r['entrant']], 2):.2f}")
    matches = page.locator("#swiss-matches tr[data-round]")
    expect(matches).to_have_count(9)  # three rounds of three matches
    for rnd in (1, 2, 3):
        shown = page.locator(f"#swiss-matches tr[data-round='{rnd}']")
        expect(shown).to_have_count(3)
        for k in range(3):
            row = shown.nth(k)
            a = int(row.get_attribute("data-pair") or 0)
            b = int(row.get_attribute("data-opponent") or 0)
            assert frozenset((a, b)) in met
            cells = row.locator("td")
            expect(cells.nth(1)).to_have_text(_fixed(imps[rnd, a]))
            expect(cells.nth(4)).to_have_text(_fixed(imps[rnd, b]))
    screenshot(page, "results-swiss-pairs.png")
    assert_clean_console(tab)


def _fixed(n: float) -> str:
    return f"−{abs(n):.2f}" if n < 0 else f"{n:.2f}"
