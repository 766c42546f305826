"""A tournament's entries on the real stack (Kafka, Redis, two gateway processes): players enter
at once through both gateways and each pair gets its own entrant number; six entries sent at
once with one player in common leave exactly one standing, the others refused naming the field;
the Director refuses one and closes: the tournament is created with the standing pairs (a
Mitchell of six tables for twelve pairs) and round 1 seats them as the movement says (their
names at the seats). The rules alone: tests/unit/test_entries.py; the routes on fakes:
tests/unit/test_entry_routes.py."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers import DEALS, run, wait_for
from tests.stack import Stack, another_gateway

T = "entries-int"


@pytest.fixture(scope="module")
def second_gateway(stack: Stack) -> Iterator[str]:
    with another_gateway(stack, stack.gateway_port + 95, "gateway-entries.log") as url:
        yield url


def pair(a: str, b: str) -> dict[str, Any]:
    return {"players": [{"name": a}, {"name": b}]}


async def at_once(urls: list[str], token: str, bodies: list[dict[str, Any]]
                  ) -> list[httpx.Response]:
    """Each body posted as an entry at the same time, to the gateways in turn."""
    headers = {"Authorization": f"Bearer {token}"}
    clients = [httpx.AsyncClient(base_url=url, headers=headers, timeout=30) for url in urls]
    try:
        return list(await asyncio.gather(*(
            clients[k % len(clients)].post(f"/api/tournaments/{T}/entries", json=body)
            for k, body in enumerate(bodies))))
    finally:
        for client in clients:
            await client.aclose()


def scope_of(token: str) -> list[Any]:
    """Whom a player's token is for (its `q`: entry, place, generation), without its expiry."""
    claims = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))
    scope: list[Any] = claims["q"]
    return scope


def test_entries_at_once_on_two_gateways_each_stand_once_and_the_close_seats_them(
        stack: Stack, second_gateway: str) -> None:
    urls = [stack.url, second_gateway]
    with stack.client(stack.director) as http:
        opened = http.post(f"/api/tournaments/{T}/entries/open", json={
            "name": "Entries on the stack", "deals": DEALS,
            "movement": {"boards_per_round": 1}})
        assert opened.status_code == 201, opened.text
        token = opened.json()["token"]

        answers = run(at_once(urls, token, [pair(f"A{n}", f"B{n}") for n in range(12)]))
        assert [a.status_code for a in answers] == [201] * 12, [a.text for a in answers]
        assert sorted(a.json()["number"] for a in answers) == list(range(1, 13))

        racing = run(at_once(urls, token, [pair("Zoe Quinn", f"Partner {k}")
                                           for k in range(6)]))
        statuses = sorted(a.status_code for a in racing)
        assert statuses == [201] + [409] * 5, [a.text for a in racing]
        assert {a.json()["field"] for a in racing if a.status_code == 409} == {"players[0]"}

        def listed(url: str) -> list[dict[str, Any]]:
            """The entries as `url`'s gateway lists them, each link's token as the player's
            scope it names (a token is signed at each read, its expiry from that second)."""
            with stack.client(stack.director, url) as reader:
                entries: list[dict[str, Any]] = reader.get(
                    f"/api/tournaments/{T}/entries").json()["entries"]
            for e in entries:
                for link in e.get("links") or []:
                    link["token"] = scope_of(link.pop("token"))
                    link.pop("link")
            return entries
        mine = listed(stack.url)
        assert len(mine) == 13 and listed(second_gateway) == mine  # one order, both gateways
        assert sum("Zoe Quinn" in e["name"] for e in mine) == 1

        refused = http.post(f"/api/tournaments/{T}/entries/1/refuse",
                            json={"reason": "entered by mistake"})
        assert refused.status_code == 200, refused.text
        closed = http.post(f"/api/tournaments/{T}/entries/close", json={})
        assert closed.status_code == 201, closed.text
        assert closed.json()["movement"]["kind"] == "mitchell"  # twelve pairs: past a Howell
        assert (closed.json()["tables"], closed.json()["entrants"]) == (6, 12)
        standing = [e for e in mine if e["entry"] != 1]
        late = run(at_once(urls, token, [pair("Late", "Comer")]))[0]
        assert (late.status_code, late.json()["field"]) == (409, "entries")

        started = http.post(f"/api/tournaments/{T}/rounds", json={"round": 1})
        assert started.status_code == 202, started.text
        # a Mitchell's round 1: NS pair t and EW pair 6 + t at table t
        ns, ew = standing[0]["players"], standing[6]["players"]
        expected = {"N": ns[0]["name"], "S": ns[1]["name"],
                    "E": ew[0]["name"], "W": ew[1]["name"]}

        def seated() -> bool:
            state = http.get(f"/api/tables/{T}-1/state").json()
            return bool(state.get("board")) and state["board"]["players"] == expected
        wait_for(seated, 30, "round 1's players named at table 1")
