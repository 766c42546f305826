"""The public results page of a Howell (docs/scoring.md) in a real browser: four pairs, three rounds
played on the real stack (tests/integration/test_howell_results.py plays the same), a
Director's score of each kind (Laws 12C1(b), 12C1(c), 12C2(a), 79C, 90) posted; the page shows
one field ranked as the independent computation (Law 78A, Neuberg, 12C2(c):
tests/integration/pairs_by_hand.py) ranks it, each Director's score with its reason, and each
adjusted line marked in its traveller."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, serious_violations
from tests.helpers import wait_for
from tests.integration.pairs_by_hand import by_hand, ranks
from tests.integration.test_howell_results import (
    DIRECTOR,
    PENALTY,
    give_director_scores,
    play_howell,
)
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_the_results_page_shows_a_howell_adjusted_and_ranked_as_computed_by_hand(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "hpage"
    with stack.client(stack.director) as http:
        played, _ = play_howell(http, t)

        def complete() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
            return doc if doc["complete"] == [1, 2, 3, 4, 5, 6] else None
        wait_for(complete, 30, "every board's results")
        give_director_scores(http, t)
    expected = by_hand(played, DIRECTOR, [PENALTY])
    places = ranks(expected)
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#rankings tr[data-entrant]")).to_have_count(4)
    expect(page.locator("#travellers .traveller")).to_have_count(6)
    for pair, percent in expected.items():
        row = page.locator(f"#rankings tr[data-entrant='{pair}']")
        expect(row.locator("td[data-percent]")).to_have_text(f"{percent:.2f}")
        expect(row).to_contain_text(str(places[pair]))
    for (board, ns, _), body in DIRECTOR.items():
        expect(page.locator(f"#director li[data-board='{board}'][data-kind='{body['kind']}']")
               ).to_contain_text(body["reason"])
        line = page.locator(f"#travellers .traveller[data-board='{board}'] tr[data-ns='{ns}']")
        expect(line).to_have_attribute("data-kind", body["kind"])
    expect(page.locator("#director li[data-kind='penalty']")).to_contain_text(PENALTY["reason"])
    assert serious_violations(page) == []
    assert_clean_console(tab)
