"""The round's time left on every page (docs/scoring.md, "The clock"; docs/pages.md): a timed
Howell of four pairs at two tables. The player's page shows no clock in the lobby, the round's
time left once seated (the seat page's box, once), and between rounds when the next round
starts ("Round 2 starts in 9:31", the clock's end); the tournament's vugraph list and a
table's vugraph (its board withheld, Law 16C1, but not the time) show the round's time left.
Screenshots: docs/pages.md."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, open_tab, screenshot, vugraph_tab
from tests.helpers import DEALS
from tests.integration.test_player_links import PAIRS, round_played
from tests.stack import Stack

expect.set_options(timeout=15_000)
T = "clockall"
LEFT_1 = re.compile(r"^Round 1: (9|10):\d\d left$")  # two boards × 5 minutes


def test_the_players_page_and_the_vugraph_show_the_rounds_time_left(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": [f"{T}-1", f"{T}-2"], "deals": DEALS,
            "entrants": PAIRS, "movement": {"kind": "howell", "boards_per_round": 2,
                                            "rounds": 2, "minutes_per_board": 5}})
        assert made.status_code == 201, made.text
        listed = http.get(f"/api/tournaments/{T}/players")
        assert listed.status_code == 200, listed.text
        links = {(p["entrant"], p["place"]): p["token"] for p in listed.json()["players"]}
    vugraph = made.json()["vugraph"].split("#", 1)[1]
    player = open_tab(browser, f"{stack.url}/play#{links[2, 1]}")
    tabs.append(player)
    play = player.page
    expect(play.locator("body")).to_have_attribute("data-phase", "lobby")
    expect(play.locator(".round-clock")).to_have_count(0)  # no round, no clock

    with stack.client(stack.director) as http:
        assert http.post(f"/api/tournaments/{T}/rounds", json={"round": 1}).status_code == 202
    expect(play.locator("body")).to_have_attribute("data-phase", "seated")
    expect(play.locator("#board-box .round-clock")).to_have_text(LEFT_1)
    expect(play.locator(".round-clock")).to_have_count(1)  # once on the page

    lister = vugraph_tab(browser, stack, vugraph)
    tabs.append(lister)
    expect(lister.page.locator("#board-info .round-clock")).to_have_text(LEFT_1)
    screenshot(lister.page, "vugraph-tables-clock.png")
    lister.page.locator(f"a[aria-label='Watch table {T}-2']").click()
    expect(lister.page.locator("#title")).to_have_text(f"Vugraph · Table {T}-2")
    expect(lister.page.locator(".withheld")).to_be_visible()  # board 1: Law 16C1
    expect(lister.page.locator("#board-info .round-clock")).to_have_text(LEFT_1)
    screenshot(lister.page, "vugraph-clock.png")

    round_played(stack, links, [1, 2])  # both tables done: round 2 waits for the clock
    expect(play.locator("body")).to_have_attribute("data-phase", "between")
    starts = play.locator("#play-next-start .round-clock")
    expect(starts).to_have_text(re.compile(r"^Round 2 starts in (9|10|[0-9]):\d\d$"))
    first = starts.inner_text()
    expect(starts).not_to_have_text(first)  # it ticks
    screenshot(play, "play-between-clock.png")

    with stack.client(stack.director) as http:
        assert http.post(f"/api/tournaments/{T}/clock", json={"action": "hold"}
                         ).status_code == 200
    expect(starts).to_have_text(re.compile(r"^Round 2 starts in \d+:\d\d, clock held$"))
    with stack.client(stack.director) as http:
        ended = http.post(f"/api/tournaments/{T}/clock", json={"action": "end"})
        assert ended.status_code == 200 and ended.json()["next"] == 2, ended.text
    expect(play.locator("body")).to_have_attribute("data-round", "2")
    expect(play.locator("#board-box .round-clock")).to_have_text(
        re.compile(r"^Round 2: (9|10):\d\d left$"))
    assert_clean_console(player)
    assert_clean_console(lister)
