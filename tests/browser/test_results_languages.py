"""The results page's words in the catalogues (pages.md, "Languages and high contrast"): a
Mitchell played to its end (Law 79A: each board's tricks recorded) with an adjusted score
(Law 12C1(c)) and a procedural penalty (Law 90), and a team match to victory points (Law
78B): in the pseudo-language every text of the page, its rankings, travellers, hand records,
scorecards and the Director's scores, comes from the catalogue; in French, chosen by the
page's switch, at 1280 px and at 375 px, axe-core finding nothing moderate or worse."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    DESKTOP,
    MODERATE,
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.browser.catalogue_words import PSEUDO, unwrapped_words, wrapped_share
from tests.browser.results_play import create_mitchell, play_match, play_round
from tests.stack import Stack

expect.set_options(timeout=10_000)

PAIRS_EVENT = "rlang-pairs"
TEAMS_EVENT = "rlang-teams"
REASON = "misinformation (Law 21B)"


@pytest.fixture(scope="module")
def finished(stack: Stack) -> Iterator[str]:
    """The Mitchell played to its end, a weighted score and a penalty given by the Director."""
    with stack.client(stack.director) as http:
        seats = create_mitchell(http, PAIRS_EVENT)
        for rnd in (1, 2):
            play_round(http, PAIRS_EVENT, seats, rnd)
        given = http.post(f"/api/tournaments/{PAIRS_EVENT}/scores", json={
            "kind": "weighted", "board": 1, "ns": 1, "ew": 4, "reason": REASON,
            "parts": [{"percent": 60, "score_ns": 2000}, {"percent": 40, "score_ns": -2000}]})
        assert given.status_code == 202, given.text
        fined = http.post(f"/api/tournaments/{PAIRS_EVENT}/scores", json={
            "kind": "penalty", "board": 2, "entrant": 3, "amount": 10,
            "reason": "slow play (Law 90B2)"})
        assert fined.status_code == 202, fined.text
    yield PAIRS_EVENT


def results_in(browser: Browser, stack: Stack, event: str, lang: str | None,
               viewport: dict[str, int] = DESKTOP) -> Tab:
    """The results of `event` in `lang` (None: the browser's, English here), every board's
    traveller and hand record shown."""
    query = f"?lang={lang}" if lang else ""
    tab = open_tab(browser, f"{stack.url}/results{query}#{event}", viewport)
    expect(tab.page.locator("#connection")).to_have_attribute("data-state", "open")
    return tab


def all_shown(page: Page) -> None:
    expect(page.locator("#travellers .traveller")).to_have_count(6)
    expect(page.locator("#travellers .hand-record[data-status='ready']")).to_have_count(
        6, timeout=60_000)
    expect(page.locator("#director li")).to_have_count(2)


def test_every_text_of_the_results_page_comes_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab], finished: str) -> None:
    """In the pseudo-language: a Mitchell's results (the rankings by direction, each
    traveller with its hand record, a weighted score, Law 12C1(c), and a penalty, Law 90),
    a pair's scorecard, and a team match's (Law 78B): no text, label or title that is not
    from the catalogue but the names and the Director's reasons."""
    found: dict[str, list[str]] = {}
    tab = results_in(browser, stack, finished, PSEUDO)
    tabs.append(tab)
    page = tab.page
    all_shown(page)
    page.select_option("#scorecard-pick", "4")
    expect(page.locator(".scorecard[data-entrant='4'] tbody tr")).to_have_count(4)
    assert wrapped_share(page) > 50
    found["pairs"] = unwrapped_words(page)
    assert_clean_console(tab)

    with stack.client(stack.director) as http:
        play_match(http, TEAMS_EVENT)
    page.evaluate(f"window.location.hash = '#{TEAMS_EVENT}'")
    expect(page.locator("#travellers .traveller[data-match='1-2'] tbody tr")).to_have_count(4)
    expect(page.locator("#rankings tr[data-entrant]")).to_have_count(2)
    found["teams"] = unwrapped_words(page)

    page.evaluate("window.location.hash = '#rlang-none'")  # the server's refusal, as sent
    expect(page.locator("#connection")).to_have_attribute("data-state", "refused")
    found["none such"] = unwrapped_words(page)
    assert {where: words for where, words in found.items() if words} == {}


