"""A three-broker Kafka cluster (operations.md): the broker that leads the most partitions killed
with kill -9 while ten tables play. No event that got a 202 is lost, play goes on (an event
answered 503 is sent again, a call with its client_seq, as a client is told to), the
partitions the broker led get new leaders, no worker exits, and the states in Redis equal a
replay. On a stack of its own: replication 3, min.insync.replicas 2, two processor workers.
Prints its figures (docs/operations.md keeps them).

Two brokers of three killed (readiness): nothing can be appended, and the gateway says
so (`/readyz` 503, `/healthz` "not writable") until they are back."""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaError

from tests.helpers import DEAL, run, wait_for
from tests.integration.faults import owners, playing, report, settle_and_audit, workers_pids
from tests.stack import Stack, _deploy, running_stack

SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))  # as conftest.py's
KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 20092 + SHIFT, 20379 + SHIFT, 20800 + SHIFT  # Kafka: 6
SHARDS = 4
# every table was served again 10.3 s after the kill (docs/operations.md: the controllers fence
# the dead broker after 9 s, and a call waits up to the 5 s produce timeout); room for a loaded
# machine of two cores
SERVED_AGAIN_BOUND_S = 30.0
PLAY_ON = 10  # events acked per table once the dead broker's partitions have new leaders


async def partitions(bootstrap: str) -> dict[tuple[str, int], tuple[int, int]]:
    """Every partition of every topic: its leader (-1: none), and how many replicas it has."""
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap)
    await admin.start()
    try:
        return {(t["topic"], p["partition"]): (p["leader"], len(p["replicas"]))
                for t in await admin.describe_topics() for p in t["partitions"]}
    finally:
        await admin.close()


def test_a_broker_of_three_killed_mid_stream_loses_no_acknowledged_call(tmp_path: Path
                                                                        ) -> None:
    started = time.monotonic()
    with running_stack(tmp_path, KAFKA_PORT, REDIS_PORT, GATEWAY_PORT, workers=2, brokers=3,
                       extra_env={"TABLESERVER_SHARDS": str(SHARDS)}) as stack:
        wait_for(lambda: len(owners(stack)) == SHARDS, 60, "every shard owned")
        pids = workers_pids(stack)
        players, watcher = playing(stack, "cluster")
        wait_for(lambda: all(any(watcher.folded_at(a) for a in players.acks if a.table == t)
                             for t in players.tables), 30, "every table's calls folded")
        before = wait_for(lambda: _led(run(partitions(stack.bootstrap))), 30,
                          "every partition led")
        assert {replicas for _, replicas in before.values()} == {3}, "a topic of one replica"
        victim, led = Counter(leader for leader, _ in before.values()).most_common(1)[0]
        os.kill(int(stack.kafka_pidfile(victim).read_text()), signal.SIGKILL)
        killed = time.monotonic()

        def moved() -> list[tuple[str, int]]:
            try:
                after = run(partitions(stack.bootstrap))
            except KafkaError:  # asked of the dead broker: again
                return []
            return [tp for tp, (leader, _) in before.items()
                    if leader == victim and after[tp][0] not in (-1, victim)]

        # the controllers fence the dead broker after 9 s
        wait_for(lambda: len(moved()) == led, 60,
                 "every partition the dead broker led has a new leader")
        moved_at = time.monotonic()
        wait_for(lambda: all(sum(1 for a in players.acks if a.table == t and a.at > moved_at)
                             >= PLAY_ON for t in players.tables), 60,
                 f"{PLAY_ON} events acked on every table after the leaders moved")
        found = settle_and_audit(stack, players, watcher)
        served = max(players.served_again(t, killed) for t in players.tables) - killed
        last = {a.table: a.at for a in players.acks}
        # every table acknowledged after the kill (its last wait of a second may end with its
        # last ack, so the slowest table's served-again moment is no bound on the others)
        assert all(last[t] > killed for t in players.tables), "a table stopped"
        assert workers_pids(stack) == pids, "a worker exited"
    report(f"a broker of three killed (leader of {led} of {len(before)} partitions)", found,
           players, every_table_served_again_after_the_kill=served,
           test_duration=time.monotonic() - started)
    assert served <= SERVED_AGAIN_BOUND_S, served


def _led(found: dict[tuple[str, int], tuple[int, int]]
         ) -> dict[tuple[str, int], tuple[int, int]] | None:
    """`found` when every partition in it has a leader."""
    return found if found and all(leader != -1 for leader, _ in found.values()) else None


def _probe(stack: Stack, path: str) -> tuple[int, dict[str, Any]]:
    with httpx.Client(base_url=stack.url, timeout=30) as http:
        response = http.get(path)
    return response.status_code, response.json()


def test_two_brokers_of_three_down_the_gateway_says_it_cannot_append(tmp_path: Path) -> None:
    """With two brokers of three gone, the one left answers, but no append is acknowledged
    (min.insync.replicas 2): every call gets its 503, and `/readyz` and `/healthz` say so
    (they said 200 and "kafka ok"). Once the brokers are back, the gateway is ready again."""
    with running_stack(tmp_path, KAFKA_PORT, REDIS_PORT, GATEWAY_PORT, workers=0, brokers=3,
                       extra_env={"TABLESERVER_SHARDS": "2",
                                  "TABLESERVER_PRODUCE_TIMEOUT": "3"}) as stack:
        with stack.client(stack.director) as http:
            created = http.post("/api/tables", json={"table": "quorum1"})
            assert created.status_code == 201, created.text
        wait_for(lambda: _probe(stack, "/readyz")[0] == 200, 30, "ready")
        killed = [2, 3]
        for node in killed:
            os.kill(int(stack.kafka_pidfile(node).read_text()), signal.SIGKILL)
        with stack.client(stack.director) as http:
            refused = http.post("/api/tables/quorum1/boards", json={"board": 1, "deal": DEAL})
        assert refused.status_code == 503, refused.text
        wait_for(lambda: _probe(stack, "/readyz") == (503, {"ready": False}), 30,
                 "not ready while nothing can be appended")
        status, health = _probe(stack, "/healthz")
        assert (status, health["kafka"], health["redis"]) == (503, "not writable", "ok")
        for node in killed:
            stack.kafka_pidfile(node).unlink()
        _deploy("kafka/start.sh", stack.env)
        wait_for(lambda: _probe(stack, "/readyz")[0] == 200, 90, "ready again")
        assert _probe(stack, "/healthz")[1]["kafka"] == "ok"

        def appended() -> bool:
            with stack.client(stack.director) as http:
                return http.post("/api/tables/quorum1/boards",
                                 json={"board": 1, "deal": DEAL}).status_code == 202

        wait_for(appended, 30, "a call appended again")
