"""A three-broker Kafka cluster (issue 16): the broker that leads the most partitions killed
with kill -9 while eight tables play. No event that got a 202 is lost, play goes on (an event
answered 503 is sent again with its client_seq, as a client is told to), the partitions the
broker led get new leaders, and the states in Redis equal a replay. On a stack of its own:
replication 3, min.insync.replicas 2, two processor workers, restarted if they stop (as
supervisord does under `make up`).

Prints, however far it got: the events acknowledged and found again, the duplicates in the
topics (an attempt answered 503 that was appended after all, then sent again), the 503s, the
longest wait of a table between two accepted events, how long until every table was served
again and every state caught up, and the workers' restarts."""

from __future__ import annotations

import itertools
import json
import os
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from aiokafka.admin import AIOKafkaAdminClient

from services.names import WORKER_KEYS, table_topic
from shared.codec import decode
from shared.events import BoardStarted
from tests.integration.conftest import run, wait_for
from tests.integration.kafka_reading import committed_alerts, read_all, replay
from tests.integration.test_pipeline import DEAL
from tests.integration.test_recovery import SCRIPTS, check_equal_to_replay
from tests.script import log
from tests.stack import Stack, running_stack, supervised

pytestmark = pytest.mark.integration

KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 20092, 20379, 20800  # Kafka: 20092–20097
SHARDS = 4
TABLES = [f"cluster{i}" for i in range(8)]
# play before the kill; after it, through the broker's fencing (broker.session.timeout.ms,
# 9 s) and then on once every table is served again
BEFORE_KILL_S, AFTER_KILL_S, PLAY_ON_S = 5, 10, 5
Key = tuple[str, int]  # ("board", number) or (seat, client_seq): one event, however often sent


@dataclass
class Table:
    """One table's director and seats, playing boards one after another from a thread, each
    event sent until it is accepted (after a 503 or 429: again, with the same client_seq)."""

    name: str
    clients: dict[str, httpx.Client]  # "director", "N", "E", "S", "W"
    acked: list[Key] = field(default_factory=list)
    accepted_at: list[float] = field(default_factory=list)  # time.monotonic() of each 202
    retried: set[Key] = field(default_factory=set)
    refused: int = 0  # 503s
    limited: int = 0  # 429s
    failed: str = ""  # what stopped the thread early

    def send(self, sender: str, path: str, body: dict[str, Any], key: Key) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            response = self.clients[sender].post(path, json=body)
            if response.status_code == 202:
                self.acked.append(key)
                self.accepted_at.append(time.monotonic())
                return
            assert response.status_code in (429, 503), (self.name, response.text)
            self.retried.add(key)
            if response.status_code == 503:
                self.refused += 1
            else:
                self.limited += 1
            time.sleep(0.1)
        raise AssertionError(f"{self.name}: {key} not accepted within 60 s")

    def play(self, stop: threading.Event) -> None:
        try:
            self.play_boards(stop)
        except Exception as exc:  # reported by the test
            self.failed = repr(exc)

    def play_boards(self, stop: threading.Event) -> None:
        seq = itertools.count(1)
        for board in itertools.count(1):
            if stop.is_set():
                return
            self.send("director", f"/api/tables/{self.name}/boards",
                      {"board": board, "deal": DEAL, "dealer": "N"}, ("board", board))
            for event in log(SCRIPTS[board % len(SCRIPTS)])[1:]:
                if stop.is_set():
                    return
                seat, event["client_seq"] = event.pop("seat"), next(seq)
                self.send(seat, f"/api/tables/{self.name}/events", event,
                          (seat, event["client_seq"]))
                time.sleep(0.05)

    def longest_gap(self) -> float:
        return max((b - a for a, b in itertools.pairwise(self.accepted_at)), default=0.0)

    def served_again(self, since: float) -> float:
        """When the table's last wait of a second or more after `since` ended."""
        return max((b for a, b in itertools.pairwise(self.accepted_at)
                    if b > since and b - a >= 1), default=since)


def tables_of(stack: Stack) -> list[Table]:
    """The tables, created without a board (the players start theirs)."""
    with stack.client(stack.director) as http:
        created = [http.post("/api/tables", json={"table": name}) for name in TABLES]
    assert [r.status_code for r in created] == [201] * len(TABLES)
    return [Table(name, {"director": stack.client(stack.director)} | {
                seat: stack.client(token) for seat, token in r.json()["seats"].items()})
            for name, r in zip(TABLES, created, strict=True)]


def shards_owned(stack: Stack) -> set[int]:
    client = redis.Redis(port=stack.redis_port)
    try:
        return {shard for key in client.scan_iter(WORKER_KEYS)
                for shard in json.loads(client.get(key) or "[]")}
    finally:
        client.close()


async def partitions(bootstrap: str) -> dict[tuple[str, int], tuple[int, int]]:
    """Every partition of every topic: its leader (-1: none), and how many replicas it has."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        return {(t["topic"], p["partition"]): (p["leader"], len(p["replicas"]))
                for t in await admin.describe_topics() for p in t["partitions"]}
    finally:
        await admin.close()


def count_in_topic(stack: Stack, table: str) -> Counter[Key]:
    """How many times each event is in the table's topic."""
    found: Counter[Key] = Counter()
    for record in run(read_all(stack.bootstrap, table_topic(table))):
        event = decode(record.value)
        if isinstance(event, BoardStarted):
            found["board", event.board] += 1
        else:
            seat = getattr(event, "seat", None)
            found[seat.name if seat else "", event.client_seq or -1] += 1
    return found


