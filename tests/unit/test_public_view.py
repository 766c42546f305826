"""What the public (a spectator's token, handed out by a tournament's vugraph link) sees:

- the table as it was `TABLESERVER_SPECTATOR_DELAY` ago: every state, call, card and result,
  not only the deal (the feed, `public_feeds`; the history, `history_reads.appended_by`);
- a tournament's board only once every table of the movement has finished it (the
  tournament's regulation, Law 80B, against Law 16C1's information from another table's
  board: `shared.tournament.public_boards`), unless the Director shows the table live (a vugraph
  match);
  until then `withheld` (`views.withheld`, `views.without_withheld`)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from pydantic import TypeAdapter

from services.common.settings import Settings
from services.gateway.feeds.public_feeds import PublicFeeds
from services.gateway.http.state_models import HistoryView
from services.gateway.tables.history_reads import appended_by
from services.gateway.tables.service import Gateway
from services.gateway.tables.views import for_public, withheld, without_withheld
from services.gateway.tokens import Grant, Role
from services.gateway.tournaments import public_boards
from services.gateway.tournaments.public_boards import NOTHING, PublicBoards, Withheld, matches_of
from services.replay.history import build_history
from shared import fold, from_map
from shared.codec import encode
from shared.scores.vocabulary import Scoring
from shared.table.board_view import WithheldView
from shared.table.table_run import TableRun
from shared.tournament.entrants import MovementKind, movement_of
from shared.tournament.public_boards import withheld_boards
from shared.tournament.results import results
from shared.tournament.session import Tournament
from tests.fakes import MemoryStore, gateway_adapters
from tests.helpers import DEAL
from tests.script import log
from tests.unit.tournament_fixtures import entrants, round_records

# --- which boards (shared.tournament.public_boards) ---------------------------------------


def _mitchell() -> Tournament:
    """Six pairs at three tables, two boards a round, two rounds: the boards move down a
    table a round (boards 1-2 at t-1 in round 1, at t-3 in round 2)."""
    deals = {n: {"board": n} for n in range(1, 7)}
    movement = movement_of(MovementKind.MITCHELL, 2, 2, Scoring.MATCHPOINTS, 6, 3, list(deals))
    return Tournament("t", "t", "duplicate", ("t-1", "t-2", "t-3"), deals,
                      entrants=entrants(6), movement=movement)


def _complete(made: Tournament, tables: dict[str, dict[int, int]]) -> list[int]:
    return list(results(made, round_records(made), tables, [], everything=False)["complete"])


def test_a_board_is_withheld_until_every_table_of_the_movement_has_played_it() -> None:
    """Laws 80B, 16C1: board 1, finished at t-1 in round 1, is still to come at t-3 in round
    2: the public does not see it until t-3 has played it too."""
    made = _mitchell()
    round_1 = {"t-1": {1: 420, 2: -50}, "t-2": {3: 450, 4: 100}, "t-3": {5: -100, 6: 300}}
    assert withheld_boards(made, _complete(made, round_1), {}) == {1, 2, 3, 4, 5, 6}
    round_2 = {**round_1, "t-3": {**round_1["t-3"], 1: 450}}
    assert withheld_boards(made, _complete(made, round_2), {}) == {2, 3, 4, 5, 6}
    assert withheld_boards(made, _complete(made, round_1), {}, closed=True) == frozenset()


def test_without_a_movement_a_board_waits_for_every_table() -> None:
    """Law 16C1: the Director's own rounds may give any table any deal later, so a board is
    withheld until every table of the tournament has finished it; a board no deal of the
    tournament holds (started by hand) is no movement's."""
    made = Tournament("t", "t", "duplicate", ("t-1", "t-2"), {1: {"board": 1},
                                                              2: {"board": 2}})
    assert withheld_boards(made, None, {"t-1": [1, 2]}) == {1, 2}
    assert withheld_boards(made, None, {"t-1": [1, 2], "t-2": [2]}) == {1}
    assert 7 not in withheld_boards(made, None, {})


