"""The public results page of an individual (docs/scoring.md "Individuals", docs/pages.md) in
a real browser: eight players played on the real stack with the Director's scores, worked by
hand (tests/integration/test_individuals.py); the page names the form, ranks the players
(Law 78A: each his own side's matchpoints) and lists the partnerships the travellers name,
each as its two players' numbers ("1–3")."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot
from tests.helpers import DEALS
from tests.integration.test_individuals import BY_HAND, PLAYERS, play_individual
from tests.integration.test_player_links import round_played
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
    partnership = page.locator("#individuals tr[data-partnership='10003'] td")
    expect(partnership.nth(0)).to_have_text("1–3")  # the two players' numbers, not 10003
    expect(partnership.nth(1)).to_have_text("P1 & P3")
    line = page.locator("#travellers tr[data-ns='10003'][data-ew='20004'] td")
    expect(line.nth(0)).to_have_text("1–3")
    expect(line.nth(1)).to_have_text("2–4")
    screenshot(page, "results-individual.png")
    assert_clean_console(tab)


def test_a_players_page_names_his_partner_of_the_round(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Player 3 (1S in round 1, partnering P1), round 1 over: his page says where he goes
    next (table 1, West) and his partner there, P5 (Sicherman's rotation: 1S → 1W, 1E's
    partner)."""
    t = "indivplay"
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": t, "tables": [f"{t}-1", f"{t}-2"], "deals": DEALS,
            "entrants": PLAYERS,
            "movement": {"kind": "individual", "boards_per_round": 1, "rounds": 2}})
        assert made.status_code == 201, made.text
        listed = http.get(f"/api/tournaments/{t}/players").json()["players"]
        links = {p["entrant"]: p["token"] for p in listed}
        tab = open_tab(browser, f"{stack.url}/play#{links[3]}")
        tabs.append(tab)
        page = tab.page
        expect(page.locator("body")).to_have_attribute("data-phase", "lobby")
        assert http.post(f"/api/tournaments/{t}/rounds", json={"round": 1}).status_code == 202
    expect(page.locator("body")).to_have_attribute("data-phase", "seated")
    round_played(stack, {(p, 1): token for p, token in links.items()}, [1])
    expect(page.locator("body")).to_have_attribute("data-phase", "between")
    expect(page.locator("#play-next")).to_contain_text("table 1")
    expect(page.locator("#play-next")).to_contain_text("West")
    expect(page.locator("#play-partner")).to_have_text("Your partner this round: P5.")
    screenshot(page, "play-individual.png")
    assert_clean_console(tab)
