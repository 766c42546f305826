"""The capture page records the play in a real browser (tests/browser/browser.py): the
operator types the cards as vugraph operators do (`da`, the rank alone when it is forced,
`w:d7` for a seat named, `c08` a claim of declarer's tricks in all, `agree`, `result 9`), sees
a revoke's alert and its correction at once, and the state the server folded is the one he
typed; a bad entry says which card and why and sends nothing; at 375 px as at a desk, with no
serious axe-core finding. The deal is tests/helpers.py's DEAL:

    North 4.KJ32.842.AQ743   East JT987.Q876.AK5.2   South AK532.T.JT6.T985   West Q6.A954.Q973.KJ6
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
    table_with_players,
)
from tests.browser.test_capture import capture_tab, enter, sent_events
from tests.helpers import state
from tests.stack import Stack

expect.set_options(timeout=10_000)

AUCTION = "1c p 1s p 2c p p p"  # 2C by North (Law 22A closes it): East on lead (41A)


def played(tab: Tab) -> list[tuple[str, str]]:
    """The cards the page sent, in order: (seat, card)."""
    return [(e["seat"], e["card"]) for e in sent_events(tab) if e["type"] == "card_played"]


def trick_cells(tab: Tab, trick: int) -> dict[str, str]:
    """The play record's row for a trick: each seat's card as its label reads."""
    row = tab.page.locator(f"#play tr[data-trick='{trick}']")
    found: dict[str, str] = row.locator("td[data-seat]").evaluate_all(
        "tds => Object.fromEntries(tds.map(td => [td.dataset.seat, "
        "(td.querySelector('[role=img]') || {}).ariaLabel || '']))")
    return found


def test_a_capture_session_records_the_play_a_revoke_its_correction_and_a_claim(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """After 2C by North, East leads the ace of diamonds, typed `a` (his only ace), and the
    trick is followed by rank alone (`6 3 2`: each the one card of that rank in the suit
    led, Law 44C). On trick 2 West plays ♥4 holding diamonds: a revoke (Law 61A), alerted at
    once. He corrects it before it is established (Law 62A) with ♦7, typed for his seat
    (`w:d7`): ♥4 becomes a penalty card (Law 62B1, 50). A claim of 12 in all is refused on the
    page (11 tricks remain, Law 68), a card East does not hold too, nothing sent. Declarer
    claims 8 in all (`c08`), both defenders agree (Law 69A): 2C made, NS +90 (Law 77)."""
    table, _ = table_with_players(stack, "cap-play")
    tab = capture_tab(browser, stack, table)
    tabs.append(tab)
    page = tab.page
    enter(tab, AUCTION)
    expect(page.locator("#contract")).to_have_text("Contract: 2♣ by North")
    expect(page.locator("#turn")).to_have_text("East (Bob) is on lead.")
    expect(page.locator("#play-panel")).to_be_hidden()

    entry = page.locator("#entry-line")
    entry.press_sequentially("a")  # typed, as at the table, then Enter
    entry.press("Enter")
    expect(entry).to_have_value("")
    expect(page.locator("#turn")).to_have_text("South (Cy) to play, trick 1.")
    expect(page.locator("#entry-sent")).to_have_text("Recorded: East (Bob) plays ♦A.")
    enter(tab, "6 3 2")
    expect(page.locator("#turn")).to_have_text("East (Bob) to play, trick 2.")
    assert trick_cells(tab, 1) == {"N": "2 of diamonds", "E": "ace of diamonds",
                                   "S": "6 of diamonds", "W": "3 of diamonds"}
    expect(page.locator("#play tr[data-trick='1'] td").last).to_have_text("East")

    enter(tab, "dk dt h4")
    banner = page.locator("#call-director")
    expect(banner).to_contain_text("Call the Director")
    expect(banner).to_contain_text("Law 61A")
    expect(banner).to_contain_text("W played H4 on trick 2, holding a card of the suit led (D)")
    expect(page.locator("#play td.revoke[data-seat='W']")).to_contain_text("revoke")
    page.locator("#director-called").click()

    enter(tab, "w:d7")
    expect(banner).to_contain_text("the revoke on trick 2 is corrected with D7; H4 is a "
                                   "penalty card")
    expect(page.locator("#play td.corrected[data-seat='W']")).to_contain_text("corrected")
    expect(page.locator("#play")).to_contain_text("West revoked on trick 2 with")
    expect(page.locator(".compass-seat.west [data-card='H4']")).to_have_attribute(
        "aria-label", "4 of hearts, a penalty card")
    expect(page.locator("#turn")).to_have_text("North (Ann) to play, trick 2.")
    enter(tab, "4")  # North: ♠4, ♦4, ♣4, but only ♦4 follows suit
    expect(page.locator("#turn")).to_have_text(  # West's ♥4 a major penalty card: Law 50D2
        "East (Bob) leads once declarer North (Ann) has chosen (require h, prohibit h, "
        "prohibit, free).")
    assert trick_cells(tab, 2)["W"] == "7 of diamonds"
    expect(page.locator(".compass-seat.east [data-card='DA']")).to_be_disabled()
    screenshot(page, "capture-play.png")

    sent = len(sent_events(tab))
    error = page.locator("#entry-error")
    for line, why in [
            ("c12", '"c12": declarer has won 0 tricks and 11 remain, so a claim is of c00 '
                    "to c11."),
            ("c7", '"c7": East does not hold the 7 of clubs.'),
            ("4", '"4": East has no 4 he may play: type the card, suit then rank.'),
            ("dispute", "Type dispute <seat>, e.g. dispute w.")]:
        entry.fill(line)
        entry.press("Enter")
        expect(error).to_have_text(why)
        expect(entry).to_have_value(line)
    assert len(sent_events(tab)) == sent

    enter(tab, "c08(drawing trumps)")
    expect(page.locator("#turn")).to_have_text("North (Ann) has claimed: agree, or dispute "
                                               "<seat>.")
    expect(page.locator("#play .play-claim")).to_contain_text(
        "North claims 8 of the 11 tricks left (8 in all): “drawing trumps”")
    enter(tab, "agree")
    expect(page.locator("#turn")).to_have_text("Play over: declarer 8 tricks, NS +90.")
    expect(page.locator("#play .play-ended")).to_have_text(
        "Play ended by a claim agreed (Law 69A). Declarer 8 tricks, NS +90.")

    board = state(stack, table, stack.director)["board"]
    assert played(tab) == [("E", "DA"), ("S", "D6"), ("W", "D3"), ("N", "D2"), ("E", "DK"),
                           ("S", "DT"), ("W", "H4"), ("W", "D7"), ("N", "D4")]
    assert [(e["type"], e["seat"]) for e in sent_events(tab)[-3:]] == [
        ("claim", "N"), ("claim_response", "E"), ("claim_response", "W")]
    assert board["play"]["revokes"] == [{"seat": "W", "trick": 2, "card": "H4",
                                         "established": False, "corrected": True}]
    assert board["penalty_cards"] == [{"seat": "W", "card": "H4", "led": False}]
    assert [a["kind"] for a in board["alerts"]] == ["revoke"]
    assert board["play"]["ended"] == "claim"
    assert board["result"] == {"declarer_tricks": 8, "score_ns": 90}
    assert serious_violations(page) == []
    assert_clean_console(tab)

    phone = capture_tab(browser, stack, table, PHONE)
    tabs.append(phone)
    expect(phone.page.locator("#play tr[data-trick]")).to_have_count(2)
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"
    assert serious_violations(phone.page) == []


def test_the_tricks_of_a_table_whose_cards_are_not_recorded(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """No card recorded: the operator types the tricks declarer made (`result 9`, Law 79A),
    the table's result, for no seat (it stands); the board's result is 2C with an overtrick,
    NS +110 (Law 77)."""
    table, _ = table_with_players(stack, "cap-result")
    tab = capture_tab(browser, stack, table)
    tabs.append(tab)
    page = tab.page
    enter(tab, AUCTION)
    expect(page.locator("#turn")).to_have_text("East (Bob) is on lead.")
    entry = page.locator("#entry-line")
    entry.fill("result 14")
    entry.press("Enter")
    expect(page.locator("#entry-error")).to_have_text(
        "Type result <declarer's tricks>, e.g. result 9.")
    enter(tab, "result 9")
    expect(page.locator("#turn")).to_have_text("Play over: declarer 9 tricks, NS +110.")
    last = {k: v for k, v in sent_events(tab)[-1].items() if k != "client_seq"}
    assert last == {"type": "result_recorded", "tricks": 9}
    board = state(stack, table, stack.director)["board"]
    assert board["result"] == {"declarer_tricks": 9, "score_ns": 110}
    assert board["play"]["ended"] == "recorded"
    assert_clean_console(tab)


def test_an_opening_lead_out_of_turn_and_declarers_option(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """East is on lead against 2C by North, but West faces ♠Q (typed `w:sq`): an opening lead
    out of turn, alerted at once with declarer's option (Law 54). Declarer, the one option
    holder, accepts it (`accept`, Law 53A): the lead stands and North, West's left, plays
    next (Law 54A)."""
    table, _ = table_with_players(stack, "cap-lead")
    tab = capture_tab(browser, stack, table)
    tabs.append(tab)
    page = tab.page
    enter(tab, AUCTION)
    enter(tab, "w:sq")
    banner = page.locator("#call-director")
    expect(banner).to_contain_text("Law 54")
    expect(banner).to_contain_text("W led SQ out of turn; E is on lead.")
    expect(page.locator("#turn")).to_have_text(
        "West (Di) led out of turn: North (Ann) may accept it (accept, decline).")
    enter(tab, "accept")
    expect(banner).to_contain_text("the lead of SQ out of turn stands: accepted.")
    expect(page.locator("#turn")).to_have_text("North (Ann) to play, trick 1.")
    assert [(e["type"], e["seat"]) for e in sent_events(tab)[-2:]] == [
        ("card_played", "W"), ("option", "N")]
    board = state(stack, table, stack.director)["board"]
    assert board["play"]["lead_out_of_turn"] is None
    assert board["play"]["tricks"] == [{"leader": "W", "cards": [{"seat": "W", "card": "SQ"}],
                                        "winner": None}]
    assert_clean_console(tab)


DEAL_STATE: dict[str, Any] = {  # 2C by North, East on lead, trick 2 led with ♦K
    "deal": "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6",
    "status": "closed", "contract": {"declarer": "N"}, "on_lead": None,
    "play": {"declarer": "N", "dummy": "S", "turn": "S", "won": {"NS": 0, "EW": 1},
             "tricks": [{"leader": "E", "winner": "E", "cards": [
                 {"seat": "E", "card": "DA"}, {"seat": "S", "card": "D6"},
                 {"seat": "W", "card": "D3"}, {"seat": "N", "card": "D2"}]},
                 {"leader": "E", "winner": None, "cards": [{"seat": "E", "card": "DK"}]}]},
    "playable": {"seat": "S", "cards": ["DJ", "DT"]},  # the server's (Law 44C)
}


@pytest.mark.parametrize(("word", "made"), [
    ("d6", {"error": '"d6": South has already played the 6 of diamonds.'}),
    ("t", {"event": {"type": "card_played", "seat": "S", "card": "DT"}}),
    ("j", {"event": {"type": "card_played", "seat": "S", "card": "DJ"}}),
    ("10d", {"event": {"type": "card_played", "seat": "S", "card": "DT"}}),
    ("s:a", {"error": '"s:a": South has no A he may play: type the card, suit then rank.'}),
    ("s:sa", {"event": {"type": "card_played", "seat": "S", "card": "SA"}}),
    ("w:h4", {"event": {"type": "card_played", "seat": "W", "card": "H4"}}),
    ("n:2", {"error": '"n:2": North\'s card is not due: type the card, suit then rank.'}),
    ("e:7", {"error": '"e:7": East\'s card is not due: type the card, suit then rank.'}),
    ("c10", {"event": {"type": "claim", "seat": "N", "tricks": 10, "statement": ""}}),
    ("c00(none)", {"event": {"type": "claim", "seat": "N", "tricks": 0,
                             "statement": "none"}}),
    ("c13", {"error": '"c13": declarer has won 0 tricks and 12 remain, so a claim is of c00 '
                      "to c12."}),
    ("ct", {"event": {"type": "card_played", "seat": "S", "card": "CT"}}),
    ("c1", {"error": '"c1" is not a card or a claim: type e.g. sa, h4, 4 (the rank alone when '
                     "the suit is forced), w:d7 or c10"}),
    ("x:4", {"error": '"x:" is not a seat: n, e, s or w'}),
])
def test_the_plays_syntax(stack: Stack, browser: Browser, tabs: list[Tab], word: str,
                          made: dict[str, Any]) -> None:
    """Each word of the play read by the page's own modules against a state: the card and its
    hand (the rank alone when one card of that rank may be played by the hand due, the
    server's `playable`: Law 44C; another hand's card typed whole), a claim in all
    made the claim event's tricks of those left (Law 68), or the error that says why."""
    if not tabs:
        tabs.append(open_tab(browser, f"{stack.url}/capture"))
    assert read_word(tabs[0], word, DEAL_STATE) == made


