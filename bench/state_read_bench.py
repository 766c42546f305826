"""Benchmark of a table state's read in the gateway: `GET /api/tables/{t}/state` in process
(the app over `MemoryStore`, no network), and the read path's parts on the stored text: the
parse (`store.board_of`), the reader's view (`views.board_for`) and the answer's encoding.
A board in its play (five tricks, a revoke), read by the director (the state whole) and by a
seat (his view). The state comes back from the store as the core's `BoardView`, typed at that
boundary, and is not validated again on the read (a pydantic mirror once validated each
answer: ~75 µs of the read path).

A benchmark, not a test: it prints numbers and asserts nothing about speed.

    python bench/state_read_bench.py                 # 2,000 reads each
    python bench/state_read_bench.py --reads 500
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import timeit
from pathlib import Path

import httpx
import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository, for tests/

from services.common.settings import Settings
from services.common.store import board_of
from services.gateway.app import create_app
from services.gateway.tables.views import board_for
from services.gateway.tokens import Grant, Role, sign
from shared import fold, from_map
from tests.fakes import MemoryStore, gateway_adapters
from tests.helpers import DEAL
from tests.script import log as scripted

PLAYED = ("N 1S, E P, S P, W P, E plays DA, S plays D6, W plays D3, N plays D2, "
          "E plays HQ, S plays HT, W plays H4, N plays HK, N plays C3, E plays C2, S plays C5, "
          "W plays CK, W plays D9, N plays D4, E plays S7, S plays DJ")


def stored() -> bytes:
    """The board's state as the processor writes it to Redis."""
    log = scripted(PLAYED)
    log[0] |= {"deal": DEAL, "ts": 1}
    board = fold(from_map(m) for m in log).boards[-1].to_dict()
    return json.dumps(board, separators=(",", ":")).encode()


def parts(raw: bytes, reads: int) -> dict[str, float]:
    """µs a read for the read path's parts, best of five."""
    seat = Grant("t", "S", Role.SEAT)

    def parse() -> object:
        return board_of(raw)

    def view() -> object:
        return board_for(seat, board_of(raw), 0, 0)

    def answer() -> bytes:
        return orjson.dumps({"table": "t", "version": 7,
                             "board": board_for(seat, board_of(raw), 0, 0)})

    return {name: min(timeit.repeat(f, number=reads, repeat=5)) / reads * 1e6
            for name, f in [("parse", parse), ("parse+view", view),
                            ("parse+view+encode", answer)]}


async def route(raw: bytes, reads: int) -> dict[str, float]:
    """µs a read of GET /api/tables/t/state through the app, director and seat (the best
    of ten batches)."""
    store = MemoryStore()
    guard = create_app(Settings(TABLESERVER_DATA=Path(tempfile.mkdtemp())),
                       gateway_adapters(store=store))
    gateway = guard.app.state.gateway  # type: ignore[attr-defined]
    await store.remember_tables({"t": {"table": "t", "ruleset": "duplicate", "created": 1}})
    store.states["t"] = (7, board_of(raw))
    tokens = {"director": gateway.director_token,
              "seat": sign(gateway.signing_key, "t", "S", Role.SEAT, 2**40)}
    found = {}
    transport = httpx.ASGITransport(guard.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        for who, token in tokens.items():
            headers = {"Authorization": f"Bearer {token}"}
            for _ in range(reads // 10):  # warm: the token's check is cached, as live
                await client.get("/api/tables/t/state", headers=headers)
            batches = []  # the best of ten batches: the machine is shared
            for _ in range(10):
                start = time.perf_counter()
                for _ in range(reads // 10):
                    await client.get("/api/tables/t/state", headers=headers)
                batches.append((time.perf_counter() - start) / (reads // 10) * 1e6)
            found[who] = min(batches)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=2000)
    args = parser.parse_args()
    raw = stored()
    print(f"a state of {len(raw)} bytes")
    for name, us in parts(raw, args.reads).items():
        print(f"  {name:<20} {us:7.1f} µs")
    for who, us in asyncio.run(route(raw, args.reads)).items():
        print(f"  GET state, {who:<9} {us:7.1f} µs (in process, through the app)")


if __name__ == "__main__":
    main()
