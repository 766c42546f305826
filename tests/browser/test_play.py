"""The play of the hand in a real browser (pages.md): four seat pages bid and
play a whole board, a spectator follows it card by card and replays it. The cards are chosen
by the test from the state the pages receive, legally (Law 44C: following suit); each page
must enable exactly the cards its seat may play now (Law 45: declarer plays dummy's)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    PHONE,
    SEATS,
    Tab,
    assert_clean_console,
    assert_only_own_hand,
    cards_of,
    click_call,
    played_cards,
    post,
    screenshot,
    seat_tab,
    serious_violations,
    table_with_players,
    vugraph_tab,
)
from tests.helpers import DEAL
from tests.stack import Stack

expect.set_options(timeout=10_000)

# dealer North (board 1): South declares 1S, North is dummy, West leads (Law 41A)
AUCTION = [("N", "P"), ("E", "P"), ("S", "1S"), ("W", "P"), ("N", "P"), ("E", "P")]
DECLARER, DUMMY = "S", "N"
CLAIM_AFTER = 9  # tricks played before declarer claims the rest
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def legal(state: dict[str, Any], seat: str) -> set[str]:
    """The cards `seat` may play now (Law 44C): its cards left, of the suit led if it holds
    one."""
    left = cards_of(seat) - played_cards(state)
    tricks = (state.get("play") or {}).get("tricks") or []
    current = tricks[-1] if tricks and tricks[-1]["winner"] is None else None
    if current is None:
        return left
    led = current["cards"][0]["card"][0]
    following = {card for card in left if card[0] == led}
    return following or left


def enabled(page: Page) -> dict[str, set[str]]:
    """The card buttons enabled on a page, by the seat whose hand holds them."""
    found: dict[str, list[str]] = page.locator("#play-table").evaluate(
        """table => { const out = {};
        for (const place of table.querySelectorAll(".place")) {
          const cards = [...place.querySelectorAll("button[data-card]:not(:disabled)")]
            .map(b => b.dataset.card);
          if (cards.length) out[place.dataset.seat || "me"] = cards;
        }
        return out; }""")
    return {seat: set(cards) for seat, cards in found.items()}


def latest(tab: Tab) -> dict[str, Any]:
    return tab.states()[-1]


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0"


def test_four_seats_play_a_board_and_a_spectator_follows_and_replays_it(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Laws 41D (dummy shown to all after the opening lead, never before, on the page and on
    the wire), 44C (only cards that follow suit enabled), 45 (declarer plays dummy's cards
    from his page), 66 (the last trick until one's side plays to the next), 68–69 (a claim,
    agreed by both defenders), the result and score, then the next board. West's page is a
    phone's (375 px, no horizontal scroll) and West plays by keyboard; axe-core finds nothing
    serious."""
    table, tokens = table_with_players(stack, "play-board")
    pages = {seat: seat_tab(browser, stack, tokens["seats"][seat],
                            PHONE if seat == "W" else None) for seat in SEATS}
    spectator = vugraph_tab(browser, stack, tokens["spectator"])
    tabs.extend([*pages.values(), spectator])
    for seat, call in AUCTION:
        click_call(pages[seat], call)
    for seat, tab in pages.items():
        expect(tab.page.locator("#contract")).to_have_text("Contract: 1♠ by South")
        assert_only_own_hand(tab, seat)  # the auction over, no lead yet: no dummy anywhere
    expect(pages["W"].page.locator("#turn")).to_have_text(
        "You are on lead: choose a card from your hand.")
    for seat in "NES":
        assert enabled(pages[seat].page) == {}

    west = pages["W"].page
    assert enabled(west) == {"me": cards_of("W")}
    lead = sorted(cards_of("W"))[0]
    west.locator(f"#hand button[data-card='{lead}']").focus()
    west.keyboard.press("Enter")  # by keyboard (West plays all his cards so)
    played = 1
    for seat, tab in pages.items():
        expect(tab.page.locator(f"#middle .trick-slot[data-card='{lead}']")).to_have_count(1)
        expect(tab.page.locator(f".place[data-seat='{DUMMY}'] [data-card]")).to_have_count(
            0 if seat == DUMMY else 13)
        assert_only_own_hand(tab, seat, dummy=DUMMY)
    # dummy's place: above declarer, at West's left, at East's right
    for seat, place in (("S", "top"), ("W", "left"), ("E", "right")):
        assert pages[seat].page.locator(f"#place-{place}").get_attribute("data-seat") == DUMMY
    expect(spectator.page.locator(f".compass-centre [data-card='{lead}']")).to_have_count(1)

    inspected, inspector, shot = False, None, False
    while True:
        state = latest(pages[DECLARER])
        play = state["play"]
        done = len([t for t in play["tricks"] if t["winner"]])
        if done == CLAIM_AFTER and not [t for t in play["tricks"] if t["winner"] is None]:
            break
        turn = play["turn"]
        player = DECLARER if turn == DUMMY else turn
        want = legal(state, turn)
        page = pages[player].page
        expect(page.locator("#turn")).to_contain_text("Your card")
        assert enabled(page) == {(turn if turn == DUMMY else "me"): want}, (turn, played)
        for other in SEATS.replace(player, ""):
            assert enabled(pages[other].page) == {}, (other, played)
        if not inspected and done >= 1 and len(play["tricks"]) == done and player != "W":
            button = page.locator("#last-trick-button")  # Law 66: before his side plays
            expect(button).to_be_enabled()
            expect(pages[DUMMY].page.locator("#last-trick-button")).to_be_disabled()  # 42
            button.click()
            last = [e["card"] for e in play["tricks"][done - 1]["cards"]]
            for card in last:
                expect(page.locator(f"#last-trick [data-card='{card}']")).to_have_count(1)
            inspected = True
            inspector = player
        if played >= 13 and turn == DUMMY and not shot:  # declarer to play from dummy
            screenshot(page, "seat-play.png")
            screenshot(pages["W"].page, "seat-play-phone.png")
            screenshot(spectator.page, "vugraph-play.png")
            for tab in (pages[DECLARER], pages["W"], spectator):
                assert serious_violations(tab.page) == []
            shot = True
        if player == "W":  # West plays by keyboard: the focus waits on his first card
            card = page.evaluate("document.activeElement.dataset.card || null")
            assert card in want, (card, want)
            page.keyboard.press("Enter")
        else:
            card = sorted(want)[0]
            where = f".place[data-seat='{DUMMY}']" if turn == DUMMY else "#hand"
            page.locator(f"{where} button[data-card='{card}']").click()
        played += 1
        for tab in [*pages.values(), spectator]:
            expect(tab.page.locator(f".trick-slot[data-card='{card}']").first).to_be_visible()
        if inspector == player:  # his side has played to the next trick: no more (66C)
            expect(page.locator("#last-trick-button")).to_be_disabled()
            inspector = None
    assert inspected and shot
    width = west.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"West's page is {width} px wide"

    state = latest(pages[DECLARER])
    won = state["play"]["won"]
    for tab in [*pages.values(), spectator]:
        expect(tab.page.locator("#won")).to_have_text(f"NS {won['NS']} · EW {won['EW']}")
    south = pages[DECLARER].page
    south.locator(".claim-form summary").click()
    south.locator("#claim-tricks").fill("4")
    south.locator("#claim-statement").fill("trumps are drawn, my hand is high")
    south.locator("#claim-send").click()
    for seat in "EW":
        box = pages[seat].page.locator("#claim-box")
        expect(box).to_contain_text("South claims 4 of the 4 remaining tricks")
    assert serious_violations(pages["W"].page) == []  # the claim's buttons, at 375 px
    for seat in "EW":
        pages[seat].page.locator("#claim-accept").click()
    result = wait_result(pages[DECLARER])
    score = result["score_ns"]
    assert result["declarer_tricks"] == won[SIDE[DECLARER]] + 4
    for seat, tab in pages.items():
        box = tab.page.locator("#result")
        expect(box).to_contain_text(f"{result['declarer_tricks']} tricks")
        expect(box.locator(".score-line")).to_have_text(
            f"Score: North–South {signed(score)}, East–West {signed(-score)}")
        mine = score if SIDE[seat] == "NS" else -score
        expect(box.locator(".result-mine")).to_contain_text(signed(mine))
        assert_clean_console(tab)
    expect(spectator.page.locator("#result .score-line")).to_contain_text(signed(score))

    with stack.client(stack.director) as http:  # the next board
        assert http.post(f"/api/tables/{table}/boards",
                         json={"board": 2, "deal": DEAL}).status_code == 202
    for tab in pages.values():
        expect(tab.page.locator("#board-info")).to_contain_text("Board 2 ")
        expect(tab.page.locator("#hand [data-card]")).to_have_count(13)
        expect(tab.page.locator("#previous")).to_contain_text("Board 1")
        expect(tab.page.locator("#previous .score-line")).to_contain_text(signed(score))
    replay_card_by_card(stack, table, tokens["spectator"], spectator)


