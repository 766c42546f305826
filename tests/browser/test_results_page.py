"""The public results page in a real browser (pages.md): a Mitchell's rankings, travellers,
scorecards and the Director's scores, live as results and adjustments come, read with no
token; on a phone, printed (print media), under the Content-Security-Policy, with no serious
axe-core finding.

Fair play (the tournament's regulation, Law 80B, against Law 16C1's unauthorized information
about a board still to be played): after round 1 every table has finished its boards, but in
a Mitchell each board moves on to another table in round 2, so the page shows no traveller,
no scorecard line, no Director's score of any board and no ranking (which would move as another
table plays a board) until round 2 has been played."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.browser import (
    PHONE,
    Tab,
    assert_clean_console,
    open_tab,
    screenshot,
    serious_violations,
)
from tests.browser.results_play import create_mitchell, play_match, play_round
from tests.helpers import DEALS, wait_for_auction
from tests.integration.test_tournament_results import PAIRS, _deals, _play
from tests.stack import Stack

expect.set_options(timeout=10_000)


def _shown(value: float) -> str:
    """A number as the page writes it: two decimals, a minus sign (−) for a negative one."""
    return f"{value:.2f}" if value >= 0 else f"−{-value:.2f}"


def _percent(tab: Tab, entrant: int) -> str:
    return tab.page.locator(f"#rankings tr[data-entrant='{entrant}'] td[data-percent]"
                            ).inner_text()


def test_the_results_page_follows_a_mitchell_live_and_keeps_boards_to_come_hidden(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "rpage"
    with stack.client(stack.director) as http, stack.client() as public:
        seats = create_mitchell(http, t)
        play_round(http, t, seats, 1)
        tab = open_tab(browser, f"{stack.url}/results#{t}")
        tabs.append(tab)
        page = tab.page
        expect(page.locator("#connection")).to_have_text("Live")
        expect(page.locator("#summary")).to_contain_text("round 1 of 2 · 0 boards complete")
        # round 1 done everywhere, and yet each board is still to come at another table
        doc: dict[str, Any] = public.get(f"/api/tournaments/{t}/results").json()
        assert doc["travellers"] == [] and doc["complete"] == [] and doc["rankings"] == []
        expect(page.locator("#rankings-counted")).to_have_text(
            "The rankings count the boards every table has played: none yet.")
        assert page.locator("#rankings tr[data-entrant]").count() == 0
        assert page.locator("#travellers [data-board]").count() == 0
        assert page.locator("#scorecards tr[data-board]").count() == 0
        live = http.get(f"/api/tournaments/{t}/results").json()  # the Director's: every result
        assert len(live["rankings"]) == 6 and live["counted"] == "all"

        play_round(http, t, seats, 2)
        expect(page.locator("#travellers .traveller")).to_have_count(6)
        expect(page.locator("#rankings tr[data-entrant]")).to_have_count(6)
        expect(page.locator("#rankings-counted")).to_have_text(
            "The rankings count the boards every table has played: 6 boards.")
        doc = public.get(f"/api/tournaments/{t}/results").json()
        assert {r["entrant"]: f"{r['percent']:.2f}" for r in doc["rankings"]} == {
            n: _percent(tab, n) for n in range(1, 7)}
        expect(page.locator("#summary")).to_contain_text("6 boards complete")
        full: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
        for traveller in full["travellers"]:
            rows = page.locator(f"#travellers .traveller[data-board='{traveller['board']}'] "
                                "tbody tr")
            expect(rows).to_have_count(len(traveller["lines"]))
            for line in traveller["lines"]:
                row = page.locator(f"#travellers .traveller[data-board='{traveller['board']}'] "
                                   f"tr[data-ns='{line['ns']}'][data-ew='{line['ew']}']")
                score = line["score_ns"]
                expect(row.locator("td[data-score]")).to_have_text(
                    str(score) if score >= 0 else f"−{-score}")
                # the play as the table recorded it: 1NT by the dealer (results_play.py)
                dealer = "NESW"[(traveller["board"] - 1) % 4]
                assert (line["contract"], line["declarer"]) == ("1NT", dealer)
                expect(row.locator("td[data-contract]")).to_have_text(f"1NT {dealer}")
                suit = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[line["lead"][0]]
                expect(row.locator("td[data-lead]")).to_have_text(suit + line["lead"][1:])
        # pair 4's scorecard: its four boards
        page.select_option("#scorecard-pick", "4")
        expect(page.locator("#scorecards .scorecard[data-entrant='4'] tbody tr")).to_have_count(4)

        # the Director's weighted score on board 1 between 1 and 4 reaches the page
        before = _percent(tab, 1)
        given = http.post(f"/api/tournaments/{t}/scores", json={
            "kind": "weighted", "board": 1, "ns": 1, "ew": 4,
            "reason": "misinformation (Law 21B)",
            "parts": [{"percent": 60, "score_ns": 2000}, {"percent": 40, "score_ns": -2000}]})
        assert given.status_code == 202, given.text
        expect(page.locator("#director li[data-kind='weighted']")).to_contain_text(
            "misinformation (Law 21B)")
        row = page.locator("#travellers .traveller[data-board='1'] tr[data-ns='1']")
        expect(row).to_have_attribute("data-kind", "weighted")
        expect(row.locator("td[data-score]")).to_have_text("60% NS 2000 + 40% EW 2000")
        doc = public.get(f"/api/tournaments/{t}/results").json()
        after = next(r for r in doc["rankings"] if r["entrant"] == 1)["percent"]
        expect(page.locator("#rankings tr[data-entrant='1'] td[data-percent]")).to_have_text(
            f"{after:.2f}")
        assert f"{after:.2f}" != before

        assert serious_violations(page) == []
        assert_clean_console(tab)
        screenshot(page, "results-desktop.png")
        page.emulate_media(media="print")
        expect(page.locator("#print")).to_be_hidden()
        expect(page.locator(".scorecard[data-entrant='2']")).to_be_visible()  # every card
        screenshot(page, "results-print.png")

        phone = open_tab(browser, f"{stack.url}/results#{t}", PHONE)
        tabs.append(phone)
        expect(phone.page.locator("#travellers .traveller")).to_have_count(6)
        width = phone.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width  # a traveller's row wraps under its heads
        screenshot(phone.page, "results-phone.png")
        assert_clean_console(phone)

        missing = open_tab(browser, f"{stack.url}/results#no-such-thing")
        tabs.append(missing)
        expect(missing.page.locator("#connection")).to_have_text(re.compile("no tournament"))


def test_the_results_page_shows_a_team_match_to_victory_points(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """Law 78B: each board's IMPs between the rooms, the match to VPs, as the API gives them;
    a team's scorecard is its match."""
    t = "rteams"
    with stack.client(stack.director) as http:
        play_match(http, t)
        doc: dict[str, Any] = http.get(f"/api/tournaments/{t}/results").json()
    assert doc["complete"] == [1, 2, 3, 4]
    tab = open_tab(browser, f"{stack.url}/results#{t}")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#travellers .traveller[data-match='1-2'] tbody tr")).to_have_count(4)
    match = doc["matches"][0]
    for b in match["boards"]:
        row = page.locator(f"#travellers tr[data-board='{b['board']}'] td")
        expect(row.nth(3)).to_have_text(_shown(b["home_imps"]))
        expect(row.nth(4)).to_have_text(_shown(b["away_imps"]))
    for r in doc["rankings"]:
        expect(page.locator(f"#rankings tr[data-entrant='{r['entrant']}'] td").nth(3)
               ).to_have_text(_shown(r["vp"]))
    expect(page.locator("#rankings caption")).to_have_text("Teams by victory points")
    expect(page.locator(".scorecard[data-entrant='1'] [data-match='1-2']")).to_be_visible()
    assert serious_violations(page) == []
    assert_clean_console(tab)
    screenshot(page, "results-teams.png")


