"""A whole evening as people live it, in Chromium: the Director opens entries on his console;
four pairs (eight people) enter on the entry page, each keeping his own link; the Director
closes the entries (the console's button), and the movement the entries choose (a Howell of
four pairs at two tables, three rounds of one board) is made. Each of the eight opens his
`/play#` link in his own browser; before round 1 each page is the lobby naming his table. From
the console's players' list the Director gives one player a new link (his old page is refused,
the new one opens his place) and swaps two players by hand (a late change of partner: each
page follows). Over three rounds every page is moved by the server alone (no reload, no click)
to its player's seat; at table 1 the board is passed out (Law 22A), at table 2 the dealer
opens 1NT and claims eight tricks, both defenders agreeing (Law 69A). Between rounds each page
says where its player goes next and his running score, counting only the boards complete at
every table (Law 16C1): table 1's players, done first, see the board not yet counted until
table 2 has played it. At the end each page is the scorecard. A spectator's vugraph and the
Director's console stay open throughout. Screenshots: docs/pages.md."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    click_call,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.browser.test_entries import enter, open_entries
from tests.stack import Stack

expect.set_options(timeout=20_000)
T = "evening-live"
NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
LHO = {"N": "E", "E": "S", "S": "W", "W": "N"}
PAIRS = [(("Ann Able", "EBU 11"), ("Bob Baker", "")), (("Cy Cole", ""), ("Di Dale", "")),
         (("Ed Eyre", ""), ("Flo Fox", "")), (("Gus Gale", ""), ("Hal Hook", ""))]
# howell(4), one board a round: round → table → (NS pair, EW pair); both tables play board
# `round` (written out: the circle method, pair 1 fixed)
SEATED = {1: {1: (1, 4), 2: (3, 2)}, 2: {1: (1, 3), 2: (2, 4)}, 3: {1: (1, 2), 2: (3, 4)}}
CLAIMED = 8  # 1NT making eight tricks at table 2: its declaring side's score beats a pass-out
# the Director's late change: player 2 of pair 1 and player 2 of pair 2 swap places
SWAPPED = {(1, 2): (2, 2), (2, 2): (1, 2)}
REFUSED = "Failed to load resource: the server responded with a status of {}"
Player = tuple[int, int]  # (entrant, place)


def sits_as(player: Player) -> Player:
    return SWAPPED.get(player, player)


def seat_of(rnd: int, player: Player, moved: bool = True) -> tuple[int, str]:
    """The table and seat the movement gives `player` (as he sits, moved unless `moved` is
    False) in round `rnd`."""
    entrant, place = sits_as(player) if moved else player
    for table, (ns, ew) in SEATED[rnd].items():
        if entrant in (ns, ew):
            return table, ("NS" if entrant == ns else "EW")[place - 1]
    raise AssertionError((rnd, player))


def dealer(board: int) -> str:
    """Law 2: board 1's dealer is North, then clockwise."""
    return "NESW"[(board - 1) % 4]


def percents(rounds: int) -> dict[int, float]:
    """Each pair's percentage over the boards of the first `rounds` rounds (`by_board`)."""
    return {pair: sum(scores) / len(scores) for pair, scores in by_board(rounds).items()}


def by_board(rounds: int) -> dict[int, list[float]]:
    """Each pair's percentage on each board of the first `rounds` rounds, by hand (Law 78A:
    each board is played twice, so the better of its two scores is a top, 100 %, the other
    0 %, equal ones 50 %): at table 2 the dealer's side makes 1NT (a plus), at table 1 the
    board is passed out (0)."""
    got: dict[int, list[float]] = {pair: [] for pair in range(1, 5)}
    for rnd in range(1, rounds + 1):
        ns_one, ew_one = SEATED[rnd][1]
        ns_two, ew_two = SEATED[rnd][2]
        two_ns_plus = dealer(rnd) in "NS"  # table 2's NS score is a plus, else a minus
        got[ns_two].append(100.0 if two_ns_plus else 0.0)
        got[ns_one].append(0.0 if two_ns_plus else 100.0)
        got[ew_two].append(0.0 if two_ns_plus else 100.0)
        got[ew_one].append(100.0 if two_ns_plus else 0.0)
    return got


def shown(percent: float) -> str:
    return f"{percent:.2f}"


def phone_screenshot(page: Page, name: str) -> None:
    """A screenshot at 375 px, the page not wider than the phone (no sideways scroll)."""
    screenshot(page, name)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


