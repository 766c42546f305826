"""A substitute sits in and stands up, as people live it, in Chromium (docs/operations.md,
"Substitutes"; docs/pages.md): four players' seat pages, a spectator's vugraph and the
Director's console; the robot pool and the Table Manager host run (tests/robot_services.py),
which the other substitutes' pages test (test_substitutes_page.py) has not."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    Tab,
    assert_clean_console,
    auction,
    click_call,
    open_tab,
    screenshot,
    seat_tab,
    vugraph_tab,
)
from tests.helpers import DEALS, TM_PORT
from tests.robot_services import Robots
from tests.stack import Stack

expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def robots(stack: Stack) -> Iterator[Robots]:
    """The robot pool and the Table Manager host, as supervisord runs them."""
    started = Robots(stack, TM_PORT + 7)  # +0 … +6: the other robots tests' hosts
    try:
        yield started
    finally:
        started.stop()


TOURNAMENT, TABLE = "subsit", "subsit-a"


@pytest.fixture
def substitutes_off(stack: Stack) -> Iterator[None]:
    """After the test, the Director turns the substitutes off and stands up any still seated,
    so that the gateway asks the pool for no robot at this table in the tests after it."""
    yield
    with stack.client(stack.director) as http:
        http.put(f"/api/tournaments/{TOURNAMENT}/substitutes", json={"after_s": None})
        for seat in "NESW":  # 409 where none sits: nothing to do
            http.delete(f"/api/tournaments/{TOURNAMENT}/tables/{TABLE}/substitutes/{seat}")
        told = http.get(f"/api/tournaments/{TOURNAMENT}/substitutes").json()
    assert told["after_s"] is None and told["tables"][TABLE]["substitutes"] == [], told


def _state(stack: Stack, table: str) -> dict[str, Any]:
    with stack.client(stack.director) as http:
        board: dict[str, Any] = http.get(f"/api/tables/{table}/state").json()["board"]
    return board


def _call_when_seen(tab: Tab, made: int, call: str) -> None:
    """The seat's call, clicked once its page shows the `made` calls before it (the table's
    state reaches each page over its socket: slow on a loaded machine)."""
    shown = tab.page.locator(".auction tbody td:not(.next) > [aria-label]")
    expect(shown).to_have_count(made, timeout=30_000)
    click_call(tab, call)


def test_a_substitute_sits_in_when_a_player_closes_his_page_and_stands_up_when_he_is_back(
        stack: Stack, browser: Browser, robots: Robots, tabs: list[Tab],
        substitutes_off: None) -> None:
    """As people live it: the four players' seat pages, a spectator's vugraph and the
    Director's console, who sets a substitute after 5 s and shows the table live to the
    public (the tests' stack has no spectator delay). West closes his page at his turn;
    every other page says the table waits for him, not connected; after the time a robot of
    our pool sits in ("Robot (for Ann)" on every page, "W (substitute)" on the console) and
    makes his call. West opens his page again: the robot stands up (the console's robots
    "—", `substitute_left` in the record) and at his next turn West calls himself, by
    clicking his bidding box."""
    tournament, table = TOURNAMENT, TABLE
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": tournament, "tables": [table], "deals": DEALS,
            "players": {table: {"N": "Nia", "E": "Eli", "S": "Sam", "W": "Ann"}}})
        assert made.status_code == 201, made.text
        seats = made.json()["tables"][0]["seats"]
        spectator = made.json()["tables"][0]["spectator"]
        assert http.post(f"/api/tournaments/{tournament}/rounds",
                         json={"round": 1, "boards": [1]}).status_code == 202
    director = open_tab(browser, f"{stack.url}/director#{stack.director}")
    tabs.append(director)
    console = director.page
    console.locator(".tab[data-tab='tournament']").click()
    console.select_option("#tournament-pick", tournament)
    robots_cell = console.locator(f"#overview tr[data-table='{table}'] td.robots")
    expect(robots_cell).to_have_text("—")
    console.locator(f"#overview tr[data-table='{table}'] input.vugraph-match").check()
    expect(console.locator("#tournament-result")).to_have_text(
        f"Table {table} is shown live to the public, after the delay.")  # the spectator's
    players = {seat: seat_tab(browser, stack, seats[seat]) for seat in "NESW"}
    tabs.extend(players.values())
    public = vugraph_tab(browser, stack, spectator)
    tabs.append(public)
    # the players at their pages first: on a loaded machine opening them takes longer than
    # the Director's 5 s, and North, still without a page at his turn, got a robot
    for seat in "NESW":
        expect(players[seat].page.locator("#connection")).to_have_text("Connected")
    console.locator("#substitutes-after").fill("5")
    console.locator("#substitutes-form button[type='submit']").click()
    expect(console.locator("#substitutes-result")).to_have_text(
        "A robot sits in for a player with no open page at his turn after 5 s.")
    for made_calls, (seat, call) in enumerate(zip("NES", ("1C", "P", "1D"), strict=True)):
        _call_when_seen(players[seat], made_calls, call)
    west = players.pop("W")
    named = [players[seat].page.locator("#seat-W .player") for seat in "NES"]
    named.append(public.page.locator("#hand-W .player"))
    for name in named:
        expect(name).to_have_text("Ann")
    expect(west.page.locator("#bidding-box button[data-call='P']")).to_be_enabled()
    tabs.remove(west)
    west.page.context.close()  # West closes his page at his turn

    notices = [tab.page.locator("#waiting") for tab in (*players.values(), public)]
    for notice in notices:
        expect(notice).to_have_text("The table is waiting for West, not connected.")
    screenshot(public.page, "vugraph-waiting.png")
    for name in named:  # the Director's 5 s, then the robot seated through the host
        expect(name).to_have_text("Robot (for Ann)", timeout=30_000)
    expect(robots_cell).to_have_text("W (substitute)", timeout=15_000)
    for notice in notices:
        expect(notice).to_be_hidden()  # a robot plays for him: nobody is waited for
    calls = players["N"].page.locator(".auction tbody td:not(.next) > [aria-label]")
    expect(calls).to_have_count(4, timeout=120_000)  # the robot's call for West
    robot = _state(stack, table)["calls"][3]
    assert robot["seat"] == "W"
    screenshot(players["N"].page, "seat-substitute.png")
    screenshot(console, "director-substitute-seated.png")

    west = seat_tab(browser, stack, seats["W"])  # West is back, at North's turn
    tabs.append(west)
    expect(robots_cell).to_have_text("—", timeout=30_000)  # the robot has stood up
    again = {"P": "1H", "X": "XX"}.get(robot["call"], "X")  # the auction goes on
    for made_calls, (seat, call) in enumerate(zip("NES", (again, "P", "P"), strict=True), 4):
        _call_when_seen(players[seat], made_calls, call)
    _call_when_seen(west, 7, "P")  # his own call, at his next turn
    expect(calls).to_have_count(8)
    assert auction(west)[-1] == "West: pass"
    board = _state(stack, table)
    assert board["calls"][7] == {"seat": "W", "call": "P"}
    with stack.client(stack.director) as http:
        told = http.get(f"/api/tournaments/{tournament}/substitutes").json()["tables"][table]
        assert told["substitutes"] == [] and told["waiting"] is None
        record = http.get(f"/api/tables/{table}/history", params={"board": 1}).json()
    kinds = [e["event"]["type"] for e in record["history"] if e["event"]]
    assert kinds.count("substitute_seated") == kinds.count("substitute_left") == 1
    assert kinds.index("substitute_seated") < kinds.index("substitute_left")
    thinks = [(t["player"], t["robot"]) for t in record["think_times"]["thinks"]
              if t["seat"] == "W"]
    assert thinks == [("Robot (for Ann)", True), ("Ann", False)]
    for tab in (*players.values(), public, west, director):
        assert_clean_console(tab)
