"""The capture page's words in the catalogues (pages.md, "Languages and high contrast"): in
the pseudo-language every text of the page comes from the catalogue (the Director's alerts,
the server's messages and the players' names as sent, the commands typed and the keys in
<kbd>) through a board: a bid out of rotation (Law 31) and North's option (Law 29), a line
refused, the auction closed (Law 22A), a revoke (Law 61A) corrected (Law 62) leaving a
penalty card (Law 50), a claim (Law 68) agreed (Law 69A); in French, chosen by the page's
switch, the same board's play, axe-core finding nothing moderate or worse at 1280 px."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    MODERATE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
    table_with_players,
)
from tests.browser.catalogue_words import PSEUDO, unwrapped_words, wrapped_share
from tests.browser.test_capture import operator_token
from tests.stack import Stack

expect.set_options(timeout=10_000)


def capture_in(browser: Browser, stack: Stack, table: str, lang: str | None) -> Tab:
    query = f"?lang={lang}" if lang else ""
    tab = open_tab(browser, f"{stack.url}/capture{query}#{operator_token(stack, table)}")
    expect(tab.page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(tab.page.locator("[data-hand] [data-card]")).to_have_count(52)
    return tab


def enter(page: Page, line: str) -> None:
    """A line typed and sent; all of it recorded."""
    entry = page.locator("#entry-line")
    entry.fill(line)
    entry.press("Enter")
    expect(entry).to_have_value("")
    expect(page.locator("#entry-error")).to_be_empty()


def test_every_text_of_the_capture_page_comes_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """At each state of the board, the help opened, no text, label, placeholder or title of
    the page that is not from the catalogue."""
    table, _ = table_with_players(stack, "cap-pseudo")
    tab = capture_in(browser, stack, table, PSEUDO)
    tabs.append(tab)
    page = tab.page
    found: dict[str, list[str]] = {}

    def look(where: str) -> None:
        assert wrapped_share(page) > 20, where
        words = unwrapped_words(page)
        if words:
            found[where] = words

    page.locator("#entry-help").evaluate("d => { d.open = true; }")
    look("the auction starts")
    enter(page, "1h p")
    enter(page, "w:1s")  # out of rotation (Law 31): North's option (Law 29A)
    expect(page.locator("#call-director .director-call.calling")).to_have_count(1)
    expect(page.locator("#option button")).to_have_count(2)
    look("a bid out of rotation")
    entry = page.locator("#entry-line")
    entry.fill("1h zz")
    entry.press("Enter")
    expect(page.locator("#entry-error")).not_to_be_empty()
    look("a line refused")
    page.locator("#option #decline").click()
    page.locator("#director-called").click()
    enter(page, "p 1s p p p")
    expect(page.locator("#contract")).not_to_be_empty()
    look("the auction closed, the lead awaited")
    assert_clean_console(tab)

    table, _ = table_with_players(stack, "cap-pseudo-play")  # 2C by North, East leads
    tab = capture_in(browser, stack, table, PSEUDO)
    tabs.append(tab)
    page = tab.page
    enter(page, "1c p 1s p 2c p p p")
    enter(page, "da 6 3 2 dk dt h4")  # West's ♥4 holding diamonds: a revoke (Law 61A)
    expect(page.locator("#play td.revoke[data-seat='W']")).to_have_count(1)
    look("a trick played, a revoke")
    page.locator("#director-called").click()
    enter(page, "w:d7 4")  # corrected (Law 62): ♥4 a major penalty card, declarer's option
    expect(page.locator("#play .play-revoke")).to_have_count(1)
    look("the revoke corrected, declarer's option on the lead")
    enter(page, "c08(drawing trumps)")
    expect(page.locator("#play .play-claim")).to_be_visible()
    look("a claim")
    enter(page, "agree")
    expect(page.locator("#play .play-ended")).to_be_visible()
    look("the play over")
    assert_clean_console(tab)
    assert found == {}


def test_a_board_captured_in_french_by_the_switch(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The page in the browser's language (English), put in French by its switch and kept:
    the board's line ("Donne 1 · Donneur Nord · Vulnérable : Personne"), the contract
    ("Contrat : 2♣ par Nord"), East's lead (Law 41A: "à l'entame"), the play's record of
    the first trick, the claim agreed (Law 69A), axe-core finding nothing moderate or worse."""
    table, _ = table_with_players(stack, "cap-francais")
    tab = capture_in(browser, stack, table, None)
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#connection")).to_have_text("Connected")
    page.select_option("#capture-prefs-lang", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.reload()
    expect(page.locator("#capture-prefs-lang")).to_have_value("fr")
    expect(page.locator("#connection")).to_have_text("Connecté")
    expect(page.locator("#board-info")).to_have_text(
        "Donne 1 · Donneur Nord · Vulnérable : Personne")
    expect(page.locator("#entry-title")).to_have_text("Enregistrer")
    enter(page, "1c p 1s p 2c p p p")
    expect(page.locator("#contract")).to_have_text("Contrat : 2♣ par Nord")
    expect(page.locator("#turn")).to_contain_text("Est (Bob)")
    entry = page.locator("#entry-line")
    entry.fill("c7")
    entry.press("Enter")
    expect(page.locator("#entry-error")).to_have_text("« c7 » : Est n'a pas le 7 de trèfle.")
    enter(page, "da 6 3 2")
    expect(page.locator("#turn")).to_have_text("À Est (Bob) de jouer, levée 2.")
    expect(page.locator("#play thead th")).to_have_text(
        ["Levée", "Entamée par", "N", "E", "S", "O", "Gagnée par"])
    expect(page.locator("#play .play-won")).to_contain_text("Déclarant Nord, mort Sud")
    screenshot(page, "capture-fr.png")
    assert serious_violations(page, MODERATE) == []
    enter(page, "c08")
    enter(page, "agree")
    expect(page.locator("#play .play-ended")).to_have_text(
        "Jeu fini par une réclamation acceptée (Loi 69A). Le déclarant 8 levées, NS +90.")
    assert_clean_console(tab)
