"""The player's evening in Chromium: a Howell of four pairs at two tables over two rounds, each
of the eight players on his one link (`/play#<player token>`). Before round 1 each page is the
lobby naming his table; when the Director starts a round every page sits at its player's seat
of that round by itself (the seat page, its table and seat in its title), with no reload and
no click; between rounds it says where he goes next. The boards are passed out through each
player's round seat (Law 22A) to end them quickly. Screenshots: docs/pages.md."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.integration.test_player_links import create, round_played
from tests.stack import Stack

expect.set_options(timeout=15_000)
NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
# howell(4): round → table → (NS pair, EW pair), written out (the circle method, pair 4 fixed)
SEATED = {1: {1: (1, 4), 2: (3, 2)}, 2: {1: (1, 3), 2: (2, 4)}}


def seat_of(rnd: int, entrant: int, place: int) -> tuple[int, str]:
    """The table and seat the movement gives player (`entrant`, `place`) in round `rnd`."""
    for table, (ns, ew) in SEATED[rnd].items():
        if entrant in (ns, ew):
            return table, ("NS" if entrant == ns else "EW")[place - 1]
    raise AssertionError((rnd, entrant, place))


def test_each_players_page_moves_itself_round_by_round(stack: Stack, browser: Browser,
                                                        tabs: list[Tab]) -> None:
    t = "pevening"
    with stack.client(stack.director) as director:
        links = create(director, t)
        pages: dict[tuple[int, int], Tab] = {}
        for player, token in sorted(links.items()):
            viewport = PHONE if player == (3, 2) else None
            tab = open_tab(browser, f"{stack.url}/play#{token}", viewport)
            tabs.append(tab)
            pages[player] = tab
        for (entrant, place), tab in pages.items():
            table, _ = seat_of(1, entrant, place)
            expect(tab.page.locator("body")).to_have_attribute("data-phase", "lobby")
            expect(tab.page.locator("#play-next")).to_contain_text(f"Round 1: table {table},")
            expect(tab.page.locator("#play-entrants li")).to_have_count(4)
            tab.page.evaluate("window.stayed = true")  # gone if the page is loaded again
        screenshot(pages[2, 1].page, "play-lobby.png")
        screenshot(pages[3, 2].page, "play-lobby-phone.png")

        for rnd in (1, 2):
            started = director.post(f"/api/tournaments/{t}/rounds", json={"round": rnd})
            assert started.status_code == 202, started.text
            for (entrant, place), tab in pages.items():
                table, seat = seat_of(rnd, entrant, place)
                page = tab.page
                expect(page.locator("body")).to_have_attribute("data-phase", "seated")
                expect(page.locator("body")).to_have_attribute("data-round", str(rnd))
                expect(page.locator("#seat-main")).to_be_visible()
                expect(page.locator("#title")).to_have_text(f"Table {t}-{table} · {NAMES[seat]}")
                expect(page.locator("#connection")).to_have_text("Connected")
                expect(page.locator("#hand [data-hand] [data-card]")).to_have_count(13)
                assert page.evaluate("window.stayed === true"), "the page was loaded again"
            if rnd == 2:
                screenshot(pages[2, 1].page, "play-seated.png")
                screenshot(pages[3, 2].page, "play-seated-phone.png")
                break
            round_played(stack, links, [1, 2])
            for (entrant, place), tab in pages.items():
                table, _ = seat_of(2, entrant, place)
                expect(tab.page.locator("body")).to_have_attribute("data-phase", "between")
                expect(tab.page.locator("#play-next")).to_contain_text(
                    f"Round 2: table {table},")
                expect(tab.page.locator("#seat-main")).to_be_hidden()
            screenshot(pages[2, 1].page, "play-between.png")
            screenshot(pages[3, 2].page, "play-between-phone.png")
    for tab in (pages[2, 1], pages[3, 2]):
        assert serious_violations(tab.page) == []
    for tab in pages.values():
        assert_clean_console(tab)
