"""A socket's token in its first message, `{"type": "auth", "token": …}`, never in its URL (a
URL lands in logs): the pages authenticate their sockets this way. A bad token, or another
first message, closes the socket 4401; a seat's token on the director's feed, 4403."""

from __future__ import annotations

import json
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.integration.conftest import Stack, run
from tests.integration.test_pipeline import new_table

pytestmark = pytest.mark.integration


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
