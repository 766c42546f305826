"""The pages for people (pages.md): the seat page played by the keyboard alone at 1280 px and
at 375 px (the call box takes the focus at one's turn; a call typed, "1" "n" for 1NT; a card
named by a suit and a rank, or reached by the arrows, then Enter); no page's text carrying a
backtick or a field's name; the capture page's help and the console's long views folded;
the results page's travellers whole on a phone; axe-core finding nothing critical, serious
or moderate on any page at either width. The deal is tests/helpers.py's DEAL:
N 4.KJ32.842.AQ743, E JT987.Q876.AK5.2, S AK532.T.JT6.T985, W Q6.A954.Q973.KJ6."""

from __future__ import annotations

import json
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
    auction,
    open_tab,
    post,
    screenshot,
    seat_tab,
    serious_violations,
    table_with_players,
)
from tests.browser.results_play import create_mitchell, play_round
from tests.browser.test_capture import capture_tab
from tests.browser.test_director import console_tab, give_ruling
from tests.stack import Stack

expect.set_options(timeout=10_000)

# dealer North (board 1): South's 1NT doubled by West, redoubled by North (Laws 19A, 19B);
# West leads (Law 41A), North is dummy
TYPED = [("N", "p"), ("E", "p"), ("S", "1n"), ("W", "x"), ("N", "xx"), ("E", "p"), ("S", "p"),
         ("W", "p")]
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # a field's name: score_ns, adjusted_score


def focused(page: Page) -> dict[str, str | None]:
    """The focused element: its id and, for a card, its card ("HK")."""
    found: dict[str, str | None] = page.evaluate(
        "() => ({ id: document.activeElement.id || null, "
        "card: document.activeElement.dataset.card || null })")
    return found


def cards_sent(tab: Tab) -> list[str]:
    sent = [json.loads(text) for text in tab.sent]
    return [m["card"] for m in sent if m.get("type") == "card_played"]


