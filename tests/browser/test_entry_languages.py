"""The entry page's words in the catalogues (pages.md, "Languages and high contrast"): in the
pseudo-language every text of the page, a pairs event's form and a teams event's, a refusal
on its field and the answer with each player's link, comes from the catalogue (the players'
names and the server's message as sent); in French, chosen by the page's switch, a pair
enters and is told so, axe-core finding nothing moderate or worse at 1280 px."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    MODERATE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.browser.catalogue_words import PSEUDO, unwrapped_words, wrapped_share
from tests.helpers import DEALS
from tests.stack import Stack

expect.set_options(timeout=10_000)

REFUSED = "Failed to load resource: the server responded with a status of {}"


def entry_link(stack: Stack, tournament: str, movement: dict[str, Any],
               teams: bool = False) -> str:
    """The entries of `tournament` opened by the Director: the entry page's address."""
    with stack.client(stack.director) as http:
        opened = http.post(f"/api/tournaments/{tournament}/entries/open", json={
            "name": f"{tournament} night", "deals": DEALS, "movement": movement,
            "teams": teams})
        assert opened.status_code == 201, opened.text
        return f"{stack.url}/enter#{opened.json()['token']}"


def enter(page: Page, *players: tuple[str, str]) -> None:
    for i, (name, pid) in enumerate(players):
        page.fill(f"[name='players[{i}].name']", name)
        page.fill(f"[name='players[{i}].id']", pid)
    page.locator("#send").click()


def test_every_text_of_the_entry_page_comes_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """A pairs event's form, a refusal naming its field (no partner's name: the server's
    message, as sent), the entry made with the players' links; a teams event's form with its
    team's name and a fourth team-mate added: no text, label, placeholder or title that is
    not from the catalogue."""
    found: dict[str, list[str]] = {}
    url = entry_link(stack, "elang-pairs", {"boards_per_round": 1})
    tab = open_tab(browser, url.replace("/enter#", f"/enter?lang={PSEUDO}#"))
    tabs.append(tab)
    page = tab.page
    expect(page.locator(".entry-player")).to_have_count(2)
    expect(page.locator("#summary")).not_to_be_empty()
    assert wrapped_share(page) > 5
    found["the form"] = unwrapped_words(page)
    enter(page, ("Jo March", ""), ("", ""))
    expect(page.locator("[name='players[1].name']")).to_have_attribute("aria-invalid", "true")
    found["a refusal"] = unwrapped_words(page)
    enter(page, ("Jo March", "EBU 7"), ("Meg March", ""))
    expect(page.locator("#entry-links .link-row")).to_have_count(2)
    found["entered"] = unwrapped_words(page)
    assert tab.console == [REFUSED.format("400 (Bad Request)")]

    teams_link = entry_link(stack, "elang-teams", {"kind": "teams", "boards_per_round": 1},
                            teams=True)
    teams = open_tab(browser, teams_link.replace("/enter#", f"/enter?lang={PSEUDO}#"))
    tabs.append(teams)
    expect(teams.page.locator(".entry-player")).to_have_count(4)
    teams.page.locator("#add-player").click()
    expect(teams.page.locator(".entry-player")).to_have_count(5)
    expect(teams.page.locator("#team-line")).to_be_visible()
    found["a team's form"] = unwrapped_words(teams.page)
    assert_clean_console(teams)
    assert {where: words for where, words in found.items() if words} == {}


def test_a_pair_enters_in_french_by_the_switch(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The page opens in the browser's language (English); its switch puts it in French,
    kept when opened again; the pair enters and is told its number and its links in French;
    axe-core finds nothing moderate or worse."""
    url = entry_link(stack, "elang-fr", {"boards_per_round": 1})
    tab = open_tab(browser, url)
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#send")).to_have_text("Enter")
    page.select_option("#enter-prefs-lang", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#title")).to_have_text("Inscription — elang-fr night")
    expect(page.locator("#summary")).to_have_text("Paires · 0 inscription pour l'instant")
    expect(page.locator(".entry-player legend")).to_have_text(["Vous", "Votre partenaire"])
    expect(page.locator("#send")).to_have_text("S'inscrire")
    enter(page, ("Jo March", "EBU 7"), ("Meg March", ""))
    expect(page.locator("#entry-result")).to_have_text(
        "Vous êtes inscrits : Jo March & Meg March, inscription 1 "
        "(1 inscription pour l'instant).")
    expect(page.locator("#entry-links .copy")).to_have_text(["Copier", "Copier"])
    screenshot(page, "entry-fr.png")
    assert serious_violations(page, MODERATE) == []
    assert_clean_console(tab)
