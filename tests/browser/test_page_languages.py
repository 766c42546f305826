"""The pages' words in catalogues (pages.md, "Languages and high contrast"): the seat page and
the player's page take every text from web/lang/<language>.json (found by the
pseudo-language, each catalogue text wrapped ⟦…⟧, in every state a board goes through); a
board played in French at 1280 px and at 375 px, the language chosen by the page's switch and
kept; the high-contrast look by its switch, kept, axe-core finding nothing moderate or worse.
Board 2 of tests/helpers.py's DEAL (dealer East): South's 1♠ (alerted, explained when West
asks, Law 20F), West leads (Law 41A), North is dummy (Law 41D), South claims (Law 68) and the
defenders agree (Law 69A)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    DESKTOP,
    MODERATE,
    PHONE,
    SEATS,
    Tab,
    assert_clean_console,
    cards_of,
    open_tab,
    post,
    screenshot,
    serious_violations,
)
from tests.browser.catalogue_words import PSEUDO, unwrapped_words, wrapped_share
from tests.browser.test_play import legal
from tests.browser.test_table import board_two, no_sideways_scroll
from tests.integration.test_player_links import create, round_played
from tests.stack import Stack

expect.set_options(timeout=10_000)

DECLARER = "S"
EXPLANATION = "five or more spades"


def seat_in(browser: Browser, stack: Stack, token: str, lang: str | None,
            viewport: Any = None) -> Tab:
    """A seat's page in `lang` (None: the browser's, English here), its hand shown."""
    query = f"?lang={lang}" if lang else ""
    tab = open_tab(browser, f"{stack.url}/seat{query}#{token}", viewport)
    expect(tab.page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(tab.page.locator("[data-hand] [data-card]")).to_have_count(13)
    return tab


def play_next_card(stack: Stack, table: str, seats: dict[str, str], reader: Tab) -> str:
    """The next card of the play, the lowest legal one (Law 44C), by its hand's token."""
    state = reader.states()[-1]
    turn = state["play"]["turn"]
    card = sorted(legal(state, turn))[0]
    dummy = state["play"]["dummy"]
    by = state["play"]["declarer"] if turn == dummy else turn
    post(stack, table, seats[by], {"type": "card_played", "card": card,
                                   **({"seat": turn} if by != turn else {})})
    expect(reader.page.locator(f".trick-slot[data-card='{card}']")).to_have_count(1)
    return card


def test_every_text_of_the_seat_and_player_pages_comes_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """In the pseudo-language, at each state of the board (the auction, an alerted call asked
    about and explained, Law 20F; the opening lead, Law 41A; dummy faced, Law 41D; a trick
    won and the last trick shown, Law 66; the claim form and the claim, Law 68; the defenders'
    agreement and the result, Law 69A), no seat's page has a text, label or title that is
    not from the catalogue; nor the spectator's vugraph page, live and replaying each event
    of the board; nor the player's page."""
    table = "pseudo-words"
    tokens = board_two(stack, table)
    seats = tokens["seats"]
    pages = {seat: seat_in(browser, stack, seats[seat], PSEUDO,
                           PHONE if seat == "W" else DESKTOP) for seat in SEATS}
    spectator = open_tab(browser, f"{stack.url}/vugraph?lang={PSEUDO}#{tokens['spectator']}")
    expect(spectator.page.locator("#connection")).to_have_attribute("data-state", "open")
    pages["vugraph"] = spectator
    tabs.extend(pages.values())
    found: dict[str, list[str]] = {}

    def look(where: str, *only: str) -> None:
        for seat in only or [*SEATS, "vugraph"]:
            page = pages[seat].page
            assert wrapped_share(page) > 20, (where, seat)  # the pseudo-language is on
            words = unwrapped_words(page)
            if words:
                found[f"{where}, {seat}"] = words

    look("the auction starts")
    post(stack, table, seats["E"], {"type": "call", "call": "P"})
    south, west = pages["S"].page, pages["W"].page
    south.check("#self-alert")
    south.fill("#self-explanation", EXPLANATION)
    south.locator("#bidding-box button[data-call='1S']").click()
    west.locator(".auction button[data-index='1']").click()  # West asks (Law 20F1)
    west.locator("#ask").click()
    expect(south.locator("#questions form")).to_have_count(1)
    look("an alerted call asked about", "S", "W")
    south.locator("#questions input").fill("natural, 11-15")
    south.locator("#questions button[type='submit']").click()
    expect(west.locator("#ask")).to_be_disabled()
    for seat in ("W", "N", "E"):
        post(stack, table, seats[seat], {"type": "call", "call": "P"})
    expect(west.locator("#hand.to-act")).to_have_count(1)
    look("West on lead")
    west.locator(f"#hand button[data-card='{sorted(cards_of('W'))[0]}']").click()
    expect(south.locator("#middle .trick-slot.led")).to_have_count(1)
    look("the lead faced, dummy shown")
    for _ in range(3):
        play_next_card(stack, table, seats, pages[DECLARER])
    expect(south.locator("#last-trick-button")).to_be_visible()
    south.locator("#last-trick-button").click()
    expect(south.locator("#last-trick .trick")).to_have_count(1)
    look("a trick won, the last trick shown")
    south.locator(".claim-form summary").click()
    expect(south.locator("#claim-tricks")).to_be_visible()
    look("the claim form", "S")
    south.locator("#claim-tricks").fill("12")
    south.locator("#claim-statement").fill("all trumps then the rest")
    south.locator("#claim-send").click()
    expect(pages["E"].page.locator("#claim-accept")).to_be_visible()
    look("a claim to answer")
    for seat in "EW":
        pages[seat].page.locator("#claim-accept").click()
    for tab in pages.values():
        expect(tab.page.locator("#result .score-line")).to_be_visible()
    look("the board's result")
    for tab in pages.values():
        assert_clean_console(tab)

    vugraph = spectator.page  # the board replayed, each event's words
    vugraph.locator("#replay-load").click()
    expect(vugraph.locator("#mode")).to_have_attribute("data-mode", "replay")
    count = int(vugraph.locator("#replay-slider").get_attribute("max") or "0") + 1
    assert count > 10
    vugraph.locator("h1").click()  # the focus off the slider: the page's own keys
    for index in range(count):
        expect(vugraph.locator("#replay-slider")).to_have_value(str(index))
        look(f"the replay's event {index + 1}", "vugraph")
        vugraph.keyboard.press("ArrowRight")

    player = open_tab(browser, f"{stack.url}/play?lang={PSEUDO}")  # no player's link
    tabs.append(player)
    expect(player.page.locator("#play-connection")).to_have_attribute("data-state", "refused")
    words = unwrapped_words(player.page)
    if words:
        found["the player's page, refused"] = words
    assert found == {}


