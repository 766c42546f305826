"""The audiences of `bench/night_bench.py`: spectators' feed sockets (the raw client of
`bench/feed_bench.py`), each update matched by its table and version with the event that
made it; and the director's console (the alerts feed open, the overviews read in turn)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import httpx
from websockets.asyncio.client import connect

from bench.feed_bench import RawAudience, RawSocket


class SpectatorSocket(RawSocket):
    """A spectator's socket on one table: when each version of the table first reached it."""

    table = ""

    def update(self, received: float, buffer: bytes, start: int, end: int) -> None:
        audience = self.audience
        assert isinstance(audience, Spectators)
        version = json.loads(buffer[start:end]).get("version")
        if isinstance(version, int):
            audience.received += 1
            audience.seen.setdefault((self.table, version), received)


class Spectators(RawAudience):
    """The spectators' sockets: (table, version) → when first seen on one of them."""

    socket = SpectatorSocket

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple[str, int], float] = {}

    async def watch(self, base: str, table: str, token: str,
                    limit: asyncio.Semaphore) -> SpectatorSocket:
        opened = await self.open(f"{base}/api/tables/{table}/feed?token={token}",
                                 limit)
        assert isinstance(opened, SpectatorSocket)
        opened.table = table
        return opened


class Console:
    """The director's console: the alerts feed open, and each tournament's overview read
    every `every` seconds (its latency and size kept)."""

    def __init__(self, http: httpx.AsyncClient, tournaments: list[str], every: float) -> None:
        self.http, self.tournaments, self.every = http, tournaments, every
        self.reads: list[float] = []
        self.size = 0
        self.alerts = 0
        self.errors: list[str] = []

    def forget(self) -> None:
        self.reads.clear()

    async def overviews(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            for tournament in self.tournaments:
                began = time.perf_counter()
                response = await self.http.get(f"/api/tournaments/{tournament}")
                if response.status_code != 200:
                    self.errors.append(f"overview {response.status_code}")
                self.reads.append(time.perf_counter() - began)
                self.size = len(response.content)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.every)

    async def alerts_feed(self, base: str, token: str, stop: asyncio.Event) -> None:
        async with connect(f"{base}/api/alerts/feed?token={token}") as ws:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                self.alerts += 1
