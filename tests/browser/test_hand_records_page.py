"""The hand records in a real browser (pages.md, scoring.md): the printable hand-records page
(`/hand-records#<t>`, no token) and the results page's traveller of each board with its deal,
double-dummy table and par, as the API gives them; on a phone, printed, with no serious
axe-core finding.

Fair play (Law 16C1, the tournament's regulation under Law 80B): a Mitchell's boards move on
to another table after round 1, so no deal is on either page until round 2 has been played."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.browser.results_play import play_round
from tests.helpers import DEALS, wait_for
from tests.integration.test_tournament_results import PAIRS
from tests.stack import Stack

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
STRAINS = ("NT", "S", "H", "D", "C")


def _six_boards(http: Any, t: str) -> dict[str, dict[str, str]]:
    """results_play's Mitchell (3 tables, 2 rounds of 2 boards) on the six boards it plays."""
    deals = "\n\n".join(DEALS.split("\n\n")[:7])
    made = http.post("/api/tournaments", json={
        "tournament": t, "name": "Club Pairs", "tables": [f"{t}-{x}" for x in "tuv"],
        "deals": deals, "entrants": PAIRS,
        "movement": {"kind": "mitchell", "boards_per_round": 2, "rounds": 2}})
    assert made.status_code == 201, made.text
    return {line["table"]: line["seats"] for line in made.json()["tables"]}


def _hand(record: dict[str, Any], seat: str) -> list[str]:
    first, hands = record["deal"].split(":")
    order = "NESW"
    hand = hands.split()[(order.index(seat) - order.index(first)) % 4]
    return [SUITS[s] + " " + (cards.replace("T", "10") or "—")
            for s, cards in zip("SHDC", hand.split("."), strict=True)]


def test_the_hand_records_page_and_the_travellers_show_each_board_once_played_everywhere(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "hrecs"
    with stack.client(stack.director) as http:
        seats = _six_boards(http, t)
        tab = open_tab(browser, f"{stack.url}/hand-records#{t}")
        tabs.append(tab)
        page = tab.page
        expect(page.locator("#summary")).to_have_text("0 boards shown · 6 still to be played")
        play_round(http, t, seats, 1)
        wait_for(lambda: http.get(f"/api/tournaments/{t}/results").json()["rounds"] == 1, 10,
                 "round 1 recorded")
        expect(page.locator("#summary")).to_have_text("0 boards shown · 6 still to be played")
        assert page.locator(".hand-record").count() == 0

        def solved() -> dict[str, Any] | None:
            doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/hand-records").json()
            return doc if doc["ready"] == 6 else None
        doc = wait_for(solved, 120, "the six boards solved")
        play_round(http, t, seats, 2)
        expect(page.locator(".hand-record[data-status='ready']")).to_have_count(
            6, timeout=30_000)
        expect(page.locator("#connection")).to_have_text("Complete")
        expect(page.locator("#title")).to_have_text("Hand records — Club Pairs")
        for record in doc["boards"]:
            shown = page.locator(f".hand-record[data-board='{record['board']}']")
            for declarer, row in record["double_dummy"].items():
                for strain in STRAINS:
                    expect(shown.locator(f"td[data-declarer='{declarer}']"
                                         f"[data-strain='{strain}']")).to_have_text(
                        str(row[strain]))
            expect(shown.locator("[data-par]")).to_have_text(f"Par: {record['par']['text']}")
            north = shown.locator(".hr-N .hr-suit")
            expect(north).to_have_text(_hand(record, "N"))
        assert page.locator("#pbn").get_attribute("href") == \
            f"/api/tournaments/{t}/hand-records?format=pbn"
        assert serious_violations(page) == []
        assert_clean_console(tab)
        screenshot(page, "hand-records-desktop.png")
        page.emulate_media(media="print")
        expect(page.locator("#print")).to_be_hidden()
        screenshot(page, "hand-records-print.png")

        phone = open_tab(browser, f"{stack.url}/hand-records#{t}", PHONE)
        tabs.append(phone)
        expect(phone.page.locator(".hand-record[data-status='ready']")).to_have_count(6)
        width = phone.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        assert_clean_console(phone)

        results = open_tab(browser, f"{stack.url}/results#{t}")
        tabs.append(results)
        record = results.page.locator("#travellers .board-record").filter(
            has=results.page.locator(".traveller[data-board='1']"))
        expect(record.locator(".hand-record[data-status='ready'] [data-par]")).to_have_text(
            f"Par: {doc['boards'][0]['par']['text']}")
        expect(results.page.locator("#travellers .hand-record")).to_have_count(6)
        assert results.page.locator("#hand-records").get_attribute("href") == \
            f"/hand-records#{t}"
        assert serious_violations(results.page) == []
        assert_clean_console(results)
        screenshot(results.page, "results-hand-record.png")
