"""A tournament's hand records, solved off the request path (docs/scoring.md): each board's
double-dummy table and par (`services.robots.hand_records`: DDS, the robots' solver),
solved once per board and kept in Redis (`StateStore.hand_records`), read from there by every
gateway.

When: from the tournament's creation (`start`: its deals are known then, and a table depends
on the deal alone), so that the records are there long before the last board is played; a
gateway that reads them and finds boards missing (one started after a restart, or another
gateway's tournament) solves those. Where: in the gateway's niced background worker process
(`background`, `services.gateway.tables.off_loop`), one board at a time, each kept as soon as
it is solved: the event loop goes on, the work someone waits for (an export, a round's
unfinished boards) never waits behind it, the live play keeps the CPU, and endplay's imports
and DDS's memory (110 MB measured) stay out of the gateway's process. What a reader may see of
them is `hand_record_view`'s.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from services.common.errors import StoreUnavailable, Unavailable
from services.gateway.tables.service import Gateway
from services.robots import hand_records as solver
from shared.tournament.session import Tournament

log = logging.getLogger("tableserver.hand_records")


@dataclass(slots=True)
class Solving:
    """One gateway's solving: the tournaments under way, the boards the solver failed."""

    under_way: dict[str, asyncio.Future[None]] = field(default_factory=dict)
    failed: dict[str, set[int]] = field(default_factory=dict)


_solving: WeakKeyDictionary[Gateway, Solving] = WeakKeyDictionary()


def _of(gw: Gateway) -> Solving:
    found = _solving.get(gw)
    if found is None:
        found = _solving[gw] = Solving()
    return found


def start(gw: Gateway, made: Tournament) -> None:
    """Solve the tournament's boards not kept yet, in the background (once at a time)."""
    solving = _of(gw)
    task = solving.under_way.get(made.tournament)
    if task is None or task.done():
        solving.under_way[made.tournament] = asyncio.ensure_future(_solve_all(gw, made))


async def _solve_all(gw: Gateway, made: Tournament) -> None:
    store = gw.adapters.store
    failed = _of(gw).failed.setdefault(made.tournament, set())
    try:
        kept = await store.hand_records(made.tournament)
        for board in sorted(made.deals):
            if board in kept or board in failed:
                continue
            try:
                record = await gw.background.run(solver.hand_record, board, made.deals[board])
            except Unavailable:
                raise  # the worker process stopped: the next read starts again
            except Exception:  # a deal DDS refuses: said once, not solved again and again
                log.exception("%s: board %d could not be solved", made.tournament, board)
                failed.add(board)
                continue
            await store.remember_hand_records(made.tournament, {board: record})
    except Unavailable as exc:  # (`StoreUnavailable`) the next read starts from what was kept
        log.warning("%s: hand records not all solved and kept: %s", made.tournament, exc)


async def records_of(gw: Gateway, made: Tournament
                     ) -> tuple[dict[int, dict[str, Any]], frozenset[int]]:
    """The records kept (board → record) and the boards the solver failed; the missing ones
    set solving. 503 while Redis cannot be read."""
    try:
        kept = await gw.adapters.store.hand_records(made.tournament)
    except StoreUnavailable:
        raise Unavailable("Redis is unreachable; retry", retry_after=1) from None
    failed = frozenset(_of(gw).failed.get(made.tournament, ()))
    if len(kept) + len(failed) < len(made.deals):
        start(gw, made)
    return kept, failed


async def until_solved(gw: Gateway, tournament: str) -> None:
    """Returns once the tournament's solving under way here (if any) has ended (tests)."""
    task = _of(gw).under_way.get(tournament)
    if task is not None:
        await asyncio.shield(task)
