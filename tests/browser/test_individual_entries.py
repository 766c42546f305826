"""An individual's evening from the console, in Chromium (docs/pages.md "Entries for an
individual"): the Director opens entries with the movement "Individual" on his console's Entries
panel; eight players enter one by one on the entry page, which asks each for his own name only
(one player an entry), each keeping his own link; the Director closes the entries: the console
shows the movement (an individual of eight at two tables, seven rounds of one board, by
Sicherman's rotation: `shared.scores.individual_movements`). Two players follow their links:
each page shows his round-1 table and seat (round 1 seats players 1–4 at table 1 N, E, S, W,
5–8 at table 2) and his partner for the round (N–S and E–W partner)."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.browser.test_entries import enter, open_entries
from tests.stack import Stack

T = "indiv-evening"
PLAYERS = [("Ann Able", "EBU 11"), ("Bob Baker", ""), ("Cy Cole", ""), ("Di Dale", ""),
           ("Ed Eyre", ""), ("Flo Fox", ""), ("Gus Gale", ""), ("Hal Hook", "")]
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
SIDE = {"N": "North–South", "S": "North–South", "E": "East–West", "W": "East–West"}

expect.set_options(timeout=20_000)


def round_1(player: int) -> tuple[int, str]:
    """Round 1's table and seat of player `player` (1–8): 1–4 at table 1 N, E, S, W, 5–8 at
    table 2 (`individual_movements.round_1`), written out."""
    return (player - 1) // 4 + 1, "NESW"[(player - 1) % 4]


def test_the_director_runs_an_individual_from_the_console_players_entering_one_by_one(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    director = open_tab(browser, f"{stack.url}/director#{stack.director}")
    tabs.append(director)
    console = director.page
    expect(console.locator("#connection")).to_have_text("Connected")
    link = open_entries(console, T, "Friday individual", kind="individual")
    expect(console.locator("#entries-teams")).to_be_disabled()  # players enter alone

    links: dict[int, str] = {}
    for number, player in enumerate(PLAYERS, start=1):
        entry = open_tab(browser, f"{stack.url}{link}")
        tabs.append(entry)
        page = entry.page
        expect(page.locator("#summary")).to_have_text(
            f"Individual · {number - 1} player{'' if number == 2 else 's'} so far")
        expect(page.locator(".entry-player")).to_have_count(1)  # his own name only
        expect(page.locator("#add-player")).to_be_hidden()
        enter(page, player)
        expect(page.locator("#entry-result")).to_have_text(
            f"You are entered: {player[0]}, entrant {number} ({number} "
            f"entr{'y' if number == 1 else 'ies'} so far).")
        expect(page.locator("#entry-links .link-row")).to_have_count(1)
        expect(page.locator("#entry-links .link-row")).to_contain_text(player[0])
        links[number] = page.locator("#entry-link-1").input_value()
        if number == len(PLAYERS):
            screenshot(page, "entry-individual.png")
            assert serious_violations(page) == []
        assert_clean_console(entry)
        page.context.close()
        tabs.remove(entry)

    rows = console.locator("#entries-list tr[data-entry]")
    expect(rows).to_have_count(8)
    expect(rows.nth(0).locator("td").nth(3)).to_have_text("Ann Able (EBU 11)")
    console.locator("#entries-close").click()
    expect(console.locator("#entries-close-result")).to_have_text(
        f"Entries closed: tournament {T} created with 8 entrants at 2 tables "
        "(individual, 7 rounds of 1 board).")
    expect(console.locator("#entries-summary")).to_contain_text("· closed")
    screenshot(console, "director-individual-entries.png")

    for player in (3, 6):  # Cy at table 1 South, Flo at table 2 East
        table, seat = round_1(player)
        at = {s: PLAYERS[(table - 1) * 4 + i][0] for i, s in enumerate("NESW")}
        partner = at[PARTNER[seat]]
        opponents = ", ".join(at[s] for s in ("EW" if seat in "NS" else "NS"))
        tab = open_tab(browser, links[player])
        tabs.append(tab)
        page = tab.page
        expect(page.locator("body")).to_have_attribute("data-phase", "lobby")
        expect(page.locator("#play-next")).to_contain_text(
            f"Round 1: table {table}, {SIDE[seat]} ({SEAT_NAMES[seat]}), against ")
        expect(page.locator("#play-next")).to_contain_text(opponents)
        numbers = sorted((table - 1) * 4 + i + 1 for i, s in enumerate("NESW")
                         if s in ("EW" if seat in "NS" else "NS"))
        expect(page.locator("#play-next")).to_contain_text(
            f"against players {numbers[0]} and {numbers[1]} (")  # not "pair 10002"
        expect(page.locator("#play-entrants li")).to_have_count(8)
        expect(page.locator("#play-entrants li").nth(player - 1)).to_have_text(
            f"player {player} ({PLAYERS[player - 1][0]})")
        expect(page.locator("#play-partner")).to_have_text(
            f"Your partner this round: {partner}.")
        assert_clean_console(tab)
    assert_clean_console(director)
