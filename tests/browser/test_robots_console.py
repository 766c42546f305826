"""The robots on the director's console, in a real browser: the director ticks seats and
seats our robots (the robot pool sits them through the Table Manager host), sees each seat
connected, sees the seats waiting when the pool is killed and connected again when it comes
back, and takes the robots away; the tournament's overview shows its tables' robots; a robot
the table has waited for long is shown stalled, on the table's tab and the overview."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, screenshot
from tests.browser.test_director import console_tab
from tests.helpers import DEALS, TM_PORT, new_table, wait_for_auction
from tests.robot_services import Robots
from tests.stack import Stack


@pytest.fixture(scope="module")
def robots(stack: Stack) -> Iterator[Robots]:
    started = Robots(stack, TM_PORT + 2)  # test_robots.py's host is on TM_PORT, +1 another's
    try:
        yield started
    finally:
        started.stop()


def test_the_director_seats_robots_sees_them_drop_and_return_and_takes_them_away(
        stack: Stack, browser: Browser, robots: Robots, tabs: list[Tab]) -> None:
    new_table(stack, "console-robots")
    director = console_tab(browser, stack)
    tabs.append(director)
    page = director.page
    page.locator(".tab[data-tab='tables']").click()
    page.locator("#table-list button[data-table='console-robots']").click()
    expect(page.locator("#robot-status")).to_have_text("No robot at this table.")
    page.locator("#robot-E").check()
    page.locator("#robot-W").check()
    page.locator("#robots-form button[type='submit']").click()
    expect(page.locator("#robots-result")).to_have_text("Robots asked for at East, West")
    seats = page.locator("#robot-status li")
    expect(seats).to_have_count(2)
    for seat in ("E", "W"):
        expect(page.locator(f"#robot-status li[data-seat='{seat}']")).to_have_attribute(
            "data-status", "connected", timeout=30_000)
    expect(page.locator("#robot-status li[data-seat='E']")).to_have_text(
        "East — connected (robot-pool)")
    screenshot(page, "director-robots.png")

    robots.kill_pool()  # the robots' connections drop: their seats wait for them
    for seat in ("E", "W"):
        expect(page.locator(f"#robot-status li[data-seat='{seat}']")).to_have_attribute(
            "data-status", "waiting", timeout=10_000)
    expect(page.locator("#robot-status li[data-seat='W']")).to_have_text(
        "West — waiting for its robot (robot-pool)")
    screenshot(page, "director-robots-waiting.png")
    robots.start_pool()
    for seat in ("E", "W"):
        expect(page.locator(f"#robot-status li[data-seat='{seat}']")).to_have_attribute(
            "data-status", "connected", timeout=30_000)

    page.locator("#robots-remove").click()
    expect(page.locator("#robots-result")).to_have_text("Every robot taken away")
    expect(page.locator("#robot-status")).to_have_text("No robot at this table.",
                                                       timeout=15_000)
    expect(page.locator("#robot-E")).not_to_be_checked()
    assert_clean_console(director)


def test_the_overview_shows_each_tables_robots(stack: Stack, browser: Browser,
                                               robots: Robots, tabs: list[Tab]) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": "robot-cup", "tables": 2, "deals": DEALS,
            "players": {"robot-cup-1": {"N": "Ann", "S": "Bob"}}})
        assert made.status_code == 201, made.text
        filled = http.post("/api/tournaments/robot-cup/robots")
        assert filled.status_code == 200, filled.text
        # the seats with no person's name: East and West at the first table, all at the other
        assert filled.json()["tables"] == {"robot-cup-1": ["E", "W"],
                                           "robot-cup-2": ["N", "E", "S", "W"]}
    director = console_tab(browser, stack)
    tabs.append(director)
    page = director.page
    page.locator(".tab[data-tab='tournament']").click()
    page.select_option("#tournament-pick", "robot-cup")
    rows = page.locator("#overview tbody tr")
    expect(rows.nth(0).locator("td.robots")).to_have_text("E, W", timeout=30_000)
    expect(rows.nth(1).locator("td.robots")).to_have_text("N, E, S, W", timeout=30_000)
    screenshot(page, "director-robots-overview.png")
    with stack.client(stack.director) as http:
        for table in ("robot-cup-1", "robot-cup-2"):
            assert http.delete(f"/api/tables/{table}/robots").status_code == 200
    assert_clean_console(director)


@pytest.fixture(scope="module")
def stalling(stack: Stack) -> Iterator[Robots]:
    """A host alone that calls a robot stalled after 1 s of the table's wait."""
    started = Robots(stack, TM_PORT + 3, env={"TABLESERVER_TM_STALL": "1"}, pool=False)
    try:
        yield started
    finally:
        started.stop()


def test_a_robot_the_table_waits_for_is_shown_stalled(stack: Stack, browser: Browser,
                                                      stalling: Robots, tabs: list[Tab]
                                                      ) -> None:
    """Robots' presence: every robot was shown `connected` while its table had stopped. A robot
    sits at the seat whose call is due (Law 17C) and never calls: the console shows it
    stalled, with how long its call has been awaited, on the table's tab and the overview."""
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={"tournament": "stall-cup", "tables": 2,
                                                   "deals": DEALS})
        assert made.status_code == 201, made.text
        assert http.post("/api/tournaments/stall-cup/rounds",
                         json={"round": 1, "boards": [1]}).status_code == 202
        wait_for_auction(http, "stall-cup-1", 1)
        turn = http.get("/api/tables/stall-cup-1/state").json()["board"]["turn"]
        token = http.get("/api/tables/stall-cup-1/links").json()["seats"][turn]
    word = {"N": "North", "E": "East", "S": "South", "W": "West"}[turn]
    robot = socket.create_connection(("127.0.0.1", stalling.port), timeout=20)
    try:
        robot.sendall(f'Connecting "mute {token}" as {word} using protocol version 18\r\n'
                      .encode())
        assert robot.makefile().readline().strip() == f'{word} ("mute") seated'
        director = console_tab(browser, stack)
        tabs.append(director)
        page = director.page
        page.locator(".tab[data-tab='tournament']").click()
        page.select_option("#tournament-pick", "stall-cup")
        cell = page.locator("#overview tbody tr[data-table='stall-cup-1'] td.robots")
        expect(cell).to_have_text(f"{turn} (stalled)", timeout=30_000)
        expect(cell).to_have_class(re.compile(r"\bstalled\b"))
        page.locator("#overview tbody tr[data-table='stall-cup-1'] button").click()
        seat = page.locator(f"#robot-status li[data-seat='{turn}']")
        expect(seat).to_have_attribute("data-status", "stalled", timeout=15_000)
        expect(seat).to_have_text(re.compile(
            rf"^{word} — stalled: its call or card awaited for \d+ s \(mute\) · not ours$"))
        screenshot(page, "director-robot-stalled.png")
        assert_clean_console(director)
    finally:
        robot.close()
