"""The public results page of a cross-IMP Howell ranked by VPs (docs/scoring.md, docs/pages.md)
in a real browser: four pairs, three rounds played on the real stack
(tests/integration/test_pair_vps.py plays and checks the same); the page names the form and
shows each pair's VPs in its ranking row, in the order of the document's ranking."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab
from tests.helpers import wait_for
from tests.integration.test_howell_results import play_howell
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_shows_a_pairs_event_ranked_by_vps(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "vpage"
    with stack.client(stack.director) as http:
        play_howell(http, t, {"scoring": "cross_imps", "imps_to_vp": True})

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
            return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
        doc = wait_for(complete, 30, "every board's results")
    assert abs(sum(r["vp"] for r in doc["rankings"]) - 120) < 1e-6  # six matches of 20
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#summary")).to_contain_text("howell, cross_imps to VPs a round")
    rows = page.locator("#rankings tr[data-entrant]")
    expect(rows).to_have_count(4)
    for k, r in enumerate(doc["rankings"]):
        expect(rows.nth(k)).to_have_attribute("data-entrant", str(r["entrant"]))
        expect(rows.nth(k).locator("td[data-vp]")).to_have_text(f"{r['vp']:.2f}")
    assert_clean_console(tab)