def test_calls_and_cards_by_the_keyboard_alone(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Laws 19A–B (the double and the redouble typed as x and xx), 41A (West on lead after the
    auction), 44C (only spades may follow West's spade: a heart named is refused and not
    sent), 45 (declarer plays dummy's card from his page, by key too). Every call and card
    by keys alone, no click: the call box has the focus at each seat's turn; West's page is
    a phone's (375 px)."""
    _, tokens = table_with_players(stack, "keys-only")
    pages = {seat: seat_tab(browser, stack, tokens["seats"][seat],
                            PHONE if seat == "W" else DESKTOP) for seat in SEATS}
    tabs.extend(pages.values())
    for seat, typed in TYPED:
        page = pages[seat].page
        expect(page.locator("#turn")).to_have_text("Your call.")
        expect(page.locator("#typed-call")).to_be_focused()  # at his turn, no click
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        expect(page.locator("#typed-call")).to_have_value("")
    for tab in pages.values():
        expect(tab.page.locator("#contract")).to_have_text("Contract: 1NTXX by South")
    assert [label.split(",")[0] for label in auction(pages["N"])] == [
        "North: pass", "East: pass", "South: 1 no trump", "West: double", "North: redouble",
        "East: pass", "South: pass", "West: pass"]

    west = pages["W"].page  # on lead: the focus on his first card, the spades' queen
    expect(west.locator("#turn")).to_have_text("You are on lead: choose a card from your hand.")
    expect(west.locator("#hand button[data-card='SQ']")).to_be_focused()
    west.keyboard.press("h")  # the suit: its first card
    assert focused(west)["card"] == "HA"
    west.keyboard.press("ArrowRight")  # the next card he may play
    assert focused(west)["card"] == "H9"
    west.keyboard.press("ArrowLeft")
    assert focused(west)["card"] == "HA"
    west.keyboard.press("c")
    west.keyboard.press("j")  # a suit and a rank: the card itself
    assert focused(west)["card"] == "CJ"
    assert cards_sent(pages["W"]) == []  # naming a card plays nothing: Enter does
    west.keyboard.press("Enter")
    expect(west.locator("#middle .trick-slot[data-card='CJ']")).to_have_count(1)
    assert west.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    south = pages["S"].page  # declarer plays dummy's club by its rank alone, then Enter
    expect(south.locator("#turn")).to_have_text("Your card from dummy's hand (North).")
    south.keyboard.press("7")
    assert focused(south)["card"] == "C7"
    south.keyboard.press("Enter")
    east = pages["E"].page  # one club: the arrows stay on it; a heart named is refused
    expect(east.locator("#turn")).to_have_text("Your card: choose one of the cards enabled.")
    expect(east.locator(".place button[data-card='C2']")).to_be_focused()
    east.keyboard.press("h")
    east.keyboard.press("q")
    expect(east.locator("#send-error")).to_have_text(
        "The queen of hearts is not yours to play now.")
    assert focused(east)["card"] == "C2"
    screenshot(east, "seat-keys.png")
    east.keyboard.press("ArrowRight")
    assert focused(east)["card"] == "C2"
    east.keyboard.press("Enter")
    expect(south.locator("#turn")).to_have_text("Your card: choose one of the cards enabled.")
    south.keyboard.press("9")  # rank first, then the suit: ♣9
    south.keyboard.press("c")
    assert focused(south)["card"] == "C9"
    south.keyboard.press("Enter")
    for tab in pages.values():
        expect(tab.page.locator("#trick-note")).to_have_text("Trick 1 won by West")
    assert cards_sent(pages["W"]) == ["CJ"] and cards_sent(pages["E"]) == ["C2"]
    assert cards_sent(pages["S"]) == ["C7", "C9"] and cards_sent(pages["N"]) == []

    west.keyboard.press("?")  # the page's keys, said in its help
    help_box = west.locator("#keys-help")
    expect(help_box).to_have_attribute("open", "")
    expect(west.locator("#keys-help summary")).to_be_focused()
    for key in ("Enter", "←", "→", "Tab", "?"):
        expect(help_box.locator("kbd", has_text=key).first).to_be_visible()
    expect(west.locator("#keys-help summary")).to_be_focused()
    screenshot(west, "seat-keys-phone.png")
    for tab in pages.values():
        assert_clean_console(tab)


def visible_words(page: Page) -> str:
    text: str = page.evaluate("document.body.innerText")
    return text


def assert_words_for_people(page: Page, where: str) -> None:
    """No backtick and no field's name in the page's visible text, every fold opened."""
    for summary in page.locator("details:not([open]) > summary").all():
        if summary.is_visible():
            summary.click()
    text = visible_words(page)
    assert "`" not in text, (where, text[text.index("`") - 60:text.index("`") + 60])
    assert not SNAKE.search(text), (where, SNAKE.findall(text))


def test_no_page_text_has_a_backtick_or_a_field_name(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Every page's visible text, in a state driven to show the server's words (an
    insufficient bid rectified, Law 27; a ruling refused for want of its score, Law 12C; a
    claim disputed and its options, Law 68D; the record and the play unfolded): no backtick,
    no word joined by underscores (a field's name)."""
    table, tokens = table_with_players(stack, "words")
    north = seat_tab(browser, stack, tokens["seats"]["N"])
    east = seat_tab(browser, stack, tokens["seats"]["E"])
    tabs.extend([north, east])
    north.page.check("#self-alert")
    north.page.fill("#self-explanation", "five or more spades")
    north.page.locator("#bidding-box button[data-call='1S']").click()
    post(stack, table, tokens["seats"]["E"], {"type": "call", "call": "1H"})  # Law 27
    expect(east.page.locator("#director")).to_contain_text("insufficient bid")
    east.page.locator(".auction button[data-index='0']").click()
    assert_words_for_people(north.page, "seat")
    assert_words_for_people(east.page, "seat, East")

    console = console_tab(browser, stack)
    tabs.append(console)
    page = console.page
    page.locator(f"#table-list button[data-table='{table}']").click()
    expect(page.locator("#table-title")).to_have_text(f"Table {table}")
    expect(page.locator("#record li").first).to_be_attached()
    give_ruling(page, "adjusted_score", law="12C")  # refused: no score given
    expect(page.locator("#ruling-result")).to_contain_text("Refused:")
    expect(page.locator("#ruling-score")).to_have_attribute("aria-invalid", "true")
    assert_words_for_people(page, "console, a table")

    # a claim disputed (Law 68D): the Director's alert and its options, on every page
    claimed, seats = table_with_players(stack, "words-claim")
    for seat, call in (("N", "1NT"), ("E", "P"), ("S", "P"), ("W", "P")):
        post(stack, claimed, seats["seats"][seat], {"type": "call", "call": call})
    post(stack, claimed, seats["seats"]["E"], {"type": "card_played", "card": "SJ"})
    post(stack, claimed, seats["seats"]["N"], {"type": "claim", "tricks": 13,
                                                "statement": "all mine"})
    post(stack, claimed, seats["seats"]["E"], {"type": "claim_response", "accept": False})
    page.locator(".tab[data-tab='tables']").click()
    page.locator(f"#table-list button[data-table='{claimed}']").click()
    expect(page.locator("#table-title")).to_have_text(f"Table {claimed}")
    expect(page.locator("#director .director-alert[data-kind]")).not_to_have_count(0)
    expect(page.locator("#record li").first).to_be_attached()
    assert_words_for_people(page, "console, a claim disputed")
    for seat in ("N", "W"):
        tab = open_tab(browser, f"{stack.url}/seat#{seats['seats'][seat]}")
        tabs.append(tab)
        expect(tab.page.locator("#connection")).to_have_text("Connected")
        expect(tab.page.locator("#director .director-alert")).not_to_have_count(0)
        assert_words_for_people(tab.page, f"seat {seat}, a claim disputed")

    capture = capture_tab(browser, stack, table)
    tabs.append(capture)
    capture.page.locator("#entry-line").fill("9z")
    capture.page.locator("#entry-line").press("Enter")
    expect(capture.page.locator("#entry-error")).not_to_have_text("")
    assert_words_for_people(capture.page, "capture")
    for path in ("/", f"/vugraph#{tokens['spectator']}"):
        tab = open_tab(browser, f"{stack.url}{path}")
        tabs.append(tab)
        expect(tab.page.locator("h1")).not_to_have_text("")
        assert_words_for_people(tab.page, path)


def test_the_capture_help_and_the_consoles_long_views_are_folded(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """The capture page's typing help folded until asked for, and the console's record (event
    by event) and play (trick by trick) each folded under its heading; each opens by the
    keyboard."""
    table, tokens = table_with_players(stack, "folds")
    capture = capture_tab(browser, stack, table)
    tabs.append(capture)
    help_box = capture.page.locator("#entry-help")
    expect(help_box).not_to_have_attribute("open", re.compile(".*"))
    expect(help_box.locator("dl").first).to_be_hidden()
    screenshot(capture.page, "capture-help-folded.png")
    help_box.locator("summary").focus()
    capture.page.keyboard.press("Enter")
    expect(help_box.locator("dl").first).to_be_visible()

    for seat, call in (("N", "1NT"), ("E", "P"), ("S", "P"), ("W", "P")):
        post(stack, table, tokens["seats"][seat], {"type": "call", "call": call})
    post(stack, table, tokens["seats"]["E"], {"type": "card_played", "card": "SJ"})
    console = console_tab(browser, stack)
    tabs.append(console)
    page = console.page
    page.locator(f"#table-list button[data-table='{table}']").click()
    for inside in ("#record li", "#play [data-trick]"):  # there, and folded away
        expect(page.locator(inside).first).to_be_attached()
        expect(page.locator(inside).first).to_be_hidden()
    screenshot(page, "director-folds.png")
    for fold, inside in (("#record-fold", "#record li"), ("#play-fold", "#play [data-trick]")):
        page.locator(f"{fold} summary").focus()
        page.keyboard.press("Enter")
        expect(page.locator(inside).first).to_be_visible()


def traveller_overflow(page: Page) -> list[list[int]]:
    """Each traveller's region: how much wider its table is than the region (0: whole)."""
    found: list[list[int]] = page.locator(".traveller .scroll").evaluate_all(
        "els => els.map(e => [e.scrollWidth - e.clientWidth, e.getBoundingClientRect().right])")
    return found


def settled(page: Page) -> None:
    """The results page once each of its six boards shows its solved hand record: the page
    draws its travellers anew when a record arrives (solved on spare CPU, they may come in
    the midst of the checks), and a style read from a traveller just replaced reads nothing."""
    expect(page.locator("#travellers .hand-record[data-status='ready']")).to_have_count(
        6, timeout=60_000)


def test_the_results_page_on_a_phone_and_every_page_without_an_axe_finding(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """At 375 px the results page's travellers are whole: no column past the screen's edge,
    each cell under its head's words; every page (landing, seat, vugraph, console, capture,
    results), at 1280 px and at 375 px, has no axe-core finding of impact critical, serious
    or moderate."""
    t = "words-cup"
    with stack.client(stack.director) as http:
        seats = create_mitchell(http, t)
        play_round(http, t, seats, 1)
        play_round(http, t, seats, 2)
    results = open_tab(browser, f"{stack.url}/results#{t}", PHONE)
    tabs.append(results)
    page = results.page
    expect(page.locator("#travellers .traveller")).to_have_count(6)
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for overflow, right in traveller_overflow(page):
        assert overflow <= 0 and right <= PHONE["width"], (overflow, right)
    cell = page.locator("#travellers .traveller").first.locator("td[data-score]").first
    expect(cell).to_be_visible()
    assert cell.evaluate("e => getComputedStyle(e, '::before').content") == '"Score (NS)"'

    table, tokens = table_with_players(stack, "axe-all")
    post(stack, table, tokens["seats"]["N"], {"type": "call", "call": "1S", "alert": True,
                                              "explanation": "five or more spades"})
    pages: dict[str, str] = {
        "landing": "/", "seat": f"/seat#{tokens['seats']['E']}",
        "vugraph": f"/vugraph#{tokens['spectator']}", "console": f"/director#{stack.director}",
        "results": f"/results#{t}"}
    found: dict[str, Any] = {}
    for viewport in (DESKTOP, PHONE):
        for name, path in pages.items():
            tab = open_tab(browser, f"{stack.url}{path}", viewport)
            tabs.append(tab)
            expect(tab.page.locator("h1")).not_to_have_text("")
            if name in ("seat", "vugraph", "console"):
                expect(tab.page.locator("#connection")).to_have_text("Connected")
            if name == "results":
                expect(tab.page.locator("#travellers .traveller")).to_have_count(6)
                settled(tab.page)
            if name == "console":
                tab.page.locator(f"#table-list button[data-table='{table}']").click()
                expect(tab.page.locator("#record li")).to_have_count(3)
                tab.page.locator("#record-fold summary").click()
            found[f"{name} {viewport['width']}"] = serious_violations(tab.page, MODERATE)
        capture = capture_tab(browser, stack, table, viewport)
        tabs.append(capture)
        capture.page.locator("#entry-help summary").click()
        found[f"capture {viewport['width']}"] = serious_violations(capture.page, MODERATE)
    assert {where: v for where, v in found.items() if v} == {}
