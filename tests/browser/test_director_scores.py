"""The director's console's forms for the Director's scores (scoring.md) in a real browser, on a
Mitchell played through on the real stack: each kind submitted from the form (Law 12C2's
artificial score, 12C1(b) assigned, 12C1(c) weighted, a split score, a Law 90 procedural
penalty, a correction of a result, Law 79C), each changing the standings the tournament's
overview carries, as the console shows them; a weighted score whose weights do not sum to
100 % shown as the server's 400 message, naming `parts`, with nothing recorded."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.browser import Tab, screenshot, serious_violations
from tests.browser.results_play import create_mitchell, play_round
from tests.browser.test_director import console_tab
from tests.stack import Stack

expect.set_options(timeout=10_000)

# who plays what (tests/integration/test_tournament_results.py's SEATED): round 1 1v4 boards
# 1-2, 2v5 boards 3-4, 3v6 boards 5-6; round 2 1v6 boards 3-4, 2v4 boards 5-6, 3v5 boards 1-2
GIVEN: list[tuple[dict[str, str], dict[str, Any]]] = [
    ({"kind": "artificial", "board": "1", "ns": "1", "ew": "4", "ns-fault": "not_at_fault",
      "ew-fault": "directly_at_fault", "reason": "EW arrived too late (Law 12C2(a))"},
     {"kind": "artificial", "board": 1}),
    ({"kind": "assigned", "board": "3", "ns": "2", "ew": "5", "score": "-2000",
      "reason": "unauthorized information (Law 16B)"}, {"kind": "assigned", "board": 3}),
    ({"kind": "weighted", "board": "5", "ns": "3", "ew": "6", "parts": "60% 2000, 40% -2000",
      "reason": "misinformation (Law 21B)"}, {"kind": "weighted", "board": 5}),
    ({"kind": "split", "board": "2", "ns": "1", "ew": "4", "ns-side": "-2000",
      "ew-side": "50% 2000, 50% -2000", "reason": "Law 12C1(b), each side"},
     {"kind": "split", "board": 2}),
    ({"kind": "penalty", "board": "4", "entrant": "5", "amount": "50",
      "reason": "slow play (Law 90B2)"}, {"kind": "penalty", "board": 4}),
    ({"kind": "corrected", "board": "6", "ns": "2", "ew": "4", "score": "-1000",
      "reason": "mis-recorded (Law 79C)"}, {"kind": "corrected", "board": 6}),
]


def _submit(page: Page, fields: dict[str, str]) -> None:
    page.select_option("#score-kind", fields["kind"])
    for name, value in fields.items():
        if name == "kind":
            continue
        target = page.locator(f"#score-{name}")
        if target.evaluate("e => e.tagName") == "SELECT":
            target.select_option(value)
        else:
            target.fill(value)
    page.locator("#score-form button[type='submit']").click()


def _standings_text(page: Page) -> str:  # the standings as the console shows them
    text: str = page.locator("#standings").inner_text()
    return text


def _expected(standings: dict[str, Any]) -> list[str]:
    """The console's standings lines as the overview's standings give them."""
    return [f"{x['rank']}. {x['entrant']} {x['name']}: {x['percent']:.2f} %"
            for f in standings["fields"] for x in f["top"]]


def test_each_directors_score_from_the_console_changes_the_standings(
        stack: Stack, browser: Browser, tabs: list[Tab]) -> None:
    t = "dscores"
    with stack.client(stack.director) as http:
        seats = create_mitchell(http, t)
        for rnd in (1, 2):
            play_round(http, t, seats, rnd)
        tab = console_tab(browser, stack)
        tabs.append(tab)
        page = tab.page
        page.locator(".tab[data-tab='tournament']").click()
        page.select_option("#tournament-pick", t)
        lines = page.locator("#standings li")
        expect(lines).to_have_count(6)
        overview = http.get(f"/api/tournaments/{t}").json()
        expect(lines).to_have_text(_expected(overview["standings"]))
        expect(page.locator("#results-link")).to_have_attribute("href", f"/results#{t}")

        # a weighted score whose weights make 90 %: the server's message, nothing recorded
        before = http.get(f"/api/tournaments/{t}/results").json()
        bad = {"kind": "weighted", "board": 1, "ns": 1, "ew": 4, "reason": "",
               "parts": [{"percent": 70, "score_ns": 120}, {"percent": 20, "score_ns": -50}]}
        refused = http.post(f"/api/tournaments/{t}/scores", json=bad)
        assert refused.status_code == 400 and refused.json()["field"] == "parts"
        _submit(page, {"kind": "weighted", "board": "1", "ns": "1", "ew": "4",
                       "parts": "70% 120, 20% -50", "reason": ""})
        expect(page.locator("#score-result")).to_have_text(
            f"Refused: {refused.json()['error']} (Weights: percent and NS's score)")
        expect(page.locator("#score-parts")).to_have_attribute("aria-invalid", "true")
        after = http.get(f"/api/tournaments/{t}/results").json()
        assert after == before  # nothing recorded
        _submit(page, {"kind": "weighted", "board": "1", "ns": "1", "ew": "4",
                       "parts": "sixty-forty"})  # not even sent: the form says how
        expect(page.locator("#score-result")).to_contain_text(
            "Not sent: Weights: percent and NS's score: write them as")

        for fields, recorded in GIVEN:
            shown = _standings_text(page)
            _submit(page, fields)
            expect(page.locator("#score-result")).to_contain_text(
                f"Recorded ({recorded['kind']}, board {recorded['board']}")
            # each score changes the standings (each board's top changes hands), as the
            # overview gives them
            expect(page.locator("#standings")).not_to_have_text(shown)
            overview = http.get(f"/api/tournaments/{t}").json()
            expect(lines).to_have_text(_expected(overview["standings"]))
        doc = http.get(f"/api/tournaments/{t}/results").json()
        assert [(a["kind"], a["board"], a["reason"]) for a in doc["adjustments"]] == [
            (f["kind"], int(f["board"]), f["reason"]) for f, _ in GIVEN
            if f["kind"] != "penalty"]
        assert [(p["entrant"], p["amount"], p["unit"]) for p in doc["penalties"]] == [
            (5, 50, "percent")]
        split = next(a for a in doc["adjustments"] if a["kind"] == "split")
        assert split["ns_score"] == {"score_ns": -2000} and split["ew_score"]["parts"] == [
            {"percent": 50.0, "percent_text": "50", "score_ns": 2000},
            {"percent": 50.0, "percent_text": "50", "score_ns": -2000}]
        page.select_option("#score-kind", "weighted")
        assert serious_violations(page) == []
        # the console's one complaint: the refused weights' 400, which the page showed
        assert tab.csp_violations() == [] and tab.errors == []
        assert tab.console == ["Failed to load resource: the server responded with a status "
                               "of 400 (Bad Request)"]
        screenshot(page, "director-scores.png")
