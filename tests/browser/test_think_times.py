"""The think times in the Director's record of a board, in a real browser (tests/browser/
browser.py): each call's think after its step, a call after a break in tempo marked (Law 16B1:
the Director decides), each side's sums; the history a seat reads carries none of it."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    assert_clean_console,
    history,
    open_tab,
    post,
    table_with_players,
)
from tests.stack import Stack

# N deals; E passes three times, the second after a long think
AUCTION = [("N", "1C"), ("E", "P"), ("S", "1D"), ("W", "P"), ("N", "1H"), ("E", "P"),
           ("S", "1S"), ("W", "P"), ("N", "1N"), ("E", "P")]
SLOW = 5  # the call after E's long think (his sixth call of the auction's ten)
THINK_S = 21  # E's think itself: past the 20 s a mark needs, far over his usual


def test_the_directors_record_shows_each_think_and_marks_a_break_in_tempo(
        stack: Stack, browser: Browser, tabs: list) -> None:
    table, tokens = table_with_players(stack, "think-record")
    seats = tokens["seats"]
    for n, (seat, call) in enumerate(AUCTION):
        if n == SLOW:
            time.sleep(THINK_S)  # the think the log then shows, not a wait for a condition
        post(stack, table, seats[seat], {"type": "call", "call": call})
    director = open_tab(browser, f"{stack.url}/director#{stack.director}")
    tabs.append(director)
    page = director.page
    expect(page.locator("#connection")).to_have_text("Connected")
    page.locator(".tab[data-tab='tables']").click()
    page.locator(f"#table-list button[data-table='{table}']").click()
    page.locator("#record-fold summary").click()  # the record, folded by default: opened
    expect(page.locator("#record .think")).to_have_count(len(AUCTION))
    marked = page.locator("#record .tempo")
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text("a break in tempo, Law 16B1")
    assert 21 <= int(marked.inner_text().split("thought ")[1].split(" s")[0]) < 60
    expect(page.locator("#record-times")).to_contain_text("Think times: NS ")
    assert_clean_console(director)
    for seat in "NE":  # the players' history: no think time, no mark
        assert "think_times" not in history(stack, table, seats[seat])