def test_the_results_in_french_at_1280_and_375_by_the_switch(
        stack: Stack, browser: Browser, tabs: list[Tab], finished: str) -> None:
    """The page opens in the browser's language (English) and its switch puts it in French,
    kept when opened again: the rankings per direction ("Paires Nord–Sud"), a traveller's
    contract in French ("1SA", the declarer "N"), the weighted score (Law 12C1(c):
    "pondérée"), the penalty (Law 90: "Loi 90"), the hand record's "Donneur". axe-core finds
    nothing moderate or worse at either width, and the phone does not scroll sideways."""
    desk_tab = results_in(browser, stack, finished, None)
    tabs.append(desk_tab)
    desk = desk_tab.page
    expect(desk.locator("html")).to_have_attribute("lang", "en")
    expect(desk.locator("#connection")).to_have_text("Live")
    desk.select_option("#results-prefs-lang", "fr")
    expect(desk.locator("html")).to_have_attribute("lang", "fr")
    desk.reload()  # the reader's choice, kept in this browser
    expect(desk.locator("html")).to_have_attribute("lang", "fr")
    expect(desk.locator("#results-prefs-lang")).to_have_value("fr")
    all_shown(desk)
    expect(desk.locator("#connection")).to_have_text("En direct")
    expect(desk.locator("#title")).to_have_text(f"Résultats — {finished}")
    expect(desk.locator("#summary")).to_have_text(
        "6 paires · Mitchell · tour 2 sur 2 · 6 donnes terminées")
    expect(desk.locator("#rankings caption")).to_have_count(2)
    assert sorted(desk.locator("#rankings caption").all_inner_texts()) == [
        "Paires Est–Ouest", "Paires Nord–Sud"]
    board = desk.locator(".traveller[data-board='1']")
    expect(board.locator("th")).to_contain_text(["Contrat", "Entame", "Levées", "Arbitre"])
    expect(board.locator("tr[data-kind='played'] td[data-contract]").first).to_have_text("1SA N")
    expect(board.locator("tr[data-ns='1'] td[data-score]")).to_have_text(
        "60% NS 2000 + 40% EO 2000")
    expect(desk.locator("#director li[data-kind='weighted']")).to_have_text(
        "Donne 1, 1 (NS) c. 4 (EO) : pondérée (Loi 12C1(c)) 60% NS 2000 + 40% EO 2000"
        f" — {REASON}")
    expect(desk.locator("#director li[data-kind='penalty']")).to_contain_text(
        "Donne 2 : 3 pénalisé de 10 % d'un top (Loi 90)")
    expect(desk.locator(".hand-record[data-board='1'] .hr-box")).to_contain_text("Donneur N")
    expect(desk.locator(".hand-record[data-board='1'] .hr-N .hr-seat")).to_have_text("Nord")
    expect(desk.locator("#print")).to_have_text("Imprimer les résultats")
    screenshot(desk, "results-fr.png")

    phone_tab = results_in(browser, stack, finished, "fr", PHONE)
    tabs.append(phone_tab)
    phone = phone_tab.page
    all_shown(phone)
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    screenshot(phone, "results-fr-phone.png")
    found = {f"{width}": serious_violations(page, MODERATE)
             for width, page in (("1280", desk), ("375", phone))}
    assert {width: v for width, v in found.items() if v} == {}
    for tab in (desk_tab, phone_tab):
        assert_clean_console(tab)
    assert re.search(r"\bNT\b", desk.locator("#travellers").inner_text()) is None


def test_the_hand_records_page_from_the_catalogue_and_in_french(
        stack: Stack, browser: Browser, tabs: list[Tab], finished: str) -> None:
    """The printable hand records of the finished Mitchell (Law 16C1: every board played at
    every table, so all six shown): in the pseudo-language no text, label or title that is
    not from the catalogue (the ranks as the cards print them); in French by its switch, the
    deals' seats "Nord", the dealer "Donneur", the vulnerability and the double-dummy
    table's "SA", axe-core finding nothing moderate or worse at 1280 px."""
    tab = open_tab(browser, f"{stack.url}/hand-records?lang={PSEUDO}#{finished}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#records .hand-record[data-status='ready']")).to_have_count(
        6, timeout=60_000)
    expect(page.locator("#connection")).to_have_text("⟦Live⟧")  # the deals' other boards
    expect(page.locator("#records-note")).not_to_be_empty()
    assert wrapped_share(page) > 50
    assert unwrapped_words(page) == []
    assert_clean_console(tab)

    desk_tab = open_tab(browser, f"{stack.url}/hand-records#{finished}")
    tabs.append(desk_tab)
    desk = desk_tab.page
    expect(desk.locator("#connection")).to_have_text("Live")
    desk.select_option("#hand-records-prefs-lang", "fr")
    expect(desk.locator("html")).to_have_attribute("lang", "fr")
    expect(desk.locator("#records .hand-record[data-status='ready']")).to_have_count(6)
    expect(desk.locator("#connection")).to_have_text("En direct")
    expect(desk.locator("#summary")).to_have_text(re.compile(
        r"^6 donnes affichées · \d+ encore à jouer$"))
    first = desk.locator(".hand-record[data-board='1']")
    expect(first.locator(".hr-box")).to_contain_text("Donne 1")
    expect(first.locator(".hr-box")).to_contain_text("Donneur N")
    expect(first.locator(".hr-box")).to_contain_text("Personne vulnérable")
    expect(first.locator(".hr-N .hr-seat")).to_have_text("Nord")
    expect(first.locator(".hr-table thead th").nth(1)).to_have_text("SA")
    expect(first.locator(".hr-table tbody th")).to_have_text(["N", "S", "E", "O"])
    expect(desk.locator("#print")).to_have_text("Imprimer les diagrammes")
    screenshot(desk, "hand-records-fr.png")
    assert serious_violations(desk, MODERATE) == []
    assert_clean_console(desk_tab)
