"""The seat and vugraph pages tell whom the table waits for with no open page
(docs/operations.md, "Substitutes"; docs/pages.md): North's page is open at a tournament's
table; at East's turn, with no page of East's, North's page and the table's vugraph (no
spectator delay in the tests' stack) say "The table is waiting for East, not connected";
once East's page opens, they say nothing more."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    Tab,
    assert_clean_console,
    open_tab,
    post,
    screenshot,
    seat_tab,
    vugraph_tab,
)
from tests.helpers import DEALS
from tests.stack import Stack

expect.set_options(timeout=15_000)
T = "subpage"
TABLE = "subpage-a"


def test_the_seat_page_says_whom_the_table_waits_for_until_his_page_opens(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": [TABLE], "deals": DEALS,
            "players": {TABLE: {"N": "Nia", "E": "Eli", "S": "Sam", "W": "Ann"}}})
        assert made.status_code == 201, made.text
        seats = made.json()["tables"][0]["seats"]
        spectator = made.json()["tables"][0]["spectator"]
        assert http.post(f"/api/tournaments/{T}/rounds",
                         json={"round": 1, "boards": [1]}).status_code == 202
    north = seat_tab(browser, stack, seats["N"])
    tabs.append(north)
    waiting = north.page.locator("#waiting")
    expect(waiting).to_be_hidden()  # North's own turn, his page open
    post(stack, TABLE, seats["N"], {"type": "call", "call": "1C"})
    expect(waiting).to_have_text("The table is waiting for East, not connected.")
    expect(waiting).to_be_visible()
    screenshot(north.page, "seat-waiting.png")
    public = vugraph_tab(browser, stack, spectator)
    tabs.append(public)
    told = public.page.locator("#waiting")
    expect(told).to_have_text("The table is waiting for East, not connected.")
    east = seat_tab(browser, stack, seats["E"])
    tabs.append(east)
    expect(waiting).to_be_hidden()
    expect(east.page.locator("#waiting")).to_be_hidden()
    expect(told).to_be_hidden()
    assert_clean_console(north)
    assert_clean_console(public)


def test_the_director_sets_substitutes_and_the_overview_shows_one_seated(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The console's Substitutes form sets the tournament's time; West never opens his page:
    once it is his turn for that time, the overview's robots cell says "W (substitute)" (the
    robot asked for; no robot pool runs here, so it is still waited for)."""
    tournament, table = "subcon", "subcon-a"
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": tournament, "tables": [table], "deals": DEALS,
            "players": {table: {"N": "Nia", "E": "Eli", "S": "Sam", "W": "Ann"}}})
        assert made.status_code == 201, made.text
        seats = made.json()["tables"][0]["seats"]
        assert http.post(f"/api/tournaments/{tournament}/rounds",
                         json={"round": 1, "boards": [1]}).status_code == 202
    director = open_tab(browser, f"{stack.url}/director#{stack.director}")
    tabs.append(director)
    page = director.page
    page.locator(".tab[data-tab='tournament']").click()
    page.select_option("#tournament-pick", tournament)
    page.locator("#substitutes-after").fill("5")
    page.locator("#substitutes-form button[type='submit']").click()
    expect(page.locator("#substitutes-result")).to_have_text(
        "A robot sits in for a player with no open page at his turn after 5 s.")
    for seat in "NES":
        tabs.append(seat_tab(browser, stack, seats[seat]))
    for seat, call in zip("NES", ("1C", "P", "1D"), strict=True):
        post(stack, table, seats[seat], {"type": "call", "call": call})
    robots = page.locator(f"#overview tr[data-table='{table}'] td.robots")
    expect(robots).to_have_text("W (waiting) (substitute)", timeout=30_000)
    screenshot(page, "director-substitute.png")
    page.locator("#substitutes-after").fill("")
    page.locator("#substitutes-form button[type='submit']").click()
    expect(page.locator("#substitutes-result")).to_have_text(
        "No substitutes: the tables wait for their players.")
    with stack.client(stack.director) as http:
        assert http.get(f"/api/tournaments/{tournament}/substitutes").json()["after_s"] is None
        ended = http.delete(f"/api/tournaments/{tournament}/tables/{table}/substitutes/W")
        assert ended.status_code == 200, ended.text
    expect(robots).to_have_text("—", timeout=30_000)
    assert_clean_console(director)
