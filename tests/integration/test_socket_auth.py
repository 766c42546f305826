"""A socket's token in its first message, `{"type": "auth", "token": …}`, never in its URL (a
URL lands in logs): the pages authenticate their sockets this way. A bad token, or another
first message, closes the socket 4401; a seat's token on the director's feed, 4403."""

from __future__ import annotations

import json
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.helpers import new_table, run, state, wait_for
from tests.stack import Stack
from tests.unit.test_tokens import signed


async def _first(url: str, first: dict[str, Any]) -> dict[str, Any] | int:
    """What the socket sends after `first`: its first message, or its close code."""
    async with connect(url, open_timeout=30) as socket:
        await socket.send(json.dumps(first))
        try:
            found: dict[str, Any] = json.loads(await socket.recv())
            return found
        except ConnectionClosed:
            return socket.close_code or 0


def test_a_token_in_the_first_message_opens_the_feed(stack: Stack) -> None:
    tokens = new_table(stack, "auth1")
    base = stack.url.replace("http", "ws")
    feed = f"{base}/api/tables/auth1/feed"
    seat = run(_first(feed, {"type": "auth", "token": tokens["seats"]["N"]}))
    assert isinstance(seat, dict) and seat["board"]["board"] == 1
    assert seat["board"]["open_calls"][0] == "P"  # North deals board 1: his bidding box
    assert run(_first(feed, {"type": "auth", "token": "v1.forged.token"})) == 4401
    assert run(_first(feed, {"type": "call", "call": "1H"})) == 4401
    alerts = f"{base}/api/alerts/feed"
    assert run(_first(alerts, {"type": "auth", "token": tokens["seats"]["N"]})) == 4403


def test_a_token_is_read_strictly_everywhere(stack: Stack) -> None:
    """Strict tokens, on the real gateway: junk after a real token, or a token
    signed with the real key whose claims `sign` never writes (a seat of null or "Q", an
    expiry that is no number), is a 401 on every path (a read, the call path, a socket's
    first message closes 4401), never a 500 or a reset."""
    tokens = new_table(stack, "auth2")
    wait_for(lambda: state(stack, "auth2", stack.director)["board"], 10, "board 1 folded")
    key = (stack.data / "signing.key").read_text().strip().encode()
    seat = tokens["seats"]["N"]
    bad = [signed({"t": "auth2", "s": None, "r": "seat", "e": 2**40}, key),
           signed({"t": "auth2", "s": "Q", "r": "seat", "e": 2**40}, key),
           signed({"t": "auth2", "s": "N", "r": "seat", "e": "tomorrow"}, key),
           signed({"t": "auth2", "s": "N", "r": "seat", "e": True}, key),
           signed({"t": ["auth2"], "s": "N", "r": "seat", "e": 2**40}, key),
           seat + "!!", seat + "="]
    feed = f"{stack.url.replace('http', 'ws')}/api/tables/auth2/feed"
    for token in bad:
        with stack.client(token) as http:
            for method, path, body in (("GET", "/api/tables/auth2/state", None),
                                       ("GET", "/api/tables/auth2/history", None),
                                       ("POST", "/api/tables/auth2/events",
                                        {"type": "call", "call": "P"})):
                answer = http.request(method, path, json=body)
                assert answer.status_code == 401, (token, path, answer.text)
                assert "token" in answer.json()["error"]
        assert run(_first(feed, {"type": "auth", "token": token})) == 4401, token
    with stack.client(seat) as http:  # the token itself, spelt as issued
        assert http.get("/api/tables/auth2/state").status_code == 200