def read_word(tab: Tab, word: str, board: dict[str, Any]) -> Any:
    """A word of the play read by the page's own modules against `board`."""
    return tab.page.evaluate(
        """async ([word, board]) => {
          const { parseEntry } = await import("/web/capture-entry.js");
          const { playEvent } = await import("/web/capture-play.js");
          const read = parseEntry(word, { play: true });
          return read.error ? { error: read.error } : playEvent(read.plays[0], board);
        }""", [word, board])


OPENING_STATE: dict[str, Any] = {  # 4S by North, East on lead, nothing played yet
    "deal": DEAL_STATE["deal"], "status": "closed", "contract": {"declarer": "N"},
    "on_lead": "E", "play": None,
    "playable": {"seat": "E", "cards": ["SJ", "ST", "S9", "S8", "S7", "HQ", "H8", "H7", "H6",
                                        "DA", "DK", "D5", "C2"]},
}
HEARTS_REQUIRED = {"seat": "E", "cards": ["HQ", "H8", "H7", "H6"]}  # declarer's option, 50D2


@pytest.mark.parametrize(("word", "playable", "made"), [
    ("7", None, {"error": '"7": East may play the 7 of spades or the 7 of hearts: type the '
                          "suit too, e.g. s7."}),
    ("2", None, {"event": {"type": "card_played", "seat": "E", "card": "C2"}}),
    ("8", HEARTS_REQUIRED, {"event": {"type": "card_played", "seat": "E", "card": "H8"}}),
    ("a", HEARTS_REQUIRED, {"error": '"a": East has no A he may play: type the card, suit '
                                     "then rank."}),
])
def test_the_rank_alone_is_read_among_the_cards_the_server_says_the_hand_may_play(
        stack: Stack, browser: Browser, tabs: list[Tab], word: str,
        playable: dict[str, Any] | None, made: dict[str, Any]) -> None:
    """The opening lead (Law 41A): the rank alone is read among the state's `playable`, so a
    lead declarer's option narrows (Law 50D2: hearts required) reads `8` as the ♥8, not as
    ♠8 or ♥8; two cards of the rank among them: the page asks for the suit."""
    if not tabs:
        tabs.append(open_tab(browser, f"{stack.url}/capture"))
    board = {**OPENING_STATE, "playable": playable or OPENING_STATE["playable"]}
    assert read_word(tabs[0], word, board) == made
