"""What the public may see of a tournament's boards now, per gateway: the boards withheld
(`shared.tournament.public_boards`: a table of the movement has still to finish them, Laws
80B, 16C1) and the tables the Director shows live (vugraph matches).

The Director's setting is a record on the tournament's topic, `vugraph_match` (`table`, `on`;
the last one for a table stands), so every gateway reads the same. A tournament's `Withheld`
is computed from its record and the public results (`tournament_scores.results_of`, each
table's log folded where the last read left it; without a movement, each table's results),
again at most every `FRESH_S` while the public reads it, and no sooner than its last
computation took over `BUSY_SHARE` (a night's 2,000 tables' logs read from Kafka took a quarter
of the gateway's loop when read again every second; the public sees a board some minutes after
its last table, so a few seconds more do not show). The feeds render synchronously: they
read the last one computed (`known`), which `run` keeps fresh for the tables the public follows
(`follow`); until a table's is known, it withholds all its tournament's boards.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from services.common.errors import ServiceError, Unavailable
from services.common.kafka.reader import KafkaUnavailable, NoTableError, Record
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tournaments import scores as tournament_scores, service as tournaments
from services.gateway.tournaments.log import append_record, refuse_closed, tournament_records
from services.gateway.tournaments.overview_view import Overview
from shared.tournament.public_boards import withheld_boards

log = logging.getLogger("tableserver.public_boards")

VUGRAPH_MATCH = "vugraph_match"  # the Director's setting, on the tournament's topic
FRESH_S = 1.0  # a tournament's withheld boards are this old at most while the public reads
BUSY_SHARE = 0.05  # ... or as old as their computation took over this share of the time
LIVE_WAIT_S = 0.5  # the overview and the public's list wait this long for the live tables
NOT_KNOWN = object()  # a table whose tournament this gateway has not looked up yet


@dataclass(frozen=True, slots=True)
class Withheld:
    """What the public may not see of a tournament now: its `boards` withheld, at any table
    but those shown `live` (vugraph matches); `everything` while it is not known."""

    boards: frozenset[int] = frozenset()
    live: frozenset[str] = frozenset()
    everything: bool = False

    def hides(self, table: str, board: int | None) -> bool:
        return table not in self.live and (self.everything or board in self.boards)


NOTHING = Withheld()  # a table of no tournament: the delay alone
UNKNOWN = Withheld(everything=True)


def matches_of(records: list[Record]) -> frozenset[str]:
    """The tables the Director shows live, from the tournament's records (the last setting
    of each table stands)."""
    live: dict[str, bool] = {}
    for _, value in records:
        try:
            event = json.loads(value or b"{}")
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("type") == VUGRAPH_MATCH:
            live[str(event.get("table"))] = bool(event.get("on"))
    return frozenset(t for t, on in live.items() if on)


class PublicBoards:
    """One gateway's view of what the public may see of its tournaments' boards."""

    def __init__(self, gw: Gateway) -> None:
        self.gw = gw
        self.tournament_of: dict[str, str | None] = {}  # table → its tournament (None: none)
        self.computed: dict[str, tuple[float, Withheld]] = {}  # tournament → (when, what)
        self.fresh_for: dict[str, float] = {}  # tournament → how long its computed one stands
        self.matches: dict[str, tuple[float, frozenset[str]]] = {}  # tournament → live tables
        self.under_way: dict[str, asyncio.Future[Withheld]] = {}
        self.followed: Counter[str] = Counter()  # tables the public's sockets follow

    def known(self, table: str) -> Withheld:
        """The last computed for `table` (the feeds' renders): `UNKNOWN` before any."""
        tournament = self.tournament_of.get(table, NOT_KNOWN)
        if tournament is None:
            return NOTHING
        found = self.computed.get(tournament) if isinstance(tournament, str) else None
        return UNKNOWN if found is None else found[1]

    async def of_table(self, table: str) -> Withheld:
        """What the public may not see at `table` now. Raises `Unavailable` when it cannot
        be told (Kafka does not answer) and was never computed."""
        if table not in self.tournament_of:
            meta = await self.gw.table_meta(table)
            self.tournament_of[table] = meta.get("tournament")
        tournament = self.tournament_of[table]
        return NOTHING if tournament is None else await self.of_tournament(tournament)

    async def of_tournament(self, tournament: str) -> Withheld:
        """The tournament's `Withheld`, computed again once `FRESH_S` old (one computation
        for every reader at once); the last one computed while Kafka does not answer."""
        found = self.computed.get(tournament)
        if found is not None and time.monotonic() - found[0] < self.fresh_for.get(
                tournament, FRESH_S):
            return found[1]
        task = self.under_way.get(tournament)
        if task is None:
            task = self.under_way[tournament] = asyncio.ensure_future(self._compute(tournament))
            task.add_done_callback(lambda _: self.under_way.pop(tournament, None))
        try:
            return await asyncio.shield(task)
        except ServiceError:
            if found is None:
                raise
            return found[1]

    async def _compute(self, tournament: str) -> Withheld:
        started = time.monotonic()
        found = await self._withheld(tournament)
        self.computed[tournament] = (now := time.monotonic(), found)
        self.fresh_for[tournament] = max(FRESH_S, (now - started) / BUSY_SHARE)
        return found

    async def _withheld(self, tournament: str) -> Withheld:
        gw = self.gw
        made = await tournaments.find(gw, tournament)
        if made is None:
            return NOTHING
        live = await live_tables(gw, tournament)
        self.matches[tournament] = (time.monotonic(), live)
        closed = await gw.adapters.store.tournament_record(tournament) is not None
        complete: list[int] | None = None
        finished: dict[str, dict[int, int]] = {}  # table → board → NS score
        try:
            if made.movement is not None and not closed:
                complete = list((await tournament_scores.results_of(gw, made, False))[
                    "complete"])
            elif not closed:
                finished = await tournament_scores.all_results(gw, made)
            return Withheld(withheld_boards(made, complete, finished, closed), live)
        except Refused as exc:  # a record the scoring refuses: no board can be told complete
            log.warning("%s: every board withheld from the public: %s", tournament, exc)
            return Withheld(live=live, everything=True)

    def forget(self, tournament: str) -> None:
        """Compute the tournament's again at the next read (the Director changed a setting)."""
        self.computed.pop(tournament, None)
        self.fresh_for.pop(tournament, None)
        self.matches.pop(tournament, None)

    async def live(self, tournament: str) -> frozenset[str] | None:
        """The tables the Director shows live (the overview's, the public list's), read at
        most every `FRESH_S`; while Kafka does not answer within `LIVE_WAIT_S`, the last read
        (None before any): the overview is Redis's and does not wait for Kafka."""
        found = self.matches.get(tournament)
        if found is not None and time.monotonic() - found[0] < FRESH_S:
            return found[1]
        try:
            live = await asyncio.wait_for(live_tables(self.gw, tournament), LIVE_WAIT_S)
        except (TimeoutError, Unavailable):
            return None if found is None else found[1]
        self.matches[tournament] = (time.monotonic(), live)
        return live

    def follow(self, table: str) -> None:
        self.followed[table] += 1

    def unfollow(self, table: str) -> None:
        self.followed[table] -= 1
        if self.followed[table] <= 0:
            del self.followed[table]

    async def refresh(self) -> None:
        """What the public may see at the tables it follows, computed again if stale (a
        failure is logged: the last one computed stands)."""
        for table in list(self.followed):
            try:
                await self.of_table(table)  # a tournament's tables after the first: cached
            except ServiceError as exc:  # `StoreUnavailable` among them
                log.warning("what the public may see at %s could not be told: %s", table, exc)

    async def run(self) -> None:
        """Keep the followed tables' tournaments fresh, as long as the gateway runs."""
        while True:
            await self.refresh()
            await asyncio.sleep(FRESH_S)  # the refresh's period


_boards: WeakKeyDictionary[Gateway, PublicBoards] = WeakKeyDictionary()


def public_of(gw: Gateway) -> PublicBoards:
    """The gateway's `PublicBoards`."""
    found = _boards.get(gw)
    if found is None:
        found = _boards[gw] = PublicBoards(gw)
    return found


async def set_match(gw: Gateway, tournament: str, table: str, on: bool) -> dict[str, Any]:
    """The Director shows `table` live (`on`: a vugraph match, its boards after the delay
    alone) or not: recorded on the tournament's topic. 404 for a tournament or table not
    there, 409 once the tournament is closed."""
    made = await tournaments.find(gw, tournament)
    if made is None:
        raise Refused(f"no tournament {tournament}", kind=Kind.NOT_FOUND)
    if table not in made.tables:
        raise Refused(f"table: no table {table} in tournament {tournament}", "table",
                      Kind.NOT_FOUND)
    await refuse_closed(gw, tournament, "table", "settings")
    await append_record(gw, tournament, {"type": VUGRAPH_MATCH, "table": table, "on": on,
                                         "ts": int(time.time() * 1000)},
                        "record the vugraph match", "table", "settings")
    public_of(gw).forget(tournament)
    return {"tournament": tournament, "table": table, "on": on}


async def live_tables(gw: Gateway, tournament: str) -> frozenset[str]:
    """The tables the Director shows live (the console's overview, the public's list)."""
    try:
        return matches_of(await tournament_records(gw, tournament))
    except NoTableError:
        return frozenset()
    except KafkaUnavailable:
        raise Unavailable("Kafka did not answer in time; retry", retry_after=1) from None


async def with_matches(gw: Gateway, view: Overview) -> Overview:
    """A tournament's overview (`tournaments.overview`) with each table's `vugraph_match`:
    whether the Director shows it live (null while Kafka cannot tell)."""
    live = await public_of(gw).live(view["tournament"])
    for line in view["tables"]:
        line["vugraph_match"] = None if live is None else line["table"] in live
    return view
