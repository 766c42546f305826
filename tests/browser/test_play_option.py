"""Declarer's option on a premature play (Law 57A), from the seat pages, in a real browser.
The deal is tests/helpers.py's DEAL; N declares 4S, E leads, S is dummy:

    North 4.KJ32.842.AQ743   East JT987.Q876.AK5.2   South AK532.T.JT6.T985   West Q6.A954.Q973.KJ6

Trick 1: E ♣2, S ♣5, W ♣6, N ♣A; N leads ♥2 and W plays ♥4 before his partner E: a penalty
card, and declarer selects an option on E's play (Law 57A). The cards each page enables are
its view's `playable` (shared/table/playable.py)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
    table_with_players,
)
from tests.browser.test_capture import sent_events
from tests.browser.test_lead_option import enabled_cards
from tests.helpers import state, state_at, wait_for
from tests.stack import Stack

expect.set_options(timeout=10_000)

EVENTS = [("NESW"[i % 4], {"type": "call", "call": c})
          for i, c in enumerate(["1S", "P", "2S", "P", "4S", "P", "P", "P"])] + [
    ("E", {"type": "card_played", "card": "C2"}),
    ("N", {"type": "card_played", "seat": "S", "card": "C5"}),  # dummy's: declarer's (Law 45)
    ("W", {"type": "card_played", "card": "C6"}),
    ("N", {"type": "card_played", "card": "CA"}),
    ("N", {"type": "card_played", "card": "H2"}),
    ("W", {"type": "card_played", "card": "H4"}),  # before E: premature (Law 57A)
]


def to_the_premature_play(stack: Stack, tokens: dict[str, Any], table: str) -> None:
    """Each event posted once the state shows the one before (a card is judged against it)."""
    for seat, event in EVENTS:
        with stack.client(tokens["seats"][seat]) as http:
            response = http.post(f"/api/tables/{table}/events", json=event)
            assert response.status_code == 202, response.text
            offset = response.json()["offset"]
        wait_for(lambda o=offset: state_at(stack, table, o), 30, f"event {offset} folded")


def seat_page(browser: Browser, stack: Stack, token: str) -> Tab:
    tab = open_tab(browser, f"{stack.url}/seat#{token}")
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    expect(tab.page.locator("#play-option")).to_be_visible()
    return tab


def test_declarer_selects_the_highest_and_the_bound_defender_may_play_only_that_card(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 57A: while declarer's option is awaited East's page enables no card and says why;
    North's page offers the options with their Laws (57A1–4, a suit other than the suit
    led). North selects the highest (57A1): East's page enables ♥Q alone (he holds
    ♥Q876); West's page enables nothing. East plays it: no alert beyond the premature play."""
    table, tokens = table_with_players(stack, "premature")
    to_the_premature_play(stack, tokens, table)
    north = seat_page(browser, stack, tokens["seats"]["N"])
    east = seat_page(browser, stack, tokens["seats"]["E"])
    west = seat_page(browser, stack, tokens["seats"]["W"])
    tabs.extend([north, east, west])

    expect(east.page.locator("#play-turn")).to_have_text(
        "Waiting for declarer North (Ann)'s option (Law 57A).")
    assert enabled_cards(east.page) == set()
    expect(north.page.locator("#play-option button")).to_have_text([
        "The highest of the suit led (Law 57A1)", "The lowest of the suit led (Law 57A2)",
        "Require a spade (Law 57A3)", "Prohibit spades (Law 57A4)",
        "Require a diamond (Law 57A3)", "Prohibit diamonds (Law 57A4)",
        "Require a club (Law 57A3)", "Prohibit clubs (Law 57A4)"])
    expect(east.page.locator("#play-option button")).to_have_count(0)
    assert serious_violations(north.page) == []

    north.page.locator("#play-option button[data-choice='highest']").click()
    expect(east.page.locator("#play-option-words")).to_have_text(
        "Declarer's option: East plays the highest heart he holds to this trick (Law 57A1; "
        "unable to comply, any card: Laws 57B, 59).")
    expect(east.page.locator("#play-table button[data-card]:not(:disabled)")).to_have_count(1)
    assert enabled_cards(east.page) == {"HQ"}
    assert enabled_cards(west.page) == set()
    screenshot(east.page, "seat-play-option.png")
    assert serious_violations(east.page) == []
    chosen = [{k: v for k, v in e.items() if k != "client_seq"} for e in sent_events(north)
              if e["type"] == "play_option"]
    assert chosen == [{"type": "play_option", "choice": "highest"}]

    east.page.locator("#play-table button[data-card='HQ']").click()
    expect(north.page.locator("#play-option")).to_have_count(0)
    board = state(stack, table, stack.director)["board"]
    assert board["play"]["tricks"][-1]["cards"][-1] == {"seat": "E", "card": "HQ"}
    assert [a["kind"] for a in board["alerts"]] == ["play_out_of_turn"]
    for tab in (north, east, west):
        assert_clean_console(tab)