def test_the_directors_vugraph_match_shows_a_table_live() -> None:
    """The last setting of each table stands; a withheld board is hidden at every table but
    those shown live; before it is known, every board is withheld (Law 16C1)."""
    records = [(0, json.dumps({"type": "vugraph_match", "table": "t-1", "on": True}).encode()),
               (1, json.dumps({"type": "round_started", "round": 1}).encode()),
               (2, json.dumps({"type": "vugraph_match", "table": "t-2", "on": True}).encode()),
               (3, json.dumps({"type": "vugraph_match", "table": "t-1", "on": False}).encode())]
    live = matches_of(records)
    assert live == {"t-2"}
    shown = Withheld(frozenset({5}), live)
    assert shown.hides("t-1", 5) and not shown.hides("t-2", 5) and not shown.hides("t-1", 6)
    assert Withheld(everything=True).hides("t-1", 6)


# --- what of a board (views) -----------------------------------------------------------------


def test_a_withheld_board_shows_its_tray_and_nothing_of_its_play() -> None:
    """Law 16C1: of a board other tables still play the public sees its number, dealer,
    vulnerability and players, and why: no hand, call, card, alert or result."""
    events = [{"type": "board_started", "board": 1, "deal": DEAL},
              *log("N 1S, E P, S 4S, W P, N P, E P, E leads DA")[1:]]
    state = fold(from_map(m) for m in events).board
    assert state is not None
    board = {**state.to_dict(), "players": {"N": "Ann", "E": "Bob", "S": "Cy", "W": "Di"}}
    assert board["play"] is not None and board["deal"] == DEAL
    seen = withheld(board)
    assert set(seen) == {"board", "dealer", "vulnerability", "ruleset", "players", "withheld"}
    assert seen["withheld"].startswith("board 1 is still being played at other tables")
    text = json.dumps(seen)
    assert "4S" not in text and "DA" not in text and DEAL.split()[1] not in text
    TypeAdapter(WithheldView).validate_python(seen)  # as OpenAPI declares it, no other key


def test_the_board_before_is_not_shown_to_the_public_while_it_is_withheld() -> None:
    """Law 16C1, the public's view (docs/api.md): board 2's state carries board 1's end (`previous`:
    its result and last trick); the public sees board 2 without it while board 1 is still
    being played at another table, and with it once board 1 is released."""
    run = TableRun("t")
    for offset, value in _round_records():
        run.apply(offset, value)
    board = run.view()
    assert board is not None and board["board"] == 2 and board["previous"]["board"] == 1
    spectator = Grant("t", None, Role.SPECTATOR)
    hidden = for_public(spectator, dict(board), lambda number: number == 1, 0, 0)
    assert hidden["board"] == 2 and "previous" not in hidden and "withheld" not in hidden
    shown = for_public(spectator, dict(board), lambda number: False, 0, 0)
    assert shown["previous"] == board["previous"]
    assert "withheld" in for_public(spectator, dict(board), lambda number: number == 2, 0, 0)


def _round_records() -> list[tuple[int, bytes]]:
    """A round of boards 1 and 2: board 1 passed out (its fourth pass starts board 2), then
    board 2's auction; each event stamped 1 s after the one before."""
    round_started = {"type": "round_started", "round": 1, "ruleset": "duplicate",
                     "boards": [{"board": 1, "deal": DEAL}, {"board": 2, "deal": DEAL}]}
    events = [round_started, *log("N P, E P, S P, W P", board=1)[1:],
              *log("E 1NT, S P", board=2)[1:]]
    return [(offset, encode(from_map({**event, "ts": 1_000 * (offset + 1)})))
            for offset, event in enumerate(events)]


def test_the_public_history_leaves_out_every_event_of_a_withheld_board() -> None:
    """Law 16C1: a withheld board's events are left out of the public's history, its deal
    and the event that ends it (the fourth pass, which starts board 2) among them; its
    state is `withheld`."""
    document = build_history("t", _round_records())
    assert [e["board"] for e in document["history"]] == [1, 1, 1, 1, 1, 2, 2]
    shown = without_withheld(document, lambda board: board == 1)
    assert [e["offset"] for e in shown["history"]] == [5, 6]
    assert shown["state"] == document["state"] and shown["boards"] == [1, 2]
    second = build_history("t", _round_records(), board=2)
    assert any(e["board"] == 2 for e in second["history"])
    hidden = without_withheld(second, {2}.__contains__)
    assert not any(e["board"] == 2 for e in hidden["history"])
    assert set(hidden["state"]) == {"board", "dealer", "vulnerability", "ruleset", "withheld"}
    TypeAdapter(HistoryView).validate_python(hidden)
    assert document["history"][0]["event"]["type"] == "round_started"  # the shared one as was


