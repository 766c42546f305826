"""What the director's console reads and writes besides events, on the real stack: the list of
tables, their links handed out again, a tournament's links, and the director's marks on the
alerts he has dealt with (kept in Kafka: another gateway knows them)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import new_table, wait_for
from tests.stack import Stack, another_gateway

DEALS = (Path(__file__).parent.parent / "data" / "deals-32.pbn").read_text()
SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))  # as conftest.py's
OTHER_GATEWAY_PORT = 18090 + SHIFT


def _alert_of(stack: Stack, table: str, url: str | None = None) -> dict[str, Any] | None:
    with stack.client(stack.director, url) as http:
        alerts = http.get("/api/alerts", params={"count": 1000}).json()["alerts"]
    return next((a for a in alerts if a["table"] == table), None)


def _insufficient_bid(stack: Stack, table: str) -> dict[str, Any]:
    """A new `table` where North opens 1S and East bids 1H (Law 27): its alert."""
    tokens = new_table(stack, table)
    for seat, call in (("N", "1S"), ("E", "1H")):
        with stack.client(tokens["seats"][seat]) as http:
            assert http.post(f"/api/tables/{table}/events",
                             json={"type": "call", "call": call}).status_code == 202
    alert: dict[str, Any] = wait_for(lambda: _alert_of(stack, table), 20, "the Law 27 alert")
    return alert


def test_the_director_lists_the_tables_and_hands_their_links_out_again(stack: Stack) -> None:
    tokens = new_table(stack, "console-list", "rubber")
    with stack.client(stack.director) as http:
        listed = {t["table"]: t for t in http.get("/api/tables").json()["tables"]}
        links = http.get("/api/tables/console-list/links")
        missing = http.get("/api/tables/console-none/links")
    assert listed["console-list"] == {"table": "console-list", "ruleset": "rubber",
                                      "tournament": None}
    assert links.status_code == 200 and missing.status_code == 404
    again = links.json()
    assert set(again["links"]) == set("NESW")
    assert again["links"]["E"] == f"/seat#{again['seats']['E']}"
    with stack.client(again["seats"]["E"]) as http:  # a new token of the same seat
        seen = wait_for(lambda: http.get("/api/tables/console-list/state").json()["board"],
                        20, "the board's state")
    assert seen["deal"].count(".") == 3  # East's own hand only: one hand of four suits
    with stack.client(tokens["seats"]["N"]) as http:
        assert http.get("/api/tables").status_code == 403
        assert http.get("/api/tables/console-list/links").status_code == 403


def test_a_tournaments_links_are_handed_out_again(stack: Stack) -> None:
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={"tournament": "links", "tables": 2,
                                                   "deals": DEALS}).json()
        again = http.get("/api/tournaments/links/links")
        listed = {t["table"]: t for t in http.get("/api/tables").json()["tables"]}
        assert http.get("/api/tournaments/no-such/links").status_code == 404
    assert again.status_code == 200
    view = again.json()
    assert [t["table"] for t in view["tables"]] == [t["table"] for t in made["tables"]]
    assert view["vugraph"].startswith("/vugraph#") and view["boards"] == made["boards"]
    assert view["results"] == made["results"] == "/results#links"  # public, no token
    assert listed["links-1"]["tournament"] == "links"


def test_an_alert_is_marked_handled_and_every_gateway_knows_it(stack: Stack) -> None:
    """East's insufficient bid (Law 27) raises an alert; the director marks it handled, and a
    gateway started afterwards reads the mark from Kafka; taking it back is marked too."""
    alert = _insufficient_bid(stack, "console-mark")
    assert alert["law"] == "27" and alert["handled"] is None and alert["ts"] > 0
    with stack.client(stack.director) as http:
        marked = http.post(f"/api/alerts/{alert['id']}/handled",
                           json={"note": "East substituted 2H"})
        assert marked.status_code == 202, marked.text
        assert marked.json()["handled"] is True
        assert http.get("/api/alerts/handled").json()["handled"][alert["id"]]["note"] == \
            "East substituted 2H"
    with another_gateway(stack, OTHER_GATEWAY_PORT, "console-gateway.log") as url:
        seen = wait_for(lambda: (_alert_of(stack, "console-mark", url) or {}).get("handled"),
                        20, "the mark on the other gateway")
        assert seen["handled"] is True and seen["note"] == "East substituted 2H"
    with stack.client(stack.director) as http:
        assert http.post(f"/api/alerts/{alert['id']}/handled",
                         json={"handled": False}).status_code == 202
    unmarked = _alert_of(stack, "console-mark")
    assert unmarked is not None and unmarked["handled"]["handled"] is False


@pytest.mark.parametrize(("alert_id", "body", "status", "field"), [
    ("not-an-alert", {}, 400, "alert_id"),
    ("t:1:2:0", {"handled": "yes please"}, 400, "handled"),
    ("t:1:2:0", {"note": "x" * 501}, 400, "note"),
    # the director's marks (docs/api.md): true or false only; a note fit to be shown
    ("t:1:2:0", {"handled": "yes"}, 400, "handled"),
    ("t:1:2:0", {"handled": "true"}, 400, "handled"),
    ("t:1:2:0", {"handled": 1}, 400, "handled"),
    ("t:1:2:0", {"note": "done\x1b[2J"}, 400, "note"),
    ("t:1:2:0", {"note": "done\x00"}, 400, "note"),
    ("t:1:2:0", {"note": "done\x85"}, 400, "note"),
    ("console-none:1:2:0", {}, 404, "alert_id"),  # no such table
])
def test_a_bad_mark_is_refused_and_changes_nothing(stack: Stack, alert_id: str,
                                                   body: dict[str, Any], status: int,
                                                   field: str) -> None:
    with stack.client(stack.director) as http:
        before = http.get("/api/alerts/handled").json()
        refused = http.post(f"/api/alerts/{alert_id}/handled", json=body)
        after = http.get("/api/alerts/handled").json()
    assert refused.status_code == status and refused.json()["field"] == field
    assert before == after


def test_only_the_director_marks_alerts(stack: Stack) -> None:
    tokens = new_table(stack, "console-seat")
    with stack.client(tokens["seats"]["S"]) as http:
        assert http.post("/api/alerts/t:1:2:0/handled", json={}).status_code == 403
        assert http.get("/api/alerts/handled").status_code == 403


def test_a_mark_for_an_alert_never_raised_is_refused(stack: Stack) -> None:
    """Alert marks: the director marks only alerts a table raised: one at an event that
    raised none, past the table's end, or a poison alert that never was is a 404, and nothing
    is marked. One raised is marked, and a note may have line breaks."""
    alert = _insufficient_bid(stack, "console-404")
    assert alert["id"] == "console-404:1:2:0"
    with stack.client(stack.director) as http:
        before = http.get("/api/alerts/handled").json()
        for never in ("console-404:1:1:0", "console-404:1:2:1", "console-404:2:2:0",
                      "console-404:1:999:0", "console-404:poison:0"):
            refused = http.post(f"/api/alerts/{never}/handled", json={})
            assert refused.status_code == 404, (never, refused.text)
            assert refused.json()["field"] == "alert_id"
        assert http.get("/api/alerts/handled").json() == before
        marked = http.post(f"/api/alerts/{alert['id']}/handled",
                           json={"note": "ruled:\n2H substituted\tno penalty"})
        assert marked.status_code == 202, marked.text
