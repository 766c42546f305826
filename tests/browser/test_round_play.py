"""A round of three boards played through the pages (a board's end): four seat pages, a
spectator's vugraph and the Director's console follow `POST /api/tables/{t}/rounds`, whose
next board starts in the very step that ends the one before (the 52nd card, Law 44G; a claim
agreed, Law 69A). Each page must still show each board's end: its last trick (Law 66A), its
result and score (Law 77); and each board's history must hold the event that ended it."""

from __future__ import annotations

import re
import time
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    PLAYERS,
    SEATS,
    Tab,
    assert_clean_console,
    cards_of,
    click_call,
    history,
    played_cards,
    screenshot,
    seat_tab,
    vugraph_tab,
)
from tests.browser.test_director import console_tab
from tests.browser.test_play import enabled, latest, legal, signed
from tests.helpers import DEAL
from tests.stack import Stack

expect.set_options(timeout=10_000)

YOUR_CARD = re.compile("Your card|You are on lead")
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}


def dealer(board: int) -> str:
    """Law 2: board 1's dealer is North, then clockwise."""
    return "NESW"[(board - 1) % 4]


def bid(pages: dict[str, Tab], board: int) -> str:
    """The dealer opens 1NT and the other three pass, by the bidding boxes: the dealer
    declares (Law 22B); his LHO is on lead (Law 41A)."""
    seat = dealer(board)
    for call in ("1NT", "P", "P", "P"):
        click_call(pages[seat], call)
        seat = LHO[seat]
    return dealer(board)


def play_cards(pages: dict[str, Tab], declarer: str, board: int, tricks: int) -> list[str]:
    """`tricks` whole tricks played by clicks, each page's lowest legal card (Law 44C; dummy's
    by declarer, Law 45); the cards, in order. The state is read from declarer's socket."""
    dummy, cards = PARTNER[declarer], []
    for _ in range(tricks * 4):
        state = latest(pages[declarer])
        assert state["board"] == board, (state["board"], board)
        turn = state["play"]["turn"] if state["play"] else LHO[declarer]
        player = declarer if turn == dummy else turn
        page = pages[player].page
        expect(page.locator("#turn")).to_contain_text(YOUR_CARD)
        want = legal(state, turn)
        assert enabled(page) == {(turn if turn == dummy else "me"): want}, (turn, len(cards))
        card = sorted(want)[0]
        where = f".place[data-seat='{dummy}']" if turn == dummy else "#hand"
        page.locator(f"{where} button[data-card='{card}']").click()
        cards.append(card)
        _until(pages[declarer], lambda s, c=card: s["board"] != board or c in played_cards(s))
    return cards


def _until(tab: Tab, check: Any, seconds: float = 10) -> None:
    """Until the last state `tab` received passes `check` (Playwright hands a page's frames
    over only while it is called: the poll waits through the page)."""
    deadline = time.monotonic() + seconds
    while not (tab.states() and check(tab.states()[-1])):
        assert time.monotonic() < deadline, "the state never came"
        tab.page.wait_for_timeout(50)


def claim_rest(pages: dict[str, Tab], declarer: str, tricks: int) -> None:
    """Declarer claims `tricks` of those left; both defenders agree (Law 69A)."""
    page = pages[declarer].page
    page.locator(".claim-form summary").click()
    page.locator("#claim-tricks").fill(str(tricks))
    page.locator("#claim-send").click()
    for seat in (LHO[declarer], PARTNER[LHO[declarer]]):
        pages[seat].page.locator("#claim-accept").click()