def auction_labels(page: Page) -> list[str]:
    labels: list[str] = page.locator(".auction tbody td:not(.next) > [aria-label]").evaluate_all(
        "els => els.map(e => e.ariaLabel)")
    return labels


def test_a_board_in_french_at_1280_and_375_the_language_kept_from_the_switch(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """South's page opens in the browser's language (English), his switch puts it in French
    (<html lang="fr">), and it stays French when opened again; West's phone in French. The
    board in bridge French: the auction (Passe, 1♠: "1 pique"), the contract ("1♠ par Sud"),
    West's opening lead (Law 41A: "à l'entame"), declarer playing from dummy (Law 45:
    "du mort"). axe-core finds nothing moderate or worse at either width."""
    table = "en-francais"
    seats = board_two(stack, table)["seats"]
    south_tab = seat_in(browser, stack, seats["S"], None)
    tabs.append(south_tab)
    south = south_tab.page
    expect(south.locator("html")).to_have_attribute("lang", "en")
    expect(south.locator("#connection")).to_have_text("Connected")
    south.select_option("#seat-prefs-lang", "fr")
    expect(south.locator("html")).to_have_attribute("lang", "fr")
    expect(south.locator("#connection")).to_have_text("Connecté")
    south.reload()  # the reader's choice, kept in this browser
    expect(south.locator("html")).to_have_attribute("lang", "fr")
    expect(south.locator("#seat-prefs-lang")).to_have_value("fr")
    west_tab = seat_in(browser, stack, seats["W"], "fr", PHONE)
    tabs.append(west_tab)
    west = west_tab.page
    expect(south.locator("#board-box")).to_contain_text("Donne 2")
    expect(south.locator("#board-box")).to_contain_text("Donneur Est")
    expect(south.locator("#box-title")).to_have_text("Boîte à enchères")
    expect(south.locator("#bidding-box button[data-call='P']")).to_have_text("Passe")
    expect(south.locator("#bidding-box button[data-call='2NT']")).to_have_text("2SA")
    post(stack, table, seats["E"], {"type": "call", "call": "P"})
    expect(south.locator("#turn")).to_have_text("À vous d'enchérir.")
    south.locator("#bidding-box button[data-call='1S']").click()
    for seat in ("W", "N", "E"):
        post(stack, table, seats[seat], {"type": "call", "call": "P"})
    expect(south.locator("#contract")).to_have_text("Contrat : 1♠ par Sud")
    assert [label.split(",")[0] for label in auction_labels(south)] == [
        "Est : passe", "Sud : 1 pique", "Ouest : passe", "Nord : passe", "Est : passe"]
    expect(west.locator("#turn")).to_have_text(
        "Vous êtes à l'entame : choisissez une carte de votre main.")
    west.locator(f"#hand button[data-card='{sorted(cards_of('W'))[0]}']").click()
    expect(south.locator("#turn")).to_have_text("À vous de jouer du mort (Nord).")
    expect(south.locator("#trick-note")).to_have_text("Levée 1")
    expect(south.locator("[data-seat='N'] .plate .badge.role")).to_contain_text("mort")
    expect(west.locator(".claim-form summary")).to_have_text("Réclamer (Loi 68)")
    screenshot(south, "seat-fr.png")
    screenshot(west, "seat-fr-phone.png")
    no_sideways_scroll(west)
    found = {f"{width}": serious_violations(page, MODERATE)
             for width, page in (("1280", south), ("375", west))}
    assert {width: v for width, v in found.items() if v} == {}
    for tab in (south_tab, west_tab):
        assert_clean_console(tab)


def test_the_high_contrast_look_by_its_switch_kept_and_axe_clean(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The switch puts the page in high contrast (kept when opened again): black on white,
    the red suits black too (a suit known by its symbol, not its colour), the seat to act
    yellow with its badge's word, a thick focus outline; axe-core finds nothing moderate or
    worse, at 1280 px and 375 px, in the play (Law 41D: dummy faced)."""
    table = "contrast"
    seats = board_two(stack, table)["seats"]
    south_tab = seat_in(browser, stack, seats["S"], None)
    west_tab = seat_in(browser, stack, seats["W"], None, PHONE)
    tabs.extend([south_tab, west_tab])
    south, west = south_tab.page, west_tab.page
    heart = south.locator("#hand .suit-row.suit-H").first
    red = heart.evaluate("e => getComputedStyle(e).color")
    for page in (south, west):
        page.check("#seat-prefs-contrast")
        expect(page.locator("html")).to_have_class(re.compile(r"\bhigh-contrast\b"))
    assert heart.evaluate("e => getComputedStyle(e).color") == "rgb(0, 0, 0)" != red
    for seat, call in (("E", "P"), ("S", "1S"), ("W", "P"), ("N", "P"), ("E", "P")):
        post(stack, table, seats[seat], {"type": "call", "call": call})
    expect(west.locator("#hand.to-act")).to_have_count(1)
    west.locator(f"#hand button[data-card='{sorted(cards_of('W'))[0]}']").click()
    south.reload()
    expect(south.locator("html")).to_have_class(re.compile(r"\bhigh-contrast\b"))
    expect(south.locator("#seat-prefs-contrast")).to_be_checked()
    expect(south.locator("#play-table [data-seat='N'] [data-hand]")).to_be_visible()
    south.keyboard.press("Tab")
    outline = south.evaluate("getComputedStyle(document.activeElement).outlineWidth")
    assert float(outline.removesuffix("px")) >= 4, outline
    screenshot(south, "seat-contrast.png")
    screenshot(west, "seat-contrast-phone.png")
    found = {f"{width}": serious_violations(page, MODERATE)
             for width, page in (("1280", south), ("375", west))}
    assert {width: v for width, v in found.items() if v} == {}


def test_every_text_of_the_players_page_comes_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """A Howell's player on his one link in the pseudo-language: the lobby, seated in round 1
    (the seat page inside the play page), between the rounds with his running score, seated
    in round 2: no text, label or title that is not from the catalogue."""
    t = "pseudo-evening"
    found: dict[str, list[str]] = {}
    with stack.client(stack.director) as director:
        links = create(director, t)
        tab = open_tab(browser, f"{stack.url}/play?lang={PSEUDO}#{links[2, 1]}")
        tabs.append(tab)
        page = tab.page

        def look(phase: str) -> None:
            expect(page.locator("body")).to_have_attribute("data-phase", phase)
            assert wrapped_share(page) > 3, phase
            words = unwrapped_words(page)
            if words:
                found[phase] = words

        expect(page.locator("#play-entrants li")).to_have_count(4)
        look("lobby")
        for rnd in (1, 2):
            started = director.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
            assert started.status_code == 202, started.text
            expect(page.locator("#hand [data-hand] [data-card]")).to_have_count(13)
            expect(page.locator("#connection")).to_have_attribute("data-state", "open")
            expect(page.locator("#play-connection")).to_have_text("⟦Connected⟧")  # its own
            look("seated")
            if rnd == 1:
                round_played(stack, links, [1, 2])
                expect(page.locator("#play-score")).to_be_visible()
                look("between")
    assert found == {}
