"""The TLS front (deploy/tls: nginx with a certificate given by path, here the self-signed one
its start script makes) before a gateway whose public address (`TABLESERVER_PUBLIC_URL`) is the
front's: pages and calls over HTTPS, plain HTTP sent there, the links the gateway gives at the
public address, and a feed's socket upgraded through it (wss) receiving each update."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from tests.helpers import DEAL, GATEWAY_PORT, run
from tests.stack import Stack
from tests.tls_front import Front, tls_front


@pytest.fixture(scope="module")
def front(stack: Stack) -> Iterator[Front]:
    with tls_front(stack, GATEWAY_PORT + 42, GATEWAY_PORT + 43, GATEWAY_PORT + 44,
                   "tls-front") as started:
        yield started


def test_a_page_is_served_over_https_and_plain_http_is_sent_there(front: Front) -> None:
    with front.client() as https:
        page = https.get("/seat")
        assert page.status_code == 200 and "<html" in page.text.lower()
        assert page.headers["content-security-policy"].startswith("default-src 'self'")
        assert https.get("/healthz").status_code == 200
    plain = httpx.get(f"http://localhost:{front.http_port}/seat?x=1", follow_redirects=False)
    assert plain.status_code == 301
    assert plain.headers["location"] == f"{front.public}/seat?x=1"


def test_a_table_made_through_the_front_links_there_and_its_feed_updates_over_wss(
        stack: Stack, front: Front) -> None:
    with front.client(stack.director) as director:
        made = director.post("/api/tables", json={"table": "tls1"})
        assert made.status_code == 201, made.text
        tokens = made.json()
        assert tokens["links"] == {s: f"{front.public}/seat#{tokens['seats'][s]}"
                                   for s in "NESW"}
        operator = director.post("/api/tables/tls1/operator", json={}).json()
        assert operator["link"] == f"{front.public}/capture#{operator['token']}"
        page = director.get(tokens["links"]["N"].partition("#")[0])  # the link opens a page
        assert page.status_code == 200 and "seat" in page.text
        started = director.post("/api/tables/tls1/boards", json={"board": 1, "deal": DEAL})
        assert started.status_code == 202, started.text
    # asked at the gateway itself (as on the club's own network), its links are the same
    with httpx.Client(base_url=front.gateway, timeout=10,
                      headers={"Authorization": f"Bearer {stack.director}"}) as inside:
        assert inside.get("/api/tables/tls1/links").json()["links"]["S"].startswith(
            f"{front.public}/seat#")
    north = tokens["seats"]["N"]
    received = run(_feed_until_called(front, north))
    assert received["board"]["calls"] == [{"seat": "N", "call": "P"}]


async def _feed_until_called(front: Front, token: str) -> dict[str, Any]:
    """North's feed over wss through the front, as his page opens it (its Origin the public
    address, the token its first message): the board's state first, then North's pass posted
    over HTTPS; the state with the pass in it, received on the socket."""
    url = front.public.replace("https://", "wss://") + "/api/tables/tls1/feed"
    async with connect(url, ssl=front.trust(), origin=front.public,  # type: ignore[arg-type]
                       open_timeout=30) as socket:
        await socket.send(json.dumps({"type": "auth", "token": token}))
        first = json.loads(await asyncio.wait_for(socket.recv(), 30))
        assert first["board"]["calls"] == []  # board 1 started, no call yet
        async with httpx.AsyncClient(
                base_url=front.public, timeout=10,
                verify=front.trust(),
                headers={"Authorization": f"Bearer {token}"}) as https:
            posted = await https.post("/api/tables/tls1/events",
                                      json={"type": "call", "call": "P"})
            assert posted.status_code == 202, posted.text
            offset = posted.json()["offset"]
        while True:
            state: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), 30))
            if state["version"] >= offset:
                assert state["version"] == offset
                return state
