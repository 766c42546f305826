"""The round's clock on the seat page (docs/scoring.md, "The clock"; docs/pages.md): a timed
Howell's round shows its time left in the board's box, ticking; ended by the Director, the
next round's board comes with its own clock; the Director's console shows the time left and
gives more time or ends the round; the last round's end shows "time is up", and
the page then sends nothing (the board stays as its round left it, Law 12C2)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, click_call, open_tab, screenshot
from tests.helpers import DEALS
from tests.stack import Stack

T = "clockpage"
PAIRS = [{"name": f"pair {n}", "players": [f"K{n}a", f"K{n}b"]} for n in range(1, 5)]


def test_the_seat_page_shows_the_rounds_time_left_and_its_end(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": [f"{T}-a", f"{T}-b"], "deals": DEALS,
            "entrants": PAIRS, "movement": {"kind": "howell", "boards_per_round": 2,
                                            "minutes_per_board": 5}})
        assert made.status_code == 201, made.text
        north = {line["table"]: line["seats"] for line in made.json()["tables"]}[f"{T}-a"]["N"]
        assert http.post(f"/api/tournaments/{T}/rounds", json={"round": 1}).status_code == 202
    seat = open_tab(browser, f"{stack.url}/seat#{north}")
    tabs.append(seat)
    clock = seat.page.locator("#board-box .round-clock")
    expect(clock).to_have_text(re.compile(r"^Round 1: (9|10):\d\d left$"))
    first = clock.inner_text()
    expect(clock).not_to_have_text(first)  # it ticks
    screenshot(seat.page, "table-clock.png")
    director = open_tab(browser, f"{stack.url}/director#{stack.director}")
    tabs.append(director)
    console = director.page
    console.locator(".tab[data-tab='tournament']").click()
    console.select_option("#tournament-pick", T)
    expect(console.locator("#clock-left")).to_have_text(re.compile(r"left in the round$"))
    console.locator("#clock-more").click()
    expect(console.locator("#clock-result")).to_have_text("Round 1: two more minutes.")
    expect(clock).to_have_text(re.compile(r"^Round 1: 1[12]:\d\d left$"))  # at the table too
    console.locator("#clock-end").click()
    # the end tells both tables, scores the boards left unfinished and starts round 2, each
    # appended in turn: longer than a click's usual answer on a loaded machine
    expect(console.locator("#clock-result")).to_have_text("Round 1 ended; round 2 started.",
                                                          timeout=30_000)
    expect(clock).to_have_text(re.compile(r"^Round 2: (9|10):\d\d left$"))
    screenshot(console, "director-clock.png")
    console.locator("#clock-end").click()
    expect(console.locator("#clock-result")).to_have_text("Round 2 ended; round 3 started.")
    expect(clock).to_have_text(re.compile(r"^Round 3: \d+:\d\d left$"))
    assert_clean_console(director)
    with stack.client(stack.director) as http:
        last = http.post(f"/api/tournaments/{T}/clock", json={"action": "end"})
        assert last.status_code == 200 and last.json()["next"] is None
    expect(clock).to_have_text("Round 3: time is up")
    click_call(seat, "P")  # North deals board 5: his turn, but the round is over
    expect(seat.page.locator("#send-error")).to_contain_text("time is up")
    with stack.client(stack.director) as http:
        history = http.get(f"/api/tables/{T}-a/history").json()
    assert all((e.get("event") or {}).get("type") != "call" for e in history["history"]
               if e.get("board") == 5)  # nothing sent
    assert_clean_console(seat)