def faults_logged(data: Path) -> list[str]:
    """The workers' own lines on why they stopped."""
    return [f"{path.name}: {line.strip()[:300]}" for path in sorted(data.glob("w*.log"))
            for line in path.read_text().splitlines()
            if "Crashed reason" in line or "cannot go on" in line]


def test_a_broker_killed_mid_stream_loses_no_acknowledged_call(tmp_path: Path) -> None:
    started = time.monotonic()
    figures: dict[str, Any] = {}  # printed however far the test got
    try:
        with running_stack(tmp_path, KAFKA_PORT, REDIS_PORT, GATEWAY_PORT, workers=2,
                           brokers=3, extra_env={"TABLESERVER_SHARDS": str(SHARDS),
                                                 "TABLESERVER_CALLS_PER_SECOND": "100"}
                           ) as stack, supervised(stack) as restarts:
            try:
                kill_a_broker_mid_stream(stack, figures)
            finally:
                figures["workers restarted"] = restarts or "none"
                figures["workers' faults"] = faults_logged(tmp_path) or "none"
    finally:
        figures["test duration"] = f"{time.monotonic() - started:.0f} s"
        print("\n" + "\n".join(f"{name}: {value}" for name, value in figures.items()))


def kill_a_broker_mid_stream(stack: Stack, figures: dict[str, Any]) -> None:
    wait_for(lambda: shards_owned(stack) == set(range(SHARDS)), 60, "every shard owned")
    tables = tables_of(stack)
    stop = threading.Event()
    threads = [threading.Thread(target=t.play, args=(stop,)) for t in tables]
    for thread in threads:
        thread.start()
    try:
        time.sleep(BEFORE_KILL_S)
        figures["acked before the kill"] = acked_before = sum(len(t.acked) for t in tables)
        before = run(partitions(stack.bootstrap))
        victim, led = Counter(lead for lead, _ in before.values()).most_common(1)[0]
        figures["killed"] = f"broker {victim}, leader of {led} of {len(before)} partitions"
        os.kill(int(stack.kafka_pidfile(victim).read_text()), signal.SIGKILL)
        killed_at = time.monotonic()
        time.sleep(AFTER_KILL_S)
        wait_for(lambda: all(time.monotonic() - t.accepted_at[-1] < 1 for t in tables), 60,
                 "every table served again")
        time.sleep(PLAY_ON_S)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
        stopped_at = time.monotonic()
        for client in (c for t in tables for c in t.clients.values()):
            client.close()
    figures["acked"] = sum(len(t.acked) for t in tables)
    figures["acked after the kill"] = figures["acked"] - acked_before
    figures["503s"] = sum(t.refused for t in tables)
    figures["429s"] = sum(t.limited for t in tables)
    gap, slowest = max((t.longest_gap(), t.name) for t in tables)
    figures["longest gap between two 202s at a table"] = f"{gap:.1f} s ({slowest})"
    figures["longest gap at each table"] = " ".join(f"{t.longest_gap():.1f}" for t in tables)
    figures["every table served again after the kill"] = \
        f"{max(t.served_again(killed_at) for t in tables) - killed_at:.1f} s"
    assert not any(thread.is_alive() for thread in threads)
    assert [t.failed for t in tables if t.failed] == []

    check_equal_to_replay(stack, TABLES)
    figures["states caught up after the calls stopped"] = \
        f"{time.monotonic() - stopped_at:.1f} s"
    counts = {t.name: count_in_topic(stack, t.name) for t in tables}
    figures["found"] = sum(1 for t in tables for key in t.acked if counts[t.name][key])
    figures["duplicates (answered 503, appended after all, sent again; folded once)"] = sum(
        n - 1 for found in counts.values() for n in found.values() if n > 1)
    alerts = [a for a in run(committed_alerts(stack.bootstrap)) if a["table"] in TABLES]
    figures["alerts"] = len(alerts)
    after = {tp: lead for tp, (lead, _) in run(partitions(stack.bootstrap)).items()}
    moved = {tp: after.get(tp) for tp, (lead, _) in before.items() if lead == victim}
    stuck = {tp: lead for tp, lead in moved.items() if lead in (None, -1, victim)}
    figures["leaders moved"] = f"{len(moved) - len(stuck)} of {len(moved)}"
    unreplicated = sorted({tp[0] for tp, (_, replicas) in before.items() if replicas < 3})
    figures["topics with fewer than 3 replicas"] = unreplicated or "none"

    for table in tables:
        in_topic = counts[table.name]
        assert all(in_topic[key] >= 1 for key in table.acked), table.name
        # a copy too many only of an event answered 503 (appended after all) and sent again
        doubled = {key for key, n in in_topic.items() if n > 1}
        assert doubled <= table.retried, (table.name, doubled - table.retried)
        # and folded once: the same client_seq again changes nothing; a board started twice
        # in a row leaves an empty board before the one played
        folded, _ = run(replay(stack.bootstrap, table.name))
        calls = [key for key in table.acked if key[0] != "board"]
        assert sum(board.events for board in folded.boards) == len(calls), table.name
        assert [n for n, _ in itertools.groupby(b.board for b in folded.boards)] == \
            [key[1] for key in table.acked if key[0] == "board"], table.name
    ids = [a["id"] for a in alerts]
    assert len(ids) == len(set(ids)), "an alert was emitted twice"
    expected = []
    for table in TABLES:
        folded, _ = run(replay(stack.bootstrap, table))
        expected += [(table, a.kind) for b in folded.boards for a in b.alerts]
    assert sorted((a["table"], a["kind"]) for a in alerts) == sorted(expected)
    assert unreplicated == [], "topics a broker's loss takes away"
    assert moved and not stuck, f"partitions without a new leader: {stuck}"