# --- when (the delay) --------------------------------------------------------------------------


def test_the_public_history_is_the_table_as_it_was_the_delay_ago() -> None:
    """Every event appended after `before_ms` is left out, not only the deal: here the
    table at 4.5 s shows board 1 after its third pass, no later call."""
    records = _round_records()
    assert appended_by(records, 4_500) == 4
    document = build_history("t", records[:appended_by(records, 4_500)])
    assert document["boards"] == [1] and len(document["state"]["calls"]) == 3
    assert appended_by(records, 999) == 0 and appended_by(records, 10**12) == len(records)
    unstamped = [*records, (7, encode(from_map({"type": "call", "seat": "W", "call": "P"})))]
    assert appended_by(unstamped, 10**12) == 8  # an import's: as old as the one before
    assert appended_by(unstamped, 6_500) == 6


class Streams:
    """Redis's streams for `PublicFeeds`: XRANGE, XREVRANGE and a pipeline of XRANGEs, over
    entries whose ids are their times."""

    def __init__(self) -> None:
        self.entries: dict[str, list[tuple[bytes, dict[bytes, bytes]]]] = {}
        self.reads: list[str] = []  # the streams the pipelines read

    def add(self, key: str, ms: int, version: int) -> None:
        self.entries.setdefault(key, []).append(
            (f"{ms}-0".encode(), {b"version": str(version).encode(), b"board": b"{}"}))

    @staticmethod
    def _id(text: str, top: bool) -> tuple[int, int]:
        ms, _, seq = text.lstrip("(").partition("-")
        return int(ms), int(seq) if seq else (2**64 - 1 if top else 0)

    async def xrange(self, key: str, min: str, max: str = "+", count: int = 10**9
                     ) -> list[Any]:
        max = f"{2**63}" if max == "+" else max
        low, high = self._id(min, False), self._id(max, True)
        return [e for e in self.entries.get(key, [])
                if (self._id(e[0].decode(), False) > low if min.startswith("(")
                    else self._id(e[0].decode(), False) >= low)
                and self._id(e[0].decode(), False) <= high][:count]

    async def xrevrange(self, key: str, max: str, count: int) -> list[Any]:
        high = self._id(max, True)
        return [e for e in reversed(self.entries.get(key, []))
                if self._id(e[0].decode(), False) <= high][:count]

    @asynccontextmanager
    async def pipeline(self, transaction: bool) -> AsyncIterator[Any]:
        streams = self

        class Pipe:
            def __init__(self) -> None:
                self.calls: list[Any] = []

            def xrange(self, key: str, min: str, max: str = "+", count: int = 10**9
                       ) -> None:
                self.calls.append(streams.xrange(key, min, max, count))
                streams.reads.append(key)

            async def execute(self) -> list[Any]:
                return [await c for c in self.calls]

        yield Pipe()


class Clock:
    def __init__(self, ms: int) -> None:
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


def _render(entry: str, fields: dict[bytes, bytes]) -> str:
    return fields[b"version"].decode()