def wait_result(tab: Tab) -> dict[str, Any]:
    expect(tab.page.locator("#result .score-line")).to_be_visible()
    result: dict[str, Any] = latest(tab)["result"]
    return result


def replay_card_by_card(stack: Stack, table: str, token: str, spectator: Tab) -> None:
    """Board 1 replayed: each card's step shows the trick as it stood and the cards left."""
    from tests.browser.browser import history

    steps = history(stack, table, token, board=1, states="true")["history"]
    page = spectator.page
    page.locator("#replay-board").select_option("1")
    page.locator("#replay-load").click()
    expect(page.locator("#mode")).to_have_text(f"Replay: event 1 of {len(steps)}")
    page.locator("h1").click()
    first_card = next(i for i, s in enumerate(steps) if s["event"]["type"] == "card_played")
    page.keyboard.press("Home")
    for _ in range(first_card):
        page.keyboard.press("ArrowRight")
    for index in range(first_card, first_card + 10):
        state = steps[index]["state"]
        trick = state["play"]["tricks"][-1]
        expect(page.locator("#step-count")).to_have_text(f"Event {index + 1} of {len(steps)}")
        shown = page.locator(".compass-centre .trick-slot[data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)")
        assert sorted(shown) == sorted(e["card"] for e in trick["cards"]), index
        expect(page.locator("#step")).to_contain_text(" plays ")
        page.keyboard.press("ArrowRight")
    page.set_viewport_size(PHONE)  # a trick in the middle fits a phone too
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the vugraph page is {width} px wide"
    page.keyboard.press("End")
    expect(page.locator("#result .score-line")).to_be_visible()
    assert_clean_console(spectator)