def with_clipboard(context: BrowserContext) -> None:
    context.grant_permissions(["clipboard-read", "clipboard-write"])


def director_enters_and_closes(browser: Browser, stack: Stack, tabs: list[Tab]
                               ) -> tuple[Tab, dict[Player, str]]:
    """The console opens entries; four pairs enter on the entry page; each player's link
    as the entry page gives it; the console closes the entries."""
    director = open_tab(browser, f"{stack.url}/director#{stack.director}", prepare=with_clipboard)
    tabs.append(director)
    console = director.page
    expect(console.locator("#connection")).to_have_text("Connected")
    link = open_entries(console, T, "Thursday evening pairs")
    links: dict[Player, str] = {}
    for entrant, pair in enumerate(PAIRS, start=1):
        entry = open_tab(browser, f"{stack.url}{link}", PHONE if entrant == 2 else None)
        tabs.append(entry)
        enter(entry.page, *pair)
        expect(entry.page.locator("#entry-result")).to_contain_text(f"entrant {entrant}")
        for place in (1, 2):
            expect(entry.page.locator("#entry-links .link-row").nth(place - 1)).to_contain_text(
                pair[place - 1][0])
            links[entrant, place] = entry.page.locator(f"#entry-link-{place}").input_value()
        assert_clean_console(entry)
        entry.page.context.close()
        tabs.remove(entry)
    expect(console.locator("#entries-list tr[data-entry]")).to_have_count(4)
    console.locator("#entries-close").click()
    expect(console.locator("#entries-close-result")).to_have_text(
        f"Entries closed: tournament {T} created with 4 entrants at 2 tables "
        "(howell, 3 rounds of 1 board).")
    return director, links


def open_players(console: Page) -> None:
    console.locator(".tab[data-tab='tournament']").click()
    console.fill("#players-tournament", "no-such-evening")  # refused, in words
    console.locator("#players-show").click()
    expect(console.locator("#players-result")).to_have_text(
        "Refused: no tournament no-such-evening")
    console.fill("#players-tournament", T)
    console.locator("#players-show").click()
    expect(console.locator("#players-list tr[data-player]")).to_have_count(8)


def row(console: Page, player: Player) -> Any:
    return console.locator(f"#players-list tr[data-player='{player[0]}.{player[1]}']")


def stack_url(link: str) -> str:
    return link.split("/play#")[0]


def claims(link: str) -> dict[str, Any]:
    """A personal link's token's claims but its expiry: the console's list signs each link
    anew when it reads the players (its expiry to the second), the same link for the same
    player and generation."""
    payload = link.split("/play#")[1].split(".")[1]
    told = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert isinstance(told, dict) and isinstance(told.pop("e"), int), told
    return told


def reissue(browser: Browser, console: Page, pages: dict[Player, Tab], player: Player,
            old: str, tabs: list[Tab]) -> None:
    """The console's "New link", cancelled by Escape, then confirmed: the player's old page
    is refused, the new link opens his place."""
    line = row(console, player)
    expect(line).to_have_attribute("data-generation", "1")
    given = line.locator(".player-link").input_value()
    assert given.startswith(f"{stack_url(old)}/play#"), given
    line.locator(".copy").click()
    expect(line.locator(".copy")).to_have_text("Copied")
    assert console.evaluate("navigator.clipboard.readText()") == given
    line.locator(".player-reissue").click()
    confirm = console.locator("#players-confirm")
    expect(confirm).to_contain_text(f"Give {PAIRS[player[0] - 1][player[1] - 1][0]} a new link?")
    expect(console.locator("#players-confirm-yes")).to_be_focused()
    console.keyboard.press("Escape")  # cancelled: nothing sent
    expect(confirm).to_be_hidden()
    expect(line.locator(".player-reissue")).to_be_focused()
    expect(line).to_have_attribute("data-generation", "1")
    line.locator(".player-reissue").click()
    console.keyboard.press("Enter")  # the focused confirmation
    expect(console.locator("#players-result")).to_contain_text(
        f"New link for {PAIRS[player[0] - 1][player[1] - 1][0]}")
    expect(line).to_have_attribute("data-generation", "2")
    new = line.locator(".player-link").input_value()
    told = re.search(r"\S+/play#[^\s;]+", console.locator("#players-result").inner_text())
    assert told is not None
    assert claims(new) == claims(told.group(0)) != claims(old)  # his link number 2, not 1
    gone = pages[player].page
    expect(gone.locator("body")).to_have_attribute("data-phase", "refused")
    expect(gone.locator("#play-connection")).to_contain_text("replaced")
    gone.context.close()
    tabs.remove(pages[player])
    pages[player] = open_tab(browser, new)
    tabs.append(pages[player])