def test_the_results_page_follows_another_tournament_put_in_its_hash(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    """A newcomer opens one tournament's results, then types another's name after the `#`:
    the page shows the other's, nothing of the first left (its rankings, its pairs in the
    scorecard's list), and a name with no results says so. A count of one is singular."""
    with stack.client(stack.director) as http:
        one = http.post("/api/tournaments", json={
            "tournament": "rhash-one", "name": "One board", "tables": 2, "deals": DEALS,
            "entrants": PAIRS[:4], "movement": {"kind": "howell", "boards_per_round": 1,
                                                "rounds": 1}})
        assert one.status_code == 201, one.text
        assert http.post("/api/tournaments/rhash-one/rounds",
                         json={"round": 1}).status_code == 202
        for line in one.json()["tables"]:
            wait_for_auction(http, line["table"], 1)
            _play(http, line["seats"], line["table"], 1, _deals()[1], 7)
        create_mitchell(http, "rhash-six")
    tab = open_tab(browser, f"{stack.url}/results#rhash-one")
    tabs.append(tab)
    page = tab.page
    expect(page.locator("#title")).to_have_text("Results — One board")
    expect(page.locator("#summary")).to_have_text(
        "4 pairs · howell · round 1 of 1 · 1 board complete")
    expect(page.locator("#travellers .traveller")).to_have_count(1)
    expect(page.locator("#rankings tr[data-entrant]")).to_have_count(4)

    page.evaluate("window.location.hash = '#rhash-six'")
    expect(page.locator("#title")).to_have_text("Results — rhash-six")
    expect(page.locator("#summary")).to_have_text(
        "6 pairs · mitchell · round 0 of 2 · 0 boards complete")
    expect(page.locator("#scorecard-pick option")).to_have_count(6)
    expect(page.locator("#rankings tr[data-entrant]")).to_have_count(0)  # no round played
    expect(page.locator("#travellers .traveller")).to_have_count(0)

    page.evaluate("window.location.hash = '#rhash-none'")
    expect(page.locator("#connection")).to_have_text(re.compile("no tournament"))
    expect(page.locator("#rankings tr[data-entrant]")).to_have_count(0)
    expect(page.locator("#title")).to_have_text("Results")

    page.evaluate("window.location.hash = '#rhash-one'")  # polled again after a refusal
    expect(page.locator("#connection")).to_have_text("Live")
    expect(page.locator("#rankings tr[data-entrant]")).to_have_count(4)
    assert tab.errors == [] and tab.csp_violations() == []  # the 404 is in the console
