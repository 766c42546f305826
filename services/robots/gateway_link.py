"""One robot seat's link to the gateway: its state feed (as the seat sees it) and its events
(sent with the seat's token over HTTP, through the same checks as a person's)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Mapping
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

log = logging.getLogger("tableserver.robots")
RETRIES = 20  # a 503 (Kafka or Redis away) is retried, with the same client_seq


class Refusal(Exception):
    """The gateway refused the seat's token or event: its status and message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:200]
    if isinstance(body, dict):
        text = str(body.get("error") or body.get("detail") or body)
        return f"{text} (field {body['field']})" if body.get("field") else text
    return str(body)


def _key(board: Mapping[str, Any]) -> tuple[Any, Any]:
    return board.get("board"), board.get("started_ts")


def _over(board: Mapping[str, Any]) -> bool:
    return board.get("result") is not None or board.get("status") == "passed_out"


def gateway_client(gateway_url: str) -> httpx.AsyncClient:
    """One HTTP client for every robot's link (a client of its own is 0.8 MB: its TLS
    context and pool); each request carries its seat's token."""
    no_cookies = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))  # none shared
    return httpx.AsyncClient(base_url=gateway_url.rstrip("/"), timeout=15, cookies=no_cookies,
                             limits=httpx.Limits(max_connections=256,
                                                 max_keepalive_connections=64))


class GatewayLink:
    def __init__(self, gateway_url: str, table: str, token: str,
                 http: httpx.AsyncClient | None = None):
        """`http`: the host's shared client (closed by the host), else one of its own."""
        self.url = gateway_url.rstrip("/")
        self.table = table
        self.token = token
        self.own = http is None
        self.http = http or gateway_client(self.url)
        self.auth = {"Authorization": f"Bearer {token}"}

    async def close(self) -> None:
        if self.own:
            await self.http.aclose()

    async def check(self) -> None:
        """Read the table with the token: a `Refusal` if the gateway will not let it."""
        response = await self.http.get(f"/api/tables/{self.table}/state", headers=self.auth)
        if response.status_code != 200:
            raise Refusal(response.status_code, _message(response))

    async def send(self, event: Mapping[str, Any]) -> None:
        """Append the seat's event; a `Refusal` with the gateway's reason."""
        for _ in range(RETRIES):
            response = await self.http.post(f"/api/tables/{self.table}/events", json=event,
                                            headers=self.auth)
            if response.status_code == 202:
                return
            if response.status_code not in (429, 503) and "Retry-After" not in response.headers:
                raise Refusal(response.status_code, _message(response))
            await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
        raise Refusal(503, "the table does not take events now; try again")

    async def _ended(self, last: dict[str, Any] | None, board: dict[str, Any] | None
                     ) -> dict[str, Any] | None:
        """The last state of the board `last` was, when the feed went on to another before it
        showed its end: a round starts its next board at the event that ends the one before,
        so the feed's next state is already the new board. Read from the board's history (as
        the seat may see it)."""
        if last is None or board is None or _key(last) == _key(board) or _over(last):
            return None
        response = await self.http.get(f"/api/tables/{self.table}/history",
                                       params={"board": last["board"]}, headers=self.auth)
        if response.status_code != 200:
            log.warning("board %s of %s: no history (%s)", last["board"], self.table,
                        _message(response))
            return None
        state: dict[str, Any] | None = response.json().get("state")
        if state is None or not _over(state):
            return None
        return {**state, "started_ts": last.get("started_ts", 0)}

    async def states(self) -> AsyncIterator[dict[str, Any] | None]:
        """The board as the seat sees it, at each new state, for as long as the caller reads;
        the feed is opened again (resuming) when it closes."""
        ws_url = self.url.replace("http", "ws", 1) + f"/api/tables/{self.table}/feed?robot=1"
        since: str | None = None
        last: dict[str, Any] | None = None
        while True:
            url = ws_url + (f"&since={since}" if since else "")
            try:
                async with connect(url, open_timeout=10, max_size=2**22) as ws:
                    await ws.send(json.dumps({"type": "auth", "token": self.token}))
                    async for text in ws:
                        entry = json.loads(text)
                        if "board" not in entry:
                            continue
                        since = entry.get("id") or since
                        board = entry["board"]
                        ended = await self._ended(last, board)
                        if ended is not None:
                            yield ended
                        last = board
                        yield board
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                log.info("feed of %s closed (%s): again in 1 s", self.table, error)
            await asyncio.sleep(1)
