"""The Director's console in the catalogues (pages.md, "Languages and high contrast"): a timed
Howell running (the round's clock, docs/scoring.md) with an insufficient bid at a table (Law 27:
the alert in the queue), walked in the pseudo-language through what a Director reaches (the
queue, the table with its ruling form, a ruling refused, the robots and the record; the
tournament's overview, clock, standings and score form; the players' links, the links sheet;
creating and entries): every text, label and title comes from the catalogue but the names,
the alerts' and the server's words. In French, chosen by the console's switch, at 1280 px:
bridge French ("Arbitre", "Donne", "manche", "Loi"), axe-core finding nothing moderate or
worse."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    DESKTOP,
    MODERATE,
    Tab,
    assert_clean_console,
    open_tab,
    post,
    screenshot,
    serious_violations,
)
from tests.browser.catalogue_words import PSEUDO, unwrapped_words, wrapped_share
from tests.helpers import DEALS, wait_for_auction
from tests.stack import Stack

expect.set_options(timeout=15_000)

T = "dlang"
TABLE = f"{T}-a"
PAIRS = [{"name": f"pair {n}", "players": [f"L{n}a", f"L{n}b"]} for n in range(1, 5)]


@pytest.fixture(scope="module")
def running(stack: Stack) -> Iterator[str]:
    """A timed Howell in its first round; at its first table North opens 1S and East's 1H is
    insufficient (Law 27), an alert for the Director."""
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": [TABLE, f"{T}-b"], "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 2, "minutes_per_board": 5}})
        assert made.status_code == 201, made.text
        seats = {line["table"]: line["seats"] for line in made.json()["tables"]}[TABLE]
        assert http.post(f"/api/tournaments/{T}/rounds", json={"round": 1}).status_code == 202
        wait_for_auction(http, TABLE, 1)
    post(stack, TABLE, seats["N"], {"type": "call", "call": "1S"})
    post(stack, TABLE, seats["E"], {"type": "call", "call": "1H"})
    yield T


def console_in(browser: Browser, stack: Stack, lang: str | None) -> Tab:
    query = f"?lang={lang}" if lang else ""
    tab = open_tab(browser, f"{stack.url}/director{query}#{stack.director}", DESKTOP)
    expect(tab.page.locator("#connection")).to_have_attribute("data-state", "open")
    return tab


def open_tournament(page: Page) -> None:
    page.locator(".tab[data-tab='tournament']").click()
    page.select_option("#tournament-pick", T)
    expect(page.locator("#overview tr[data-table]")).to_have_count(2)
    expect(page.locator("#clock-left")).to_be_visible()


def open_alerted_table(page: Page) -> None:
    page.select_option("#filter-table", TABLE)
    item = page.locator("#alert-list .queue-item").first
    expect(item).to_be_visible()
    item.locator(".open-table").click()
    expect(page.locator("#tab-table")).to_be_visible()
    expect(page.locator("#auction")).not_to_be_empty()
    expect(page.locator("#record li").first).to_be_attached()  # in its fold


def test_every_text_of_the_console_comes_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab], running: str) -> None:
    """In the pseudo-language, every state a Director reaches in a running tournament: the
    alert (Law 27) in the queue and its table opened, the ruling form for an adjusted score
    (Law 12C) and its refusal, the robots' panel, the overview with the round's clock, the
    score form's own refusal (a weighted score, Law 12C1(c), written wrong), the players'
    links and the links sheet: no text, label or title outside the catalogue."""
    tab = console_in(browser, stack, PSEUDO)
    tabs.append(tab)
    page = tab.page
    found: dict[str, list[str]] = {}
    expect(page.locator("#table-list button[data-table]").first).to_be_visible()
    assert wrapped_share(page) > 15  # the shown texts wrapped: the pseudo-language is on
    found["tables"] = unwrapped_words(page)

    open_alerted_table(page)
    expect(page.locator("#robot-status")).not_to_be_empty()
    found["the table"] = unwrapped_words(page)
    page.select_option("#ruling-action", "adjusted_score")
    page.locator("#ruling-form button[type='submit']").click()
    expect(page.locator("#ruling-result")).to_have_class(re.compile(r"\berror\b"))
    page.locator("#record-fold summary").click()
    found["a ruling refused"] = unwrapped_words(page)

    open_tournament(page)
    expect(page.locator("#tournament-totals")).not_to_be_empty()
    page.select_option("#score-kind", "weighted")
    page.fill("#score-board", "1")
    page.fill("#score-ns", "1")
    page.fill("#score-ew", "2")
    page.fill("#score-parts", "sixty")
    page.locator("#score-form button[type='submit']").click()
    expect(page.locator("#score-result")).to_have_class(re.compile(r"\berror\b"))
    found["the tournament"] = unwrapped_words(page)

    page.locator("#players-show").click()
    expect(page.locator("#players-list tbody tr")).to_have_count(8)
    page.locator("#players-list .player-move").first.click()
    expect(page.locator("#players-move")).to_be_visible()
    page.locator("#players-move-cancel").click()
    page.locator("#players-list .player-reissue").first.click()
    expect(page.locator("#players-confirm")).to_be_visible()
    found["the players"] = unwrapped_words(page)
    page.locator("#players-confirm-no").click()

    page.locator("#tournament-links").click()
    expect(page.locator("#links-panel")).to_be_visible()
    found["the links"] = unwrapped_words(page)

    page.locator(".tab[data-tab='entries']").click()
    page.fill("#entries-tournament", f"{T}-entries")
    page.fill("#entries-deals", DEALS)
    page.locator("#entries-open-form button[type='submit']").click()
    expect(page.locator("#entries-open-result")).to_contain_text("⟦Entries open")
    expect(page.locator("#entries-summary")).not_to_be_empty()
    expect(page.locator("#entries-list")).not_to_be_empty()
    found["entries"] = unwrapped_words(page)
    assert {where: words for where, words in found.items() if words} == {}
    assert tab.errors == [] and tab.csp_violations() == []
    assert tab.console == ["Failed to load resource: the server responded with a status "
                           "of 400 (Bad Request)"]  # the ruling refused, no text missing


def test_the_console_in_french_by_its_switch_at_1280(
        stack: Stack, browser: Browser, tabs: list[Tab], running: str) -> None:
    """The console opens in the browser's language (English); its switch puts it in French,
    kept when read again: the Director ("Console de l'Arbitre"), the alert's table and board
    ("donne"), the ruling form ("Rendre une décision", "Loi"), an adjusted score (Law 12C:
    "score ajusté"), a procedural penalty (Law 90: "pénalité"), the round ("manche") and its
    clock. axe-core finds nothing moderate or worse."""
    tab = console_in(browser, stack, None)
    tabs.append(tab)
    page = tab.page
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#title")).to_have_text("Director's console")
    page.select_option("#director-prefs-lang", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.reload()  # the Director's choice, kept in this browser
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#director-prefs-lang")).to_have_value("fr")
    expect(page.locator("#title")).to_have_text("Console de l'Arbitre")
    expect(page.locator("#connection")).to_have_text("Connecté")
    expect(page.locator("#queue-summary")).to_have_text(re.compile(r"^\d+ alertes? à traiter$"))
    expect(page.locator(".tab[data-tab='tournament']")).to_have_text("Tournoi")

    open_alerted_table(page)
    expect(page.locator("#alert-list .queue-item .queue-where strong").first).to_have_text(
        f"Table {TABLE}, donne 1")
    expect(page.locator("#table-info")).to_contain_text("Donne 1 · Donneur Nord")
    expect(page.locator("#ruling-form h3")).to_have_text("Rendre une décision")
    page.select_option("#ruling-action", "adjusted_score")
    expect(page.locator("#ruling-action option:checked")).to_have_text(
        "Attribuer un score ajusté")
    expect(page.locator("#ruling-does")).to_contain_text("Lois 12C")
    expect(page.locator("#ruling-law")).to_have_attribute("placeholder", "12C")
    expect(page.locator("#robot-status")).to_have_text("Aucun robot à cette table.")

    open_tournament(page)
    expect(page.locator("#clock-left")).to_have_text(re.compile(r"restant dans la manche$"))
    expect(page.locator("#round-form h3")).to_have_text("Commencer une manche")
    page.select_option("#score-kind", "penalty")
    expect(page.locator("#score-kind option:checked")).to_have_text(
        "Pénalité de procédure (Loi 90)")
    expect(page.locator("#overview thead th").nth(1)).to_have_text("Donne")
    screenshot(page, "director-fr.png")
    assert serious_violations(page, MODERATE) == []
    page.locator("#director-prefs-contrast").check()  # the look, kept in this browser too
    expect(page.locator("html")).to_have_class(re.compile(r"\bhigh-contrast\b"))
    page.reload()
    expect(page.locator("#director-prefs-contrast")).to_be_checked()
    expect(page.locator("html")).to_have_class(re.compile(r"\bhigh-contrast\b"))
    color = page.evaluate("getComputedStyle(document.getElementById('queue-title')).color")
    page.locator("#director-prefs-contrast").uncheck()
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bhigh-contrast\b"))
    assert page.evaluate("getComputedStyle(document.getElementById('queue-title')).color") != color
    assert_clean_console(tab)