def move(console: Page, player: Player, to: Player) -> None:
    """The console's "Move": the place he sits as chosen, then confirmed."""
    row(console, player).locator(".player-move").click()
    console.select_option("#players-move-to", f"{to[0]}.{to[1]}")
    console.locator("#players-move-send").click()
    expect(console.locator("#players-confirm")).to_contain_text(
        f"{PAIRS[player[0] - 1][player[1] - 1][0]} sits as player {to[1]} of pair {to[0]}")
    console.locator("#players-confirm-yes").click()
    expect(console.locator("#players-result")).to_contain_text(
        f"{PAIRS[player[0] - 1][player[1] - 1][0]} now sits as player {to[1]} of pair {to[0]}")
    expect(row(console, player).locator(".player-sits")).to_have_text(
        f"pair {to[0]}, player {to[1]}")


def lobby_shown(pages: dict[Player, Tab], moved: bool) -> None:
    for player, tab in pages.items():
        table, _ = seat_of(1, player, moved)
        expect(tab.page.locator("body")).to_have_attribute("data-phase", "lobby")
        expect(tab.page.locator("#play-next")).to_contain_text(f"Round 1: table {table},")
        expect(tab.page.locator("#play-entrants li")).to_have_count(4)


def at_table(pages: dict[Player, Tab], rnd: int, table: int) -> dict[str, Page]:
    return {seat_of(rnd, p)[1]: tab.page for p, tab in pages.items()
            if seat_of(rnd, p)[0] == table}


def pass_out(seats: dict[str, Page], board: int) -> None:
    """Four passes from the dealer round, each clicked on its player's page (Law 22A)."""
    seat = dealer(board)
    for _ in range(4):
        click_call(Tab(seats[seat]), "P")
        seat = LHO[seat]


def one_notrump_claimed(seats: dict[str, Page], board: int) -> None:
    """The dealer opens 1NT, three passes (Law 22B: he declares); his LHO leads (Law 41A),
    declarer claims `CLAIMED` tricks and both defenders accept (Law 69A)."""
    seat = dealer(board)
    for call in ("1NT", "P", "P", "P"):
        click_call(Tab(seats[seat]), call)
        seat = LHO[seat]
    leader = seats[LHO[dealer(board)]]  # Law 41A: the opening lead, then the claim
    leader.locator("#hand button[data-card]:not(:disabled)").first.click()
    declarer = seats[dealer(board)]
    declarer.locator(".claim-form summary").click()
    declarer.locator("#claim-tricks").fill(str(CLAIMED))
    declarer.locator("#claim-send").click()
    for defender in (LHO[dealer(board)], LHO[LHO[LHO[dealer(board)]]]):
        seats[defender].locator("#claim-accept").click()


def score_shown(page: Page, player: Player, complete: int) -> None:
    """The running score: none before a board is complete everywhere, else his pair's
    percentage over the `complete` boards (Law 16C1)."""
    if complete == 0:
        expect(page.locator(".score")).to_have_text(
            "No board is complete at every table yet: no score so far.")
        return
    percent = shown(percents(complete)[sits_as(player)[0]])
    expect(page.locator("#play-score")).to_contain_text(f"Your score so far: {percent} %")
    expect(page.locator("#play-score")).to_contain_text(f"over the {complete} board(s)")