async def test_the_public_feed_sends_each_state_the_delay_after_it_was_written() -> None:
    """A spectator's socket starts at the newest state written the delay ago and is sent each
    later one once the delay has passed since it was written: every call and card, not only
    the deal. A socket that joins later starts where the public is, with no repeat."""
    redis, clock = Streams(), Clock(3_000)
    for ms, version in ((1_000, 1), (2_000, 2), (3_000, 3)):
        redis.add("feed", ms, version)
    feeds = PublicFeeds(redis, delay_ms=1_500, clock=clock)  # type: ignore[arg-type]
    first = await feeds.subscribe("feed", None, "spectator", _render)
    assert _drain(first) == ["1"]  # at 3 s, the table as it was at 1.5 s
    clock.ms = 3_499
    await feeds.poll()
    assert _drain(first) == []  # state 2 was written at 2 s: not before 3.5 s
    clock.ms = 3_500
    await feeds.poll()
    assert _drain(first) == ["2"]
    second = await feeds.subscribe("feed", None, "spectator", _render)
    assert _drain(second) == ["2"]
    redis.add("feed", 4_000, 4)
    clock.ms = 5_499
    await feeds.poll()
    assert _drain(first) == _drain(second) == ["3"]
    clock.ms = 5_500
    await feeds.poll()
    assert _drain(first) == _drain(second) == ["4"]
    assert await feeds.shown("feed") == ("4000-0", redis.entries["feed"][3][1])
    reads = len(redis.reads)  # nothing waits now: what comes next is due in 1.5 s at least
    clock.ms = 6_999
    await feeds.poll()
    assert len(redis.reads) == reads
    clock.ms = 7_000
    await feeds.poll()
    assert len(redis.reads) > reads and _drain(first) == []
    resumed = await feeds.subscribe("feed", "1000-0", "spectator", _render)
    assert _drain(resumed) == ["2", "3", "4"]
    feeds.unsubscribe(first)
    feeds.unsubscribe(second)
    feeds.unsubscribe(resumed)
    assert feeds.lines == {}


async def test_nothing_reaches_the_public_before_the_delay() -> None:
    redis, clock = Streams(), Clock(10_000)
    redis.add("feed", 9_000, 1)
    feeds = PublicFeeds(redis, delay_ms=60_000, clock=clock)  # type: ignore[arg-type]
    sub = await feeds.subscribe("feed", None, "spectator", _render)
    clock.ms = 68_999
    await feeds.poll()
    assert _drain(sub) == [] and await feeds.shown("feed") is None
    clock.ms = 69_000
    await feeds.poll()
    assert _drain(sub) == ["1"]


def _drain(sub: Any) -> list[str]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait()[1].text)
    return out


async def test_a_gateway_withholds_a_tournaments_boards_until_it_can_tell() -> None:
    """Law 16C1: the feeds render with what the gateway last computed; before it has, a
    tournament's every board is withheld (fail closed); a table of no tournament has the
    delay alone."""
    store = MemoryStore()
    await store.remember_tables({"cup-1": {"table": "cup-1", "tournament": "cup"},
                                 "club": {"table": "club"}})
    public = PublicBoards(Gateway(Settings(), gateway_adapters(store=store)))
    assert public.known("cup-1").hides("cup-1", 1) and public.known("club").hides("club", 1)
    assert await public.of_table("club") == NOTHING
    assert not public.known("club").hides("club", 1)
    public.tournament_of["cup-1"] = "cup"  # looked up, not computed yet
    assert public.known("cup-1").hides("cup-1", 7)


async def test_a_slow_computation_of_the_withheld_boards_stands_longer(monkeypatch: Any) -> None:
    """Law 16C1's withheld boards for a tournament whose computation took long (a night's
    2,000 tables' logs) are computed again no sooner than it took over `BUSY_SHARE`; a quick
    one again after `FRESH_S`, as before."""
    now = [100.0]
    monkeypatch.setattr(public_boards.time, "monotonic", lambda: now[0])
    public = PublicBoards(Gateway(Settings(), gateway_adapters(store=MemoryStore())))
    took = [2.0]
    computed = []

    async def withheld(tournament: str) -> Withheld:
        computed.append(tournament)
        now[0] += took[0]
        return Withheld(boards=frozenset({len(computed)}))

    monkeypatch.setattr(public, "_withheld", withheld)
    assert (await public.of_tournament("cup")).boards == {1}
    now[0] += 2.0 / public_boards.BUSY_SHARE - 0.1  # not yet as old as it took / share
    assert (await public.of_tournament("cup")).boards == {1} and computed == ["cup"]
    now[0] += 0.2
    took[0] = 0.01
    assert (await public.of_tournament("cup")).boards == {2}
    now[0] += public_boards.FRESH_S + 0.01
    assert (await public.of_tournament("cup")).boards == {3}