def previous_shown(page: Page, board: int, result: dict[str, Any], last: list[str],
                   me: str | None) -> None:
    """The page shows board `board`'s end: its tricks and score, and its last trick."""
    box = page.locator("#previous")
    expect(box.locator("h3")).to_have_text(f"Board {board} is over")
    expect(box.locator(".result-line")).to_contain_text(f"{result['declarer_tricks']} tricks")
    score = result["score_ns"]
    expect(box.locator(".score-line")).to_have_text(
        f"Score: North–South {signed(score)}, East–West {signed(-score)}")
    if me is not None:
        mine = score if SIDE[me] == "NS" else -score
        expect(box.locator(".result-mine")).to_contain_text(signed(mine))
    shown = box.locator(".previous-trick [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(last), (board, shown, last)


def test_a_round_of_three_boards_shows_each_boards_end_on_every_page(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Laws 44G (the thirteenth trick ends board 1's play), 69A (claims agreed end boards 2
    and 3), 66A (the last trick seen), 77 (the score): each ending step also starts the
    round's next board, and every seat page, the vugraph and the console show the board
    before as it ended, its last trick and its score, while the next board's auction runs;
    each board's history holds its own last event."""
    table = "round-of-three"
    with stack.client(stack.director) as http:
        made = http.post("/api/tables", json={"table": table, "ruleset": "duplicate"})
        assert made.status_code == 201, made.text
        tokens = made.json()
        assert http.post(f"/api/tables/{table}/players", json={"players": PLAYERS}
                         ).status_code == 202
        started = http.post(f"/api/tables/{table}/rounds", json={"round": 1, "boards": [
            {"board": n, "deal": DEAL} for n in (1, 2, 3)]})
        assert started.status_code == 202, started.text
    pages = {seat: seat_tab(browser, stack, tokens["seats"][seat]) for seat in SEATS}
    spectator = vugraph_tab(browser, stack, tokens["spectator"])
    console = console_tab(browser, stack)
    console.page.locator(f"#table-list button[data-table='{table}']").click()
    tabs.extend([*pages.values(), spectator, console])

    ends: list[tuple[dict[str, Any], list[str]]] = []  # each board's result and last trick
    for board in (1, 2, 3):
        for tab in [*pages.values(), spectator]:
            expect(tab.page.locator("#board-info")).to_contain_text(f"Board {board} ")
        declarer = bid(pages, board)
        if board == 1:  # all thirteen tricks: the 52nd card ends it
            cards = play_cards(pages, declarer, board, 13)
            assert sorted(cards) == sorted(set().union(*(cards_of(s) for s in SEATS)))
            last = cards[-4:]
        else:  # a trick, then declarer claims 7 of the 12 left
            last = play_cards(pages, declarer, board, 1)
            won = latest(pages[declarer])["play"]["won"][SIDE[declarer]]
            claim_rest(pages, declarer, 7)
        if board < 3:
            for tab in pages.values():
                expect(tab.page.locator("#board-info")).to_contain_text(f"Board {board + 1} ")
            state = latest(pages["N"])
            assert state["board"] == board + 1 and state["status"] == "auction"
            result = state["previous"]["result"]
        else:
            expect(pages["N"].page.locator("#result .score-line")).to_be_visible()
            result = latest(pages["N"])["result"]
        assert result is not None and result["declarer_tricks"] is not None
        if board > 1:  # Law 69A: the tricks won, and those claimed
            assert result["declarer_tricks"] == won + 7
        ends.append((result, last))
        if board < 3:
            for seat, tab in pages.items():
                previous_shown(tab.page, board, result, last, seat)
            previous_shown(spectator.page, board, result, last, None)
            previous_shown(console.page, board, result, last, None)
            if board == 1:
                screenshot(pages["S"].page, "seat-previous-board.png")
                screenshot(spectator.page, "vugraph-previous-board.png")
    for tab in pages.values():  # the round's last board stays: its own result shown
        box = tab.page.locator("#result")
        expect(box).to_contain_text(f"{ends[2][0]['declarer_tricks']} tricks")
        expect(box.locator(".score-line")).to_contain_text(signed(ends[2][0]["score_ns"]))
        assert_clean_console(tab)
    assert_clean_console(spectator)

    for board, (result, last) in enumerate(ends, start=1):  # each board's own history
        entries = history(stack, table, stack.director, board=board, states="true")["history"]
        assert entries[-1]["state"]["result"] == result, board
        played = [e["event"]["card"] for e in entries if e["event"]["type"] == "card_played"]
        assert played[-4:] == last if board == 1 else played == last, board
        first_call = next(e["event"] for e in entries if e["event"]["type"] == "call")
        assert first_call["seat"] == dealer(board), board

