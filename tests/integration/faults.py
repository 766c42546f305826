"""Play under faults, and measure: tables playing all along (`Players`), and each acknowledged
event's arrival in Redis (`Watcher`), then the audit (`settle_and_audit`) and the figures
(`report`). Used by test_faults.py and test_cluster.py.

The players post each table's events one after the other (the seats' boards: a board started
by the director, then an auction with irregularities, so that alerts are raised all along); an
event answered 503 is posted again, unchanged (a call keeps its `client_seq`, so the engine
folds it once even if the first attempt was appended after all). The watcher reads every
table's version in Redis every 50 ms, and so knows when each acknowledged event was folded.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from services.common.names import state_key, worker_key
from shared.codec import decode
from shared.events import BoardStarted
from shared.table.board_end import table_view
from tests.helpers import DEAL, wait_for
from tests.integration.kafka_reading import committed_alerts, read_all, replay
from tests.script import log
from tests.stack import Stack

SCRIPTS = [  # auctions with irregularities: alerts all along
    "N 1S, E 1H, S decline, E 2H, S 2S, W P, N 4S, E P, S P, W P",
    "N 1S, W 2H, N decline, E P, S 8NT, W decline, S P, W P, N P",
    "N 1H, E P, S X, W decline, S 2H, W P, N P, E P",
    "N 1S, E P, W P, N P, S 2S, W P, N P, E P",
]


@dataclass
class Ack:
    table: str
    offset: int
    at: float  # monotonic
    event: dict[str, Any]


@dataclass
class Players:
    stack: Stack
    tables: dict[str, dict[str, Any]]  # table → its tokens
    pause_s: float = 0.1  # between two events of a table
    acks: list[Ack] = field(default_factory=list)
    refused: int = 0  # 503s (each posted again)
    errors: list[str] = field(default_factory=list)  # any other answer: a failure
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)

    def start(self) -> Players:
        """One thread per table: a table waiting for an answer holds up no other."""
        self._threads = [threading.Thread(target=self._play, args=(table,), daemon=True)
                         for table in self.tables]
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(60)

    def longest_gap(self) -> float:
        """The longest time between two acknowledgements (any table)."""
        times = sorted(a.at for a in self.acks)
        return max((b - a for a, b in itertools.pairwise(times)), default=0.0)

    def served_again(self, table: str, since: float) -> float:
        """When `table`'s last wait of a second or more after `since` ended."""
        times = [a.at for a in self.acks if a.table == table]
        return max((b for a, b in itertools.pairwise(times) if b > since and b - a >= 1),
                   default=since)

    @staticmethod
    def _events(table: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """(who, event) forever: a board, its auction, the next board…"""
        seq = itertools.count(1)
        for board in itertools.count(1):
            yield "director", {"board": board, "deal": DEAL}
            for event in log(SCRIPTS[board % len(SCRIPTS)])[1:]:
                seat = event.pop("seat")
                yield seat, {**event, "client_seq": next(seq)}

    def _play(self, table: str) -> None:
        tokens = {"director": self.stack.director, **self.tables[table]["seats"]}
        clients = {who: httpx.Client(base_url=self.stack.url, timeout=30,
                                     headers={"Authorization": f"Bearer {token}"})
                   for who, token in tokens.items()}
        events = self._events(table)
        who, event = next(events)
        try:
            while not self._stop.is_set():
                if self._post(clients[who], table, who, event):
                    who, event = next(events)
                time.sleep(self.pause_s)  # the scenario, not a wait: the players' pace
        finally:
            for client in clients.values():
                client.close()

    def _post(self, client: httpx.Client, table: str, who: str, event: dict[str, Any]
              ) -> bool:
        path = f"/api/tables/{table}/" + ("boards" if who == "director" else "events")
        try:
            response = client.post(path, json=event)
        except httpx.HTTPError as exc:
            self.errors.append(f"{table}: {exc!r}")
            return False
        if response.status_code == 202:
            self.acks.append(Ack(table, response.json()["offset"], time.monotonic(),
                                 {"who": who, **event}))
            return True
        if response.status_code == 503:
            self.refused += 1
        else:
            self.errors.append(f"{table}: {response.status_code} {response.text}")
        return False


class Watcher:
    """Every table's version in Redis, read every 50 ms: when each version was first seen."""

    def __init__(self, stack: Stack, tables: list[str]) -> None:
        # no retries of its own (redis-py's default: ten, with a backoff of up to 1 s): every
        # 50 ms it asks, so that a state back in Redis is seen within 50 ms
        self.redis = redis.Redis(port=stack.redis_port, socket_timeout=1,
                                 socket_connect_timeout=1, retry=Retry(NoBackoff(), 0))
        self.tables = tables
        self.seen: dict[str, list[tuple[int, float]]] = {t: [] for t in tables}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self.redis.close()

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                with self.redis.pipeline(transaction=False) as pipe:
                    for table in self.tables:
                        pipe.hget(state_key(table), "version")
                    versions = pipe.execute()
            except redis.RedisError:
                versions = [None] * len(self.tables)
            now = time.monotonic()
            for table, version in zip(self.tables, versions, strict=True):
                seen = self.seen[table]
                if version is not None and (not seen or int(version) > seen[-1][0]):
                    seen.append((int(version), now))
            time.sleep(0.05)  # not a wait for a condition: the watcher's reading interval

    def folded_at(self, ack: Ack) -> float | None:
        """When the acknowledged event was first seen folded (None: never)."""
        return next((at for version, at in self.seen[ack.table] if version >= ack.offset),
                    None)


def latencies(players: Players, watcher: Watcher, since: float = 0.0
              ) -> list[tuple[Ack, float]]:
    """(ack, seconds until folded) of the events acknowledged after `since`; an event never
    seen folded counts as infinitely late."""
    return [(ack, (watcher.folded_at(ack) or float("inf")) - ack.at)
            for ack in players.acks if ack.at >= since]


def stalled_s(players: Players, watcher: Watcher, tables: set[str], over: float = 0.5,
              since: float = 0.0) -> float:
    """The longest time any of `tables` was behind: the union, per table, of the intervals
    from an acknowledgement to its fold, for the events acknowledged after `since` that took
    longer than `over` s."""
    worst = 0.0
    for table in tables:
        spans = sorted((ack.at, ack.at + late)
                       for ack, late in latencies(players, watcher, since)
                       if ack.table == table and late > over)
        total, end = 0.0, float("-inf")
        for start, stop in spans:
            if stop > end:
                total += stop - max(start, end)
                end = stop
        worst = max(worst, total)
    return worst


@dataclass
class Audit:
    acked: int
    found: int  # of the acknowledged events, those at their offset in their table's topic
    appended: int  # events in the tables' topics
    duplicate_alerts: int
    alerts: int
    seat_events: int  # acknowledged
    folded_once: int  # events folded by the engine (a retry appended twice is folded once)


def audit(stack: Stack, players: Players) -> Audit:
    """Every acknowledged event at its offset; states equal to a replay; alerts once each."""
    found = appended = folded = 0
    for table in players.tables:
        state, _ = asyncio.run(replay(stack.bootstrap, table))
        folded += sum(board.events for board in state.boards)
        records = asyncio.run(read_all(stack.bootstrap, f"tableserver.table.{table}"))
        appended += len(records)
        events = {r.offset: decode(r.value) for r in records}
        for ack in (a for a in players.acks if a.table == table):
            event = events.get(ack.offset)
            if event is not None and _same(event, ack.event):
                found += 1
    ids = [a["id"] for a in asyncio.run(committed_alerts(stack.bootstrap))
           if a["table"] in players.tables]
    seat_events = sum(1 for ack in players.acks if ack.event["who"] != "director")
    return Audit(len(players.acks), found, appended, len(ids) - len(set(ids)), len(ids),
                 seat_events, folded)


def _same(event: Any, sent: dict[str, Any]) -> bool:
    if sent["who"] == "director":
        return isinstance(event, BoardStarted) and event.board == sent["board"]
    return bool(event.client_seq == sent["client_seq"])


def states_equal_replay(stack: Stack, tables: list[str]) -> bool:
    return not replay_differences(stack, tables)


def replay_differences(stack: Stack, tables: list[str]) -> list[str]:
    """The tables whose state in Redis is not a replay of their topic, and how."""
    client = redis.Redis(port=stack.redis_port)
    differ = []
    try:
        for table in tables:
            folded, last = asyncio.run(replay(stack.bootstrap, table))
            raw = client.hmget(state_key(table), "version", "board")
            if raw[0] is None or folded.board is None:
                differ.append(f"{table}: no state (topic ends at {last})")
            elif int(raw[0]) != last:
                differ.append(f"{table}: Redis at offset {int(raw[0])}, topic at {last}")
            elif json.loads(raw[1]) != table_view(folded):
                differ.append(f"{table}: another state at offset {last}")
        return differ
    finally:
        client.close()


def owned_once(stack: Stack, shards: int) -> bool:
    """Every shard announced by exactly one worker, each worker announcing some: no worker's
    announcement is left over from before a rebalance (`owners` alone lets a later worker's
    list hide an earlier one's stale list)."""
    client = redis.Redis(port=stack.redis_port)
    try:
        lists = [json.loads(raw) if (raw := client.get(worker_key(name))) else []
                 for name in stack.workers]
    except redis.RedisError:
        return False
    finally:
        client.close()
    every = [shard for announced in lists for shard in announced]
    return all(lists) and sorted(every) == list(range(shards))


def owners(stack: Stack) -> dict[int, str]:
    """shard → the worker that announces it."""
    client = redis.Redis(port=stack.redis_port)
    try:
        found: dict[int, str] = {}
        for name in stack.workers:
            shards = client.get(worker_key(name))
            for shard in json.loads(shards) if shards else []:
                found[shard] = name
        return found
    except redis.RedisError:
        return {}
    finally:
        client.close()


def acked_since(players: Players, since: float, count: int) -> bool:
    """Whether every table has had `count` events acknowledged after `since`."""
    counts = {table: 0 for table in players.tables}
    for ack in players.acks:
        if ack.at > since:
            counts[ack.table] += 1
    return min(counts.values()) >= count


def playing(stack: Stack, prefix: str) -> tuple[Players, Watcher]:
    """New tables, playing; their events watched arrive in Redis."""
    players = Players(stack, tables(stack, prefix)).start()
    watcher = Watcher(stack, list(players.tables))
    wait_for(lambda: len(players.acks) >= 5 * len(players.tables) or players.errors, 30,
             "play under way")
    assert players.errors == []
    return players, watcher


def tables(stack: Stack, prefix: str, count: int = 10) -> dict[str, dict[str, Any]]:
    """`count` new tables named `prefix`0, 1, …: table → its tokens."""
    made = {}
    with stack.client(stack.director) as http:
        for n in range(count):
            response = http.post("/api/tables", json={"table": f"{prefix}{n}"})
            assert response.status_code == 201, response.text
            made[f"{prefix}{n}"] = response.json()
    return made


def workers_pids(stack: Stack) -> dict[str, int | None]:
    """Each worker's pid while it runs (None once it exited)."""
    return {name: proc.pid if proc.poll() is None else None
            for name, proc in stack.workers.items()}


def settle_and_audit(stack: Stack, players: Players, watcher: Watcher) -> Audit:
    players.stop()
    try:
        wait_for(lambda: states_equal_replay(stack, list(players.tables)), 60,
                 "every state equal to a replay")
    except AssertionError as exc:
        raise AssertionError(f"{exc}: {replay_differences(stack, list(players.tables))}") \
            from None
    wait_for(lambda: all(watcher.folded_at(a) for a in players.acks), 10, "the watcher saw all")
    watcher.stop()
    found = audit(stack, players)
    assert players.errors == []
    assert found.found == found.acked, "an acknowledged event is missing"
    assert found.duplicate_alerts == 0
    assert found.folded_once == found.seat_events, "an event retried was folded twice"
    assert found.alerts > 0  # the scripts' irregularities were alerted
    return found


def report(fault: str, found: Audit, players: Players, **figures: float) -> None:
    extra = ", ".join(f"{name.replace('_', ' ')} {value:.1f} s"
                      for name, value in figures.items())
    print(f"\n{fault}: {found.acked} events acked, {found.found} found at their offsets, "
          f"{found.appended - found.acked} appended twice (retries folded once), "
          f"{found.alerts} alerts, {found.duplicate_alerts} twice; {players.refused} 503s; "
          f"longest gap between acks {players.longest_gap():.1f} s; {extra}")


STORY = re.compile(r"WARNING|ERROR|owns shards|started in|missed a generation|fenced")
STAMP = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")


def processor_story(stack: Stack, since: float) -> str:
    """The workers' log lines of their shards' moves and faults logged at or after `since`
    (wall clock): printed with a fault's figures, so that a stall is explained by the run that
    showed it."""
    start = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(since))
    lines = []
    for name in sorted(stack.workers):
        path = stack.data / f"{name}.log"
        for line in path.read_text(errors="replace").splitlines() if path.exists() else []:
            stamp = STAMP.match(line)
            if stamp and stamp.group(1) >= start and STORY.search(line):
                lines.append(f"{name} {line[:300]}")
    return "\n".join(lines)