def test_a_rejected_claim_calls_the_director_and_play_waits(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 68D: a claim disputed by a defender (his "Reject" button) summons the Director and
    play ceases: every page says so and no page has a card to play. Dummy answers no claim
    (Law 69A: the defenders do)."""
    table, tokens = table_with_players(stack, "play-dispute")
    seats = tokens["seats"]
    pages = {seat: seat_tab(browser, stack, seats[seat]) for seat in SEATS}
    tabs.extend(pages.values())
    for seat, call in AUCTION:
        post(stack, table, seats[seat], {"type": "call", "call": call})
    lead = sorted(cards_of("W"))[0]
    post(stack, table, seats["W"], {"type": "card_played", "card": lead})
    south = pages[DECLARER].page
    expect(south.locator("#turn")).to_contain_text("Your card from dummy's hand (North)")
    expect(pages[DUMMY].page.locator(".claim-form")).to_have_count(0)  # dummy claims not
    south.locator(".claim-form summary").click()
    south.locator("#claim-tricks").fill("13")
    south.locator("#claim-send").click()
    expect(pages[DUMMY].page.locator("#claim-box")).to_contain_text("South claims 13")
    expect(pages[DUMMY].page.locator("#claim-accept")).to_have_count(0)
    pages["E"].page.locator("#claim-reject").click()
    for seat, tab in pages.items():
        expect(tab.page.locator("#claim-disputed")).to_have_text(
            "The claim is disputed. The Director is called; play waits.")
        expect(tab.page.locator("#turn")).to_have_text("The Director is called; play waits.")
        assert enabled(tab.page) == {}, seat
        assert_clean_console(tab)
    assert latest(pages["W"])["play"]["claim"]["disputed"] is True


def test_declarers_premature_card_waits_in_its_place_not_in_his_hand(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 57C3: "a premature play (not a lead) by declarer from either hand is a played card
    and if legal may not be withdrawn". West leads D3 and South (declarer) plays D6 before
    dummy: the card is shown in South's place in the trick and gone from his hand; his page
    enables dummy's diamonds only (dummy's turn, Law 44C). When East has played, D6 completes
    the trick in South's place and wins it."""
    table, tokens = table_with_players(stack, "play-premature")
    seats = tokens["seats"]
    pages = {seat: seat_tab(browser, stack, seats[seat]) for seat in ("S", "E")}
    tabs.extend(pages.values())
    for seat, call in AUCTION:
        post(stack, table, seats[seat], {"type": "call", "call": call})
    post(stack, table, seats["W"], {"type": "card_played", "card": "D3"})
    post(stack, table, seats["S"], {"type": "card_played", "card": "D6"})
    south, east = pages["S"].page, pages["E"].page
    for page in (south, east):
        expect(page.locator("#middle .trick-slot[data-seat='S']")).to_have_attribute(
            "data-card", "D6")
    expect(south.locator("#hand [data-card='D6']")).to_have_count(0)
    expect(south.locator("#turn")).to_have_text("Your card from dummy's hand (North).")
    assert enabled(south) == {"N": {"D8", "D4", "D2"}} and enabled(east) == {}
    post(stack, table, seats["S"], {"type": "card_played", "seat": "N", "card": "D2"})
    expect(east.locator("#turn")).to_have_text("Your card: choose one of the cards enabled.")
    assert enabled(east) == {"me": {"DA", "DK", "D5"}}
    post(stack, table, seats["E"], {"type": "card_played", "card": "D5"})
    for page in (south, east):
        expect(page.locator("#trick-note")).to_have_text("Trick 1 won by South")
    state = latest(pages["S"])
    assert [c["card"] for c in state["play"]["tricks"][0]["cards"]] == ["D3", "D2", "D5", "D6"]
    assert state["play"]["waiting"] == [] and state["play"]["turn"] == "S"
    for tab in pages.values():
        assert_clean_console(tab)


def test_a_defenders_partner_objects_to_his_concession_and_play_continues(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 68B2: "if a defender attempts to concede one or more tricks and his partner
    immediately objects; neither a concession nor a claim has occurred … Play continues."
    West concedes all the tricks after his opening lead; only East's page (his partner's)
    offers the objection, declarer's the acceptance (Law 69A). East objects: the claim is gone
    from every page and declarer's page enables dummy's cards again, as the fold accepts."""
    table, tokens = table_with_players(stack, "play-concession")
    seats = tokens["seats"]
    pages = {seat: seat_tab(browser, stack, seats[seat]) for seat in SEATS}
    tabs.extend(pages.values())
    for seat, call in AUCTION:
        post(stack, table, seats[seat], {"type": "call", "call": call})
    lead = sorted(cards_of("W"))[0]
    post(stack, table, seats["W"], {"type": "card_played", "card": lead})
    post(stack, table, seats["W"], {"type": "claim", "tricks": 0, "statement": "yours"})
    for tab in pages.values():
        expect(tab.page.locator("#claim-box")).to_contain_text("West claims 0 of the 13")
    expect(pages["S"].page.locator("#claim-accept")).to_be_visible()
    for seat in ("N", "S", "W"):
        expect(pages[seat].page.locator("#claim-object")).to_have_count(0)
    assert enabled(pages["S"].page) == {}  # play ceases while the concession is open
    pages["E"].page.locator("#claim-object").click()
    for tab in pages.values():
        expect(tab.page.locator("#claim-words")).to_have_count(0)
        assert_clean_console(tab)
    expect(pages["S"].page.locator("#turn")).to_contain_text("Your card from dummy's hand")
    assert latest(pages["S"])["play"]["claim"] is None
    assert enabled(pages["S"].page) == {"N": legal(latest(pages["S"]), "N")}