def test_a_whole_evening_lived_in_chromium(stack: Stack, browser: Browser,
                                           tabs: list[Tab]) -> None:
    director, links = director_enters_and_closes(browser, stack, tabs)
    console = director.page
    with stack.client(stack.director) as http:
        view = http.get(f"/api/tournaments/{T}/links")
        assert view.status_code == 200, view.text
        tables = sorted(t["table"] for t in view.json()["tables"])
        vugraph = view.json()["vugraph"]
        spectator = open_tab(browser, vugraph if "://" in vugraph else f"{stack.url}{vugraph}")
        tabs.append(spectator)
    expect(spectator.page.locator("#connection")).to_have_text("Connected")
    for table in tables:  # the tournament's vugraph lists its two tables
        expect(spectator.page.locator(f".tables tr[data-table='{table}']")).to_have_count(1)

    pages: dict[Player, Tab] = {}
    for player, link in sorted(links.items()):
        pages[player] = open_tab(browser, link, PHONE if player == (2, 1) else None)
        tabs.append(pages[player])
    lobby_shown(pages, moved=False)

    open_players(console)
    reissue(browser, console, pages, (3, 1), links[3, 1], tabs)
    for player, to in SWAPPED.items():
        move(console, player, to)
    lobby_shown(pages, moved=True)  # each moved page follows: its new table named, by its socket
    expect(pages[1, 1].page.locator("#play-body")).to_contain_text(
        "You are Ann Able of pair 1, Ann Able & Bob Baker (Ann Able, Bob Baker), with Di Dale.")
    expect(pages[2, 2].page.locator("#play-body")).to_contain_text(
        "You are Di Dale of pair 1, Ann Able & Bob Baker (Ann Able, Bob Baker), with Ann Able.")
    for tab in pages.values():
        tab.page.evaluate("window.stayed = true")  # gone if the page is loaded again
    screenshot(pages[1, 1].page, "evening-lobby.png")
    phone_screenshot(pages[2, 1].page, "evening-lobby-phone.png")
    screenshot(console, "director-players.png")

    for rnd in (1, 2, 3):
        started = http_post(stack, f"/api/tournaments/{T}/rounds", {"round": rnd})
        assert started == 202
        for player, tab in pages.items():
            table, seat = seat_of(rnd, player)
            page = tab.page
            expect(page.locator("body")).to_have_attribute("data-round", str(rnd))
            expect(page.locator("body")).to_have_attribute("data-phase", "seated")
            expect(page.locator("#title")).to_have_text(
                f"Table {tables[table - 1]} · {NAMES[seat]}")
            expect(page.locator("#hand [data-hand] [data-card]")).to_have_count(13)
            assert page.evaluate("window.stayed === true"), "the page was loaded again"
        pass_out(at_table(pages, rnd, 1), rnd)
        first = [p for p in pages if seat_of(rnd, p)[0] == 1]
        for player in first:  # table 2 still plays the board: not counted yet (Law 16C1)
            page = pages[player].page
            expect(page.locator("body")).to_have_attribute(
                "data-phase", "between" if rnd < 3 else "end")
            score_shown(page, player, rnd - 1)
        if rnd == 2:
            screenshot(pages[1, 1].page, "evening-between.png")
        one_notrump_claimed(at_table(pages, rnd, 2), rnd)
        for player, tab in pages.items():
            page = tab.page
            if rnd < 3:
                table, _ = seat_of(rnd + 1, player)
                expect(page.locator("body")).to_have_attribute("data-phase", "between")
                expect(page.locator("#play-next")).to_contain_text(
                    f"Round {rnd + 1}: table {table},")
                expect(page.locator("#seat-main")).to_be_hidden()
            score_shown(page, player, rnd)
        if rnd == 2:
            phone_screenshot(pages[2, 1].page, "evening-between-phone.png")

    for player, tab in pages.items():
        page = tab.page
        expect(page.locator("body")).to_have_attribute("data-phase", "end")
        expect(page.locator("#play-scorecard tr")).to_have_count(1 + 3)
        boards = page.locator("#play-scorecard tr td:first-child").all_inner_texts()
        assert boards == ["1", "2", "3"], (player, boards)
        shown_percents = page.locator("#play-scorecard tr td:last-child").all_inner_texts()
        assert shown_percents == [shown(p) for p in by_board(3)[sits_as(player)[0]]], (
            player, shown_percents)
    screenshot(pages[1, 1].page, "evening-scorecard.png")
    phone_screenshot(pages[2, 1].page, "evening-scorecard-phone.png")

    console.locator(".tab[data-tab='tournament']").click()
    console.select_option("#tournament-pick", T)
    expect(console.locator("#tournament-totals")).to_contain_text("6 boards done")
    expect(spectator.page.locator("#connection")).to_have_text("Connected")
    expect(spectator.page.locator(".tables tbody tr")).to_have_count(2)
    for tab in (pages[1, 1], pages[2, 1], director):
        assert serious_violations(tab.page) == [], tab.page.url
    for tab in (*pages.values(), spectator):
        assert_clean_console(tab)
    assert director.console == [REFUSED.format("404 (Not Found)")], director.console
    assert director.errors == []


def http_post(stack: Stack, path: str, body: dict[str, Any]) -> int:
    with stack.client(stack.director) as http:
        response = http.post(path, json=body)
        assert response.status_code == 202, response.text
        return response.status_code
