"""Declarer's option on the lead of the partner of a defender with a major penalty card, on
the pages, in a real browser (pages.md; Laws 50D2, 51B, 59). The penalty card arises as
tests/browser/test_capture_play.py makes it: against 2C by North, West revokes on trick 2 with
♥4 and corrects it with ♦7 (Law 62A): ♥4 is a major penalty card (62B1, 50). East wins trick 2
and is on lead: he may not lead until declarer has stated his option (50D2). The deal is
tests/helpers.py's DEAL:

    North 4.KJ32.842.AQ743   East JT987.Q876.AK5.2   South AK532.T.JT6.T985   West Q6.A954.Q973.KJ6
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    post,
    screenshot,
    serious_violations,
    table_with_players,
    vugraph_tab,
)
from tests.browser.test_capture import capture_tab, enter, sent_events
from tests.browser.test_director import console_tab, queue_items
from tests.helpers import state, wait_for
from tests.stack import Stack

expect.set_options(timeout=10_000)

AUCTION = "1c p 1s p 2c p p p"  # 2C by North: East on lead (Law 41A)
PLAY_TO_PENALTY = ["a", "6 3 2", "dk dt h4", "w:d7", "4"]  # West's ♥4 a penalty card (62B1)
EAST_LEFT = {"SJ", "ST", "S9", "S8", "S7", "HQ", "H8", "H7", "H6", "D5", "C2"}


def to_the_lead_option(browser: Browser, stack: Stack, name: str, tabs: list[Tab]
                       ) -> tuple[str, dict[str, Any], Tab]:
    """A table whose capture page has recorded the auction and the two tricks: East on lead
    at trick 3, West's ♥4 a major penalty card, declarer's option awaited (Law 50D2)."""
    table, tokens = table_with_players(stack, name)
    capture = capture_tab(browser, stack, table)
    tabs.append(capture)
    enter(capture, AUCTION)
    for line in PLAY_TO_PENALTY:
        enter(capture, line)
    expect(capture.page.locator("#turn")).to_have_text(
        "East (Bob) leads once declarer North (Ann) has chosen (require h, prohibit h, "
        "prohibit, free).")
    return table, tokens, capture


def seat_in_play(browser: Browser, stack: Stack, token: str, viewport: Any = None) -> Tab:
    """A seat's page once the play is under way: connected, the lead option box drawn."""
    tab = open_tab(browser, f"{stack.url}/seat#{token}", viewport)
    expect(tab.page.locator("#connection")).to_have_text("Connected")
    expect(tab.page.locator("#lead-option")).to_be_visible()
    return tab


def enabled_cards(page: Page) -> set[str]:
    return set(page.locator("#play-table button[data-card]:not(:disabled)").evaluate_all(
        "bs => bs.map(b => b.dataset.card)"))


