"""The Director's console at a board being played, in the catalogues and on a phone (pages.md,
"Languages and high contrast"): 2C by North (tests/helpers.py's DEAL), East leads ♦A and ♦K,
West revokes (Law 61A) and corrects it (Law 62A), North claims and West disputes (Laws 68D,
70). In the pseudo-language the console's play (the tricks, the claim, the play ended by the
Director's ruling on the tricks) has no text, label or title outside the catalogue; in French at
375 px every view of the console (the queue, the tables, the table with its play, the
tournament, creating, entries) fits its box, axe-core finding nothing moderate or worse."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import (
    MODERATE,
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    post,
    screenshot,
    serious_violations,
    table_with_players,
)
from tests.browser.catalogue_words import PSEUDO, unwrapped_words, wrapped_share
from tests.browser.test_director import give_ruling
from tests.helpers import DEALS, wait_for_auction
from tests.stack import Stack

expect.set_options(timeout=15_000)

TABLE = "cplay"
T = "cphone"
PAIRS = [{"name": f"pair {n}", "players": [f"M{n}a", f"M{n}b"]} for n in range(1, 5)]

_OVERFLOWING = """() => {
  const found = [];
  const shown = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const clipped = (el) => {  // read aloud only: drawn in a 1 px box on purpose (.sr-only)
    for (let at = el; at; at = at.parentElement) {
      if (getComputedStyle(at).clipPath !== "none") return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll("header.bar, header.bar *, .panel, .panel *")) {
    const style = getComputedStyle(el);
    if (!shown(el) || style.display === "inline" || el.clientWidth === 0) continue;
    if (clipped(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      const name = el.id ? `#${el.id}` : (typeof el.className === "string" && el.className
        ? `.${el.className.split(" ")[0]}` : "");
      found.push(`${el.tagName.toLowerCase()}${name} "${el.textContent.slice(0, 30)}": ` +
        `${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return found;
}"""


def overflowing(page: Page) -> list[str]:
    """The console's boxes whose content is wider than the box (a region that scrolls too:
    its last column out of sight on a phone)."""
    found: list[str] = page.evaluate(_OVERFLOWING)
    return found


@pytest.fixture(scope="module")
def played(stack: Stack) -> Iterator[dict[str, Any]]:
    """The board's auction (2C by North) and two tricks, West's revoke corrected on the
    second (Laws 61A, 62A); a timed Howell in its first round beside it, for the tournament's
    views."""
    table, tokens = table_with_players(stack, TABLE)
    seats = tokens["seats"]
    for seat, call in [("N", "1C"), ("E", "P"), ("S", "1S"), ("W", "P"), ("N", "2C"),
                       ("E", "P"), ("S", "P"), ("W", "P")]:
        post(stack, table, seats[seat], {"type": "call", "call": call})
    for seat, card in [("E", "DA"), ("S", "D6"), ("W", "D3"), ("N", "D2"), ("E", "DK"),
                       ("S", "DT"), ("W", "H4"), ("W", "D7"), ("N", "D4")]:
        hand = "N" if seat == "S" else seat  # declarer plays dummy's cards (Law 45)
        post(stack, table, seats[hand], {"type": "card_played", "card": card,
                                         **({"seat": "S"} if seat == "S" else {})})
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": T, "tables": [f"{T}-a", f"{T}-b"], "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "howell", "boards_per_round": 2, "minutes_per_board": 5}})
        assert made.status_code == 201, made.text
        assert http.post(f"/api/tournaments/{T}/rounds", json={"round": 1}).status_code == 202
        wait_for_auction(http, f"{T}-a", 1)
    yield {"table": table, "seats": seats}


def console_in(browser: Browser, stack: Stack, lang: str,
               viewport: dict[str, int] | None = None) -> Tab:
    tab = open_tab(browser, f"{stack.url}/director?lang={lang}#{stack.director}", viewport)
    expect(tab.page.locator("#connection")).to_have_attribute("data-state", "open")
    return tab


def open_the_play(page: Page) -> None:
    """The table's view, from the queue's revoke, with its play unfolded."""
    page.select_option("#filter-table", TABLE)
    page.locator("#alert-list .queue-item .open-table").first.click()
    expect(page.locator("#tab-table")).to_be_visible()
    page.locator("#play-fold summary").click()
    expect(page.locator("#play tr[data-trick]")).to_have_count(2)


def test_every_text_of_the_consoles_play_comes_from_the_catalogue(
        stack: Stack, browser: Browser, tabs: list[Tab], played: dict[str, Any]) -> None:
    """In the pseudo-language, the console's play of a board: the tricks with West's revoke
    corrected (Laws 61A, 62A), North's claim disputed (Laws 68D, 70), and the play ended by
    the Director's ruling on the tricks (Law 70, the score by Law 77): no text, label or title
    outside the catalogue but the names and the claimer's statement."""
    tab = console_in(browser, stack, PSEUDO)
    tabs.append(tab)
    page = tab.page
    found: dict[str, list[str]] = {}
    open_the_play(page)
    expect(page.locator("#play tr[data-trick='2'] td.corrected[data-seat='W']")).to_be_visible()
    assert wrapped_share(page) > 30
    found["the play"] = unwrapped_words(page)

    seats = played["seats"]
    post(stack, TABLE, seats["N"], {"type": "claim", "tricks": 8,
                                    "statement": "trumps drawn, the clubs run"})
    post(stack, TABLE, seats["E"], {"type": "claim_response", "accept": True})
    post(stack, TABLE, seats["W"], {"type": "claim_response", "accept": False})
    expect(page.locator("#play .play-claim")).to_be_visible()
    found["the claim disputed"] = unwrapped_words(page)

    give_ruling(page, "tricks", tricks="7", law="70")
    expect(page.locator("#play .play-ended")).to_be_visible()
    found["the play ended"] = unwrapped_words(page)
    assert {where: words for where, words in found.items() if words} == {}
    assert_clean_console(tab)


def test_the_console_in_french_at_375_fits_every_box(
        stack: Stack, browser: Browser, tabs: list[Tab], played: dict[str, Any]) -> None:
    """The console in French on a phone: the queue, the tables, the table with its play
    unfolded (the revoke, Law 61A, corrected, Law 62A), the tournament with its clock and
    score form (Law 12C), creating, entries: no text wider than its box, the page not
    scrolling sideways, axe-core finding nothing moderate or worse in any view."""
    tab = console_in(browser, stack, "fr", PHONE)
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#title")).to_have_text("Console de l'Arbitre")
    wide: dict[str, list[str]] = {}
    axe: dict[str, list[dict[str, Any]]] = {}

    def look(view: str) -> None:
        wide[view] = overflowing(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide[view].append(f"the page: {width} px")
        axe[view] = serious_violations(page, MODERATE)

    expect(page.locator("#table-list button[data-table]").first).to_be_visible()
    look("tables")
    open_the_play(page)
    page.locator("#record-fold summary").click()
    expect(page.locator("#record li").first).to_be_visible()
    look("the table")
    page.locator("#play-fold").scroll_into_view_if_needed()
    screenshot(page, "director-fr-phone-play.png")
    page.locator(".tab[data-tab='tournament']").click()
    page.select_option("#tournament-pick", T)
    expect(page.locator("#overview tr[data-table]")).to_have_count(2)
    expect(page.locator("#clock-left")).to_have_text(re.compile(r"restant dans la manche$"))
    page.select_option("#score-kind", "weighted")
    look("the tournament")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "director-fr-phone.png")
    page.locator(".tab[data-tab='create']").click()
    look("creating")
    page.locator(".tab[data-tab='entries']").click()
    look("entries")
    assert {view: found for view, found in wide.items() if found} == {}
    assert {view: found for view, found in axe.items() if found} == {}
    assert_clean_console(tab)
