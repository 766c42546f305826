"""The table drawn as a table (pages.md, "The table"): four seat pages, three at 1280 px and
West's at 375 px, play board 2 (dealer East, North–South vulnerable): each page draws the
four seats around the table, its own hand and dummy's as card faces, the others as backs with
their count, the seat to act lit, the vulnerability on the seats, the board's box in the bar;
declarer claims from his page and his hand is faced to the defenders with his statement
(Law 68); once both defenders agree (Law 69A) every page shows the four hands with the result
(Law 66D). axe-core finds nothing serious at either width; screenshots in docs/screenshots."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    DESKTOP,
    PHONE,
    PLAYERS,
    SEATS,
    Tab,
    assert_clean_console,
    cards_of,
    played_cards,
    post,
    screenshot,
    seat_tab,
    serious_violations,
    vugraph_tab,
)
from tests.browser.test_play import legal
from tests.helpers import DEAL
from tests.stack import Stack

expect.set_options(timeout=10_000)

AUCTION = [("E", "P"), ("S", "1S"), ("W", "P"), ("N", "P"), ("E", "P")]  # dealer East
DECLARER, DUMMY = "S", "N"
STATEMENT = "trumps drawn, my hand is high"


def board_two(stack: Stack, table: str) -> dict[str, Any]:
    """A table at board 2 (dealer East, North–South vulnerable) with its players named."""
    with stack.client(stack.director) as http:
        response = http.post("/api/tables", json={"table": table, "ruleset": "duplicate"})
        assert response.status_code == 201, response.text
        tokens: dict[str, Any] = response.json()
        assert http.post(f"/api/tables/{table}/boards",
                         json={"board": 2, "deal": DEAL}).status_code == 202
        assert http.post(f"/api/tables/{table}/players",
                         json={"players": PLAYERS}).status_code == 202
    return tokens


def lit(page: Page, me: str) -> list[str]:
    """The seats a page of seat `me` lights as the seat to act (his own place: #hand)."""
    found: list[str] = page.locator("#play-table .to-act").evaluate_all(
        "els => els.map(e => e.dataset.seat || null)")
    return [seat or me for seat in found]


def place(seat: str, me: str) -> str:
    return "#hand" if seat == me else f"#play-table [data-seat='{seat}']"


def faces(page: Page, seat: str, me: str) -> set[str]:
    """The cards a page of seat `me` shows face up in `seat`'s place."""
    found: list[str] = page.locator(f"{place(seat, me)} [data-hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    return set(found)


def backs(page: Page) -> dict[str, int]:
    """The hidden hands a page draws as backs: seat → the count it shows."""
    found: dict[str, str] = page.locator("#play-table .place[data-seat]").evaluate_all(
        "els => Object.fromEntries(els.filter(e => e.querySelector('[data-backs]'))"
        ".map(e => [e.dataset.seat, e.querySelector('[data-backs]').dataset.backs]))")
    return {seat: int(count) for seat, count in found.items()}


def left_in(state: dict[str, Any], seat: str) -> int:
    return len(cards_of(seat) - played_cards(state))


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def test_the_table_faces_backs_lit_seat_claim_faced_and_four_hands_at_the_end(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 41D (dummy faced to all after the opening lead, the other hands backs with their
    count), Law 68 (the claimer's hand faced to the defenders with his statement), Law 69A
    (the defenders' agreement ends the play), Law 66D (then every hand shown to every seat)."""
    table = "table-drawn"
    tokens = board_two(stack, table)
    seats = tokens["seats"]
    pages = {seat: seat_tab(browser, stack, seats[seat], PHONE if seat == "W" else DESKTOP)
             for seat in SEATS}
    spectator = vugraph_tab(browser, stack, tokens["spectator"])
    tabs.extend([*pages.values(), spectator])
    for seat, tab in pages.items():  # the auction: East, the dealer, to call; NS vulnerable
        page = tab.page
        expect(page.locator("#board-box")).to_contain_text("Board 2")
        expect(page.locator("#board-box")).to_contain_text("Dealer East")
        expect(page.locator("#play-table .to-act")).to_have_count(1)
        assert lit(page, seat) == ["E"]
        assert backs(page) == {other: 13 for other in SEATS if other != seat}
        assert faces(page, seat, seat) == cards_of(seat)
        for other in SEATS:
            plate = page.locator(f"{place(other, seat)} .plate")
            expect(plate.locator(".badge.vul")).to_have_count(1 if other in "NS" else 0)
            expect(plate.locator(".badge.dealer")).to_have_count(1 if other == "E" else 0)
    for seat, call in AUCTION:
        post(stack, table, seats[seat], {"type": "call", "call": call})
    west = pages["W"].page
    expect(west.locator("#hand.to-act")).to_have_count(1)  # West on lead
    lead = sorted(cards_of("W"))[0]
    west.locator(f"#hand button[data-card='{lead}']").click()
    expect(pages[DECLARER].page.locator(f".trick-slot[data-card='{lead}']")).to_have_count(1)
    for _ in range(11):  # two tricks and more, each card legal (Law 44C), by the seats' tokens
        state = pages[DECLARER].states()[-1]
        play = state["play"]
        turn = play["turn"]
        card = sorted(legal(state, turn))[0]
        by = DECLARER if turn == DUMMY else turn
        post(stack, table, seats[by], {"type": "card_played", "card": card,
                                       **({"seat": turn} if by != turn else {})})
        expect(pages[DECLARER].page.locator(f".trick-slot[data-card='{card}']")).to_have_count(1)
    state = pages[DECLARER].states()[-1]
    turn = state["play"]["turn"]
    for seat, tab in pages.items():
        page = tab.page
        expect(page.locator("#box-won")).to_have_text(
            f"NS {state['play']['won']['NS']} · EW {state['play']['won']['EW']}")
        expect(page.locator("#play-table .to-act")).to_have_count(1)
        assert lit(page, seat) == [turn], seat
        hidden = {o: left_in(state, o) for o in SEATS if o not in (seat, DUMMY)}
        assert backs(page) == hidden, seat
        assert faces(page, DUMMY, seat) == cards_of(DUMMY) - played_cards(state)
        expect(page.locator("#middle .trick-slot.led")).to_have_count(1)
        expect(page.locator("#auction")).to_be_hidden()  # the play: the auction compact
    south = pages[DECLARER].page
    south.locator("#auction-toggle").click()
    expect(south.locator("#auction table")).to_be_visible()
    expect(south.locator("#auction-toggle")).to_have_attribute("aria-expanded", "true")
    screenshot(south, "table-play.png")
    screenshot(west, "table-play-phone.png")
    screenshot(spectator.page, "table-vugraph.png")
    for tab in (pages[DECLARER], pages["W"], spectator):
        assert serious_violations(tab.page) == [], tab.page.url
    no_sideways_scroll(west)

    # the claim: declarer's hand faced to the defenders, with his statement (Law 68)
    remaining = 13 - len([t for t in state["play"]["tricks"] if t["winner"]])
    south.locator(".claim-form summary").click()
    south.locator("#claim-tricks").fill(str(remaining))
    south.locator("#claim-statement").fill(STATEMENT)
    south.locator("#claim-send").click()
    state = pages["E"].states()[-1]
    for seat in "EW":
        page = pages[seat].page
        expect(page.locator("#claim-box")).to_contain_text(STATEMENT)
        expect(page.locator(f"#play-table [data-seat='{DECLARER}'] [data-hand]")).to_be_visible()
        assert faces(page, DECLARER, seat) == cards_of(DECLARER) - played_cards(state)
        assert lit(page, seat) == []  # play stops: nobody to act
        other = "E" if seat == "W" else "W"
        assert backs(page) == {other: left_in(state, other)}  # partner's hand still hidden
    screenshot(west, "table-claim-phone.png")
    screenshot(pages["E"].page, "table-claim.png")
    for seat in "EW":
        assert serious_violations(pages[seat].page) == []

    # the board's end: every hand to every seat, with the result (Law 66D)
    for seat in "EW":
        pages[seat].page.locator("#claim-accept").click()
    for seat, tab in pages.items():
        page = tab.page
        expect(page.locator("#result .score-line")).to_be_visible()
        expect(page.locator("#play-table [data-hand]")).to_have_count(4)
        for other in SEATS:
            assert faces(page, other, seat) == cards_of(other), (seat, other)
        assert backs(page) == {}
        assert tab.states()[-1]["deal"] == DEAL
        assert_clean_console(tab)
    screenshot(pages["E"].page, "table-end.png")
    screenshot(west, "table-end-phone.png")
    for seat in "EW":
        assert serious_violations(pages[seat].page) == []
    no_sideways_scroll(west)

    # the next board: the board before's four hands stay with the seats (`previous.deal`)
    with stack.client(stack.director) as http:
        assert http.post(f"/api/tables/{table}/boards",
                         json={"board": 3, "deal": DEAL}).status_code == 202
    for seat, tab in pages.items():
        page = tab.page
        expect(page.locator("#board-box")).to_contain_text("Board 3")
        expect(page.locator("#previous [data-deal-hand]")).to_have_count(4)
        shown = page.locator("#previous [data-deal-hand='W'] [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert set(shown) == cards_of("W"), seat
        assert backs(page) == {other: 13 for other in SEATS if other != seat}
    screenshot(west, "table-next-phone.png")
    assert serious_violations(west) == []
    no_sideways_scroll(west)