def test_declarer_requires_a_heart_on_his_page_and_the_leader_may_lead_only_hearts(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 50D2: East waits; his page enables no card and says why. West's ♥4 is shown face
    up in West's place on North's and East's pages (Law 50: public). North, declarer, sees the
    choice in words with its Law and requires a heart lead (50D2(a)): the ♥4 is picked up,
    East's page says the choice and enables his hearts only; he leads ♥Q and the lead goes
    with no alert but the revoke. East's page is a phone's: 375 px, no horizontal scroll; axe
    finds no serious violation on either page; declarer's page fits 375 px too."""
    table, tokens, _ = to_the_lead_option(browser, stack, "opt-seat", tabs)
    north = seat_in_play(browser, stack, tokens["seats"]["N"])
    east = seat_in_play(browser, stack, tokens["seats"]["E"], PHONE)
    tabs.extend([north, east])

    for tab in (north, east):
        penalty = tab.page.locator(".penalty-cards[data-seat='W']")
        expect(penalty).to_contain_text("Penalty card (Law 50)")
        expect(penalty.locator(".penalty[data-card='H4'] [role=img]")).to_have_attribute(
            "aria-label", "4 of hearts")
    expect(east.page.locator("#lead-option-words")).to_have_text(
        "East waits to lead until declarer North has stated his option (Law 50D2): West has a "
        "major penalty card in hearts; declarer may require or prohibit its lead (the penalty "
        "card then picked up) or leave the lead free.")
    expect(east.page.locator("#play-turn")).to_have_text(
        "Waiting for declarer North (Ann)'s option on the lead (Law 50D2).")
    assert enabled_cards(east.page) == set()
    expect(north.page.locator("#lead-option button")).to_have_text([
        "Require a heart lead (Law 50D2(a))",
        "Prohibit hearts while East keeps the lead (Law 50D2(a))",
        "Free: any lead, the penalty card stays (Law 50D2(b))"])
    assert enabled_cards(north.page) == set()  # not North's card, nor dummy's
    screenshot(north.page, "seat-lead-option.png")
    assert serious_violations(north.page) == []
    phone = seat_in_play(browser, stack, tokens["seats"]["N"], PHONE)  # declarer at 375 px
    tabs.append(phone)
    expect(phone.page.locator("#lead-option button")).to_have_count(3)
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"declarer's page is {width} px wide"

    north.page.locator("#lead-option button[data-choice='require']").click()
    expect(east.page.locator("#lead-option-words")).to_have_text(
        "Declarer's option: East must lead hearts (Law 50D2(a); Law 59: any card if he has "
        "none).")
    expect(east.page.locator(".penalty-cards")).to_have_count(0)  # picked up (Law 50D2(a))
    expect(east.page.locator("#play-table button[data-card]:not(:disabled)")).to_have_count(4)
    assert enabled_cards(east.page) == {c for c in EAST_LEFT if c[0] == "H"}
    width = east.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    assert serious_violations(east.page) == []

    east.page.locator("#play-table button[data-card='HQ']").click()
    expect(north.page.locator("#lead-option")).to_have_count(0)
    board = state(stack, table, stack.director)["board"]
    assert board["play"]["tricks"][-1] == {"leader": "E", "cards": [
        {"seat": "E", "card": "HQ"}], "winner": None}
    assert board["penalty_cards"] == []
    assert board["play"]["lead_options"] is None
    assert [a["kind"] for a in board["alerts"]] == ["revoke"]
    chosen = [{k: v for k, v in e.items() if k != "client_seq"} for e in sent_events(north)
              if e["type"] == "lead_option"]
    assert chosen == [{"type": "lead_option", "choice": "require", "suit": "H"}]
    for tab in (north, east):
        assert_clean_console(tab)


def test_the_capture_page_records_declarers_prohibition(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The operator types `prohibit h`, sent as declarer's (North's) `lead_option`: East may
    not lead hearts while he keeps the lead, ♥4 picked up (Law 50D2(a)). Before it, the play
    record says the penalty card's options in words (Laws 50D1, 50D2); a `require` with no
    suit is refused on the page, nothing sent. Then East's lead of a spade goes with no
    alert."""
    table, _, capture = to_the_lead_option(browser, stack, "opt-capture", tabs)
    page = capture.page
    expect(page.locator("#play .play-penalty")).to_have_text(
        "West's penalty card ♥4: major, played at West's first legal opportunity (Law 50D1); "
        "when East is on lead, declarer may require or prohibit hearts or leave the lead free "
        "(Law 50D2).")
    expect(page.locator("#play .play-lead-option")).to_contain_text(
        "East waits to lead until declarer North has stated his option (Law 50D2)")
    sent = len(sent_events(capture))
    entry = page.locator("#entry-line")
    entry.fill("require")
    entry.press("Enter")
    expect(page.locator("#entry-error")).to_have_text("Type require <suit>, e.g. require h.")
    assert len(sent_events(capture)) == sent

    enter(capture, "prohibit h")
    expect(page.locator("#play .play-lead-option")).to_have_text(
        "Declarer's option: East may not lead hearts while he keeps the lead (Law 50D2(a); "
        "Law 59: unless he has nothing else).")
    expect(page.locator("#play .play-penalty")).to_have_count(0)
    expect(page.locator("#turn")).to_have_text("East (Bob) to play, trick 3.")
    last = {k: v for k, v in sent_events(capture)[-1].items() if k != "client_seq"}
    assert last == {"type": "lead_option", "seat": "N", "choice": "prohibit", "suit": "H"}
    board = state(stack, table, stack.director)["board"]
    assert board["play"]["lead_options"] == {"seat": "E", "suits": ["H"], "choice": "prohibit",
                                             "chosen": ["H"]}
    assert board["penalty_cards"] == []
    enter(capture, "sj")
    board = state(stack, table, stack.director)["board"]
    assert board["play"]["tricks"][-1]["cards"] == [{"seat": "E", "card": "SJ"}]
    assert [a["kind"] for a in board["alerts"]] == ["revoke"]
    assert_clean_console(capture)


CALLS = [("N", "1C"), ("E", "P"), ("S", "1S"), ("W", "P"), ("N", "2C"), ("E", "P"), ("S", "P"),
         ("W", "P")]


def bid_to_two_clubs(stack: Stack, table: str, seats: dict[str, str]) -> None:
    """The auction posted by the seats, until the state has it closed (Law 22A): 2C by North,
    East on lead (41A)."""
    for seat, call in CALLS:
        post(stack, table, seats[seat], {"type": "call", "call": call})
    wait_for(lambda: (state(stack, table, stack.director)["board"] or {}).get("status")
             == "closed", 10, "the auction closed in the state")


def test_the_director_records_declarers_option_reported_by_a_table_without_devices(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The same two tricks posted by the seats (West's revoke corrected, Laws 61A, 62A): the
    console's board view says West's penalty card and the option awaited in words (Laws 50D1,
    50D2), and its form records declarer's choice, sent as North's `lead_option`: `free`
    (50D2(b)), the lead open to East, the ♥4 still a penalty card. A spectator's vugraph says
    East waits for declarer's option, then that East is to play."""
    table, tokens = table_with_players(stack, "opt-director")
    seats = tokens["seats"]
    bid_to_two_clubs(stack, table, seats)
    for seat, card in [("E", "DA"), ("S", "D6"), ("W", "D3"), ("N", "D2"), ("E", "DK"),
                       ("S", "DT"), ("W", "H4"), ("W", "D7"), ("N", "D4")]:
        hand = "N" if seat == "S" else seat  # declarer plays dummy's cards (Law 45)
        post(stack, table, seats[hand], {"type": "card_played", "card": card,
                                         **({"seat": "S"} if seat == "S" else {})})
    director = console_tab(browser, stack)
    tabs.append(director)
    page = director.page
    items = queue_items(page, table)
    expect(items).to_have_count(1)
    items.first.locator(".open-table").click()
    expect(page.locator("#play .play-penalty")).to_contain_text(
        "West's penalty card ♥4: major, played at West's first legal opportunity (Law 50D1)")
    form = page.locator("#lead-option-form")
    expect(form.locator("h3")).to_have_text(
        "Record declarer North's option, as the table reports it")
    expect(form.locator("#lead-option-words")).to_contain_text(
        "East waits to lead until declarer North has stated his option (Law 50D2)")
    spectator = vugraph_tab(browser, stack, tokens["spectator"])
    tabs.append(spectator)
    expect(spectator.page.locator("#turn")).to_have_text(
        "East (Bob) leads once declarer North (Ann) has stated his option (Law 50D2).")
    form.locator("button[data-choice='free']").click()
    expect(spectator.page.locator("#turn")).to_have_text("East (Bob) to play.")
    expect(page.locator("#lead-option-result")).to_have_text(
        "Declarer's option recorded: the lead left free.")
    expect(form.locator("button")).to_have_count(0)
    board = state(stack, table, stack.director)["board"]
    assert board["play"]["lead_options"] is None
    assert board["penalty_cards"] == [{"seat": "W", "card": "H4", "led": False}]
    assert board["rectifications"][-1]["law"] == "50D2(b)"
    assert serious_violations(page) == []
    assert_clean_console(director)


def test_the_option_holders_page_accepts_a_lead_out_of_turn(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """East is on lead against 2C by North; West's ♠Q is led out of turn, recorded by the
    director for West (as capture would, Law 54). North, declarer and the one option holder,
    sees the accept / decline buttons on his page and accepts (Law 53A / 54A): the lead
    stands. East, no option holder, sees no button."""
    table, tokens = table_with_players(stack, "opt-lead")
    seats = tokens["seats"]
    bid_to_two_clubs(stack, table, seats)
    post(stack, table, stack.director, {"type": "card_played", "seat": "W", "card": "SQ"})
    north = open_tab(browser, f"{stack.url}/seat#{seats['N']}")
    east = open_tab(browser, f"{stack.url}/seat#{seats['E']}")
    tabs.extend([north, east])
    box = north.page.locator("#lead-out-of-turn")
    expect(box).to_contain_text("West led ♠Q out of turn.")
    expect(box.locator("button")).to_have_text([
        "Accept the lead: it stands (Law 53A)",
        "Decline: the lead is made from the right hand (Laws 53–56)"])
    expect(east.page.locator("#connection")).to_have_text("Connected")
    expect(east.page.locator("#turn")).to_have_text(
        "A lead out of turn: the option is being decided.")
    expect(east.page.locator("#lead-out-of-turn")).to_have_count(0)
    box.locator("#accept-lead").click()
    expect(box).to_have_count(0)
    board = state(stack, table, stack.director)["board"]
    assert board["play"]["lead_out_of_turn"] is None
    assert board["play"]["tricks"] == [{"leader": "W", "cards": [{"seat": "W", "card": "SQ"}],
                                        "winner": None}]
    assert [{k: v for k, v in e.items() if k != "client_seq"} for e in sent_events(north)] == [
        {"type": "option", "accept": True}]
    assert serious_violations(north.page) == []
    for tab in (north, east):
        assert_clean_console(tab)


EAST = ["SJ", "S9", "HQ", "H8", "D5", "C2"]
LEADING: dict[str, Any] = {"declarer": "N", "dummy": "S", "turn": "E", "tricks": [
    {"leader": "E", "winner": "E", "cards": []}]}


def options(choice: str | None, chosen: list[str]) -> dict[str, Any]:
    return {**LEADING, "lead_options": {"seat": "E", "suits": ["H"], "choice": choice,
                                        "chosen": chosen}}


@pytest.mark.parametrize(("cards", "play", "seat", "allowed"), [
    (EAST, options(None, []), "E", []),  # Law 50D2: he may not lead before declarer's choice
    (EAST, options("require", ["H"]), "E", ["HQ", "H8"]),  # 50D2(a)
    (["SJ", "D5"], options("require", ["H"]), "E", ["SJ", "D5"]),  # Law 59: no heart
    (EAST, options("prohibit", ["H"]), "E", ["SJ", "S9", "D5", "C2"]),  # 50D2(a)
    (["HQ", "H8"], options("prohibit", ["H"]), "E", ["HQ", "H8"]),  # Law 59: nothing else
    (EAST, options("require", ["H"]), "W", EAST),  # not the leader: not bound
    (EAST, {**options("require", ["H"]), "tricks": [{"leader": "N", "winner": None,
                                                      "cards": [{"seat": "N", "card": "S4"}]}]},
     "E", EAST),  # following to a trick, not leading
])
def test_the_leads_declarers_choice_allows(stack: Stack, browser: Browser, tabs: list[Tab],
                                           cards: list[str], play: dict[str, Any], seat: str,
                                           allowed: list[str]) -> None:
    """The seat page's own module: the cards a lead may be under declarer's option (Laws
    50D2, 51B), any card when the hand cannot comply (Law 59)."""
    if not tabs:
        tabs.append(open_tab(browser, f"{stack.url}/seat"))
    found = tabs[0].page.evaluate(
        """async ([cards, play, seat]) => {
          const { allowedLeads } = await import("/web/lead_options.js");
          return allowedLeads(cards, play, seat);
        }""", [cards, play, seat])
    assert found == allowed


@pytest.mark.parametrize(("cards", "penalty", "allowed"), [
    (["H4", "HK", "S6"], [{"seat": "W", "card": "H4", "led": False}], ["H4"]),  # 50D1
    (["S6", "SQ"], [{"seat": "W", "card": "H4", "led": False}], ["S6", "SQ"]),  # not legal now
    (["H4", "H2", "H9", "HT", "S6"], [{"seat": "W", "card": "H4", "led": False, "minor": True}],
     ["H4", "HT", "S6"]),  # Law 50C: no heart below honour rank before the ♥4
    (["H2", "H9"], [{"seat": "E", "card": "H4", "led": False}], ["H2", "H9"]),  # East's card
])
def test_the_cards_a_penalty_card_leaves(stack: Stack, browser: Browser, tabs: list[Tab],
                                         cards: list[str], penalty: list[dict[str, Any]],
                                         allowed: list[str]) -> None:
    """West's page enables a major penalty card alone when he may legally play it (Law
    50D1); a minor one bars his lower cards of its suit until played (50C)."""
    if not tabs:
        tabs.append(open_tab(browser, f"{stack.url}/seat"))
    found = tabs[0].page.evaluate(
        """async ([cards, penalty]) => {
          const { penaltyPlays } = await import("/web/lead_options.js");
          return penaltyPlays(cards, { penalty_cards: penalty }, "W");
        }""", [cards, penalty])
    assert found == allowed
