"""The director's console and the play, in a real browser (tests/browser/browser.py): a revoke
and a disputed claim reach the alert queue with their Law and words; the table shows the
board's play trick by trick (play_record.js); the Director rules the tricks from the console's
form, which says what it does, and the board gets its result; a ruling the server refuses
changes nothing; at 375 px, with no serious axe-core finding. The deal is tests/helpers.py's
DEAL (North 4.KJ32.842.AQ743, East JT987.Q876.AK5.2, South AK532.T.JT6.T985, West
Q6.A954.Q973.KJ6)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    history,
    post,
    screenshot,
    serious_violations,
    table_with_players,
)
from tests.browser.test_director import console_tab, give_ruling, queue_items
from tests.helpers import state
from tests.stack import Stack

expect.set_options(timeout=10_000)


def test_a_disputed_claim_reaches_the_director_who_rules_the_tricks(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """2C by North; East leads ♦A and ♦K. West plays ♥4 to the second trick holding diamonds:
    a revoke (Law 61A), in the queue at once; he corrects it with ♦7 (Law 62A). North claims
    8 tricks in all (Law 68); East agrees, West disputes: play ceases and the Director is
    called (Laws 68D, 70), in the queue with the Law and its words. The console shows the two
    tricks and the claim; a `tricks` ruling with no number is refused, naming the field, and
    changes nothing; the Director rules 7 tricks (Law 70): the play ends, 2C one down, NS -50
    (Law 77)."""
    table, tokens = table_with_players(stack, "dir-claim")
    director = console_tab(browser, stack)
    tabs.append(director)
    page = director.page
    seats = tokens["seats"]
    for seat, call in [("N", "1C"), ("E", "P"), ("S", "1S"), ("W", "P"), ("N", "2C"),
                       ("E", "P"), ("S", "P"), ("W", "P")]:
        post(stack, table, seats[seat], {"type": "call", "call": call})
    for seat, card in [("E", "DA"), ("S", "D6"), ("W", "D3"), ("N", "D2"), ("E", "DK"),
                       ("S", "DT"), ("W", "H4"), ("W", "D7"), ("N", "D4")]:
        # declarer plays dummy's cards (Law 45); West's revoke and its correction
        hand = "N" if seat == "S" else seat
        post(stack, table, seats[hand], {"type": "card_played", "card": card,
                                         **({"seat": "S"} if seat == "S" else {})})
    items = queue_items(page, table)
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("Law 61A W played H4 on trick 2, holding a card of "
                                        "the suit led (D): a revoke.")
    expect(items.first).to_contain_text("W corrects it by playing a D from W's hand (Law 62A)")

    post(stack, table, seats["N"], {"type": "claim", "tricks": 8,
                                    "statement": "trumps drawn, the clubs run"})
    post(stack, table, seats["E"], {"type": "claim_response", "accept": True})
    post(stack, table, seats["W"], {"type": "claim_response", "accept": False})
    expect(items).to_have_count(2)
    claim = items.first
    expect(claim).to_contain_text("Law 68D W disputes N's claim of 8 of the 11 remaining "
                                  "tricks: play ceases.")
    expect(claim).to_contain_text("the Director rules the tricks (Laws 70, 71)")

    claim.locator(".open-table").click()
    record = page.locator("#play")
    expect(record.locator("tr[data-trick]")).to_have_count(2)
    expect(record.locator("tr[data-trick='2'] td.corrected[data-seat='W']")).to_contain_text(
        "♦7")
    expect(record.locator(".play-claim")).to_have_text(
        "North claims 8 of the 11 tricks left (8 in all): “trumps drawn, the clubs run” — East "
        "agrees, West disputes. Disputed: the Director rules the tricks (Laws 68D, 70, 71).")
    expect(page.locator("#table-info")).to_have_text(
        "Board 1 · Dealer North · Vulnerable: None · auction over · North has claimed")

    page.select_option("#ruling-action", "tricks_revoke")
    expect(page.locator("#ruling-does")).to_contain_text("(Law 64C)")
    page.select_option("#ruling-action", "tricks")
    expect(page.locator("#ruling-does")).to_have_text(
        "Declarer wins this many tricks in all, those already won included, and the play ends: "
        "a disputed claim or concession (Laws 68D, 70, 71), or an agreement withdrawn (69B). "
        "The board's result and score follow from it.")
    expect(page.locator("#ruling-tricks")).to_have_value("8")  # what declarer claimed
    expect(page.locator("#ruling-score")).to_be_hidden()

    before = history(stack, table, stack.director)["history"]
    give_ruling(page, "tricks", tricks="", law="70")
    expect(page.locator("#ruling-result")).to_contain_text("Refused:")
    expect(page.locator("#ruling-result")).to_contain_text("(Declarer's tricks in all)")
    expect(page.locator("#ruling-tricks")).to_have_attribute("aria-invalid", "true")
    assert history(stack, table, stack.director)["history"] == before

    page.locator("#ruling-tricks").fill("7")
    page.locator("#ruling-note").fill("the club finesse loses")
    page.locator("#ruling-tricks").press("Enter")  # the keyboard submits the form
    expect(page.locator("#ruling-result")).to_have_text(
        "Ruling given: rule the tricks on a claim.")
    expect(page.locator("#director")).to_contain_text(
        "The Director's ruling (Law 70): declarer wins 7 tricks in all; the play ends — the "
        "club finesse loses.")
    expect(record.locator(".play-ended")).to_have_text(
        "Play ended by the Director's ruling on the tricks (Laws 64C, 69B, 70, 71). "
        "Declarer 7 tricks, NS -50.")
    expect(page.locator("#record li").last).to_have_text(
        "The Director's ruling (Law 70): declarer wins 7 tricks in all; the play ends — the "
        "club finesse loses.")
    expect(page.locator("#record")).to_contain_text("North (Ann) claims 8 of the tricks left.")
    expect(page.locator(".compass-seat.west [data-card='D7']")).to_have_class(
        re.compile(r"\bgone\b"))
    page.locator("#play-fold summary").click()  # the play, folded until opened
    screenshot(page, "director-claim.png")
    board = state(stack, table, stack.director)["board"]
    assert board["result"] == {"declarer_tricks": 7, "score_ns": -50}
    assert board["play"]["ended"] == "ruling"
    assert [(r["action"], r["tricks"], r["law"]) for r in board["rulings"]] == [
        ("tricks", 7, "70")]
    assert serious_violations(page) == []

    page.set_viewport_size(PHONE)
    expect(record.locator("tr[data-trick]")).to_have_count(2)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the console is {width} px wide"
    assert serious_violations(page) == []
    assert director.errors == [] and director.csp_violations() == []
    assert director.console == ["Failed to load resource: the server responded with a status "
                                "of 400 (Bad Request)"]  # the refusal, and nothing else
