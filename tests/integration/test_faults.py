"""The processor through faults, on the real stack, with tables playing all along (operations.md):
Redis stopped 10 s and restarted empty, the broker killed (kill -9) and restarted, a worker
paused 20 s (SIGSTOP) and resumed. Each time: no worker exits, no acknowledged event is lost,
no alert is emitted twice, every state ends equal to a replay, and the figures are printed
(acked, found, duplicates, recovery time; docs/operations.md keeps them). On a stack of its
own (two workers, four shards), since the faults would disturb the other tests.

Redis's return is bounded (docs/operations.md, "Measured recovery"): every state is back within
`REDIS_RETURN_BOUND_S` of Redis's start (it took 0.5 to 6.5 s after Redis answered). So is
every other recovery time the tests print (polls, not sleeps): each bound below is a few times the
figure measured on a machine of two cores (docs/operations.md), and under what the fault
would cost if the recovery it checks did not happen."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis

from services.common.names import TABLES_SET, shard_of
from tests.helpers import wait_for
from tests.integration.faults import (
    acked_since,
    latencies,
    owned_once,
    owners,
    playing,
    processor_story,
    report,
    settle_and_audit,
    stalled_s,
    workers_pids,
)
from tests.stack import Stack, _deploy, another_gateway, running_stack

SHARDS = 4
SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))  # as conftest.py's
# measured about 0.3-0.5 s from the start of Redis (its start included); room for a loaded
# machine of two cores
REDIS_RETURN_BOUND_S = 3.0
# measured 0.1-0.3 s from Redis answering (the workers ask every 0.2 s)
REDIS_ANSWERED_BOUND_S = 1.5
# every table folding again 0.3-3.3 s after the broker's restart (the target: 15 s)
BROKER_RETURN_BOUND_S = 15.0
# the slowest fold after that: 0.2-0.3 s
FOLD_AFTER_RETURN_BOUND_S = 3.0
# the paused worker's tables stalled 6.1-10.3 s in all (the 6 s session timeout, then the
# other worker takes their shards over); the pause lasts 20 s: a stall under 18 s shows the
# takeover during the pause (the target: 10 s)
FIRST_STALL_BOUND_S = 18.0
# the other worker's tables: 0.0-2.5 s (a rebalance's revocation stops nothing); under the
# 6 s session timeout, so a stall that waits for a session to expire fails
OTHERS_STALL_BOUND_S = 5.0
# a second stall: the longest time any table was behind, counting the events acknowledged
# after the worker was resumed (its shards' handover back to it): 0.0-1.7 s; under the 6 s
# session timeout, as above
SECOND_STALL_BOUND_S = 5.0
# both workers owned shards again 2.1-4.3 s after the resume
REJOIN_BOUND_S = 10.0
PLAY_ON = 20  # events acked on every table after a recovery, before the audit


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    data = tmp_path_factory.mktemp("tableserver-processor-faults")
    with running_stack(data, 19492 + SHIFT, 16779 + SHIFT, 18400 + SHIFT, workers=2, extra_env={
            "TABLESERVER_SHARDS": str(SHARDS), "TABLESERVER_PRODUCE_TIMEOUT": "3"}) as stack:
        wait_for(lambda: len(owners(stack)) == SHARDS, 60, "every shard owned")
        yield stack


def test_redis_stopped_10_s_workers_stay_and_every_state_comes_back(faulty: Stack) -> None:
    """Redis stops for 10 s and comes back empty (no persistence): the workers go on folding
    and emitting alerts (Kafka), and write every table's state and registry record again
    as soon as Redis answers, within a bound; a gateway that never saw the tables finds them
    all."""
    pids = workers_pids(faulty)
    players, watcher = playing(faulty, "redis")
    _deploy("redis/stop.sh", faulty.env)
    time.sleep(10)  # the scenario, not a wait for a condition: the outage lasts 10 s
    starting = time.monotonic()
    _deploy("redis/start.sh", faulty.env)  # returns once Redis answers (polled every 0.1 s)
    back = time.monotonic()
    wait_for(lambda: all(watcher.folded_at(a) for a in players.acks if a.at < back), 60,
             "every event acked before Redis came back folded into it")
    folded = max(watcher.folded_at(a) or 0.0 for a in players.acks if a.at < back)
    recovery, since_start = folded - back, folded - starting
    assert since_start <= REDIS_RETURN_BOUND_S, since_start
    assert recovery <= REDIS_ANSWERED_BOUND_S, recovery
    wait_for(lambda: acked_since(players, folded, PLAY_ON), 60,
             "play going on after the states came back")
    found = settle_and_audit(faulty, players, watcher)
    assert workers_pids(faulty) == pids, "a worker exited"
    client = redis.Redis(port=faulty.redis_port)
    try:
        assert set(players.tables) <= {t.decode() for t in client.hkeys(TABLES_SET)}
    finally:
        client.close()
    token = next(iter(players.tables.values()))["spectator"]
    with another_gateway(faulty, 18410 + SHIFT, "gateway-after-redis.log") as url, \
            httpx.Client(base_url=url, timeout=10,
                         headers={"Authorization": f"Bearer {token}"}) as http:
        assert all(http.get(f"/api/tables/{t}/state").status_code != 404
                   for t in players.tables)
    report("Redis stopped 10 s", found, players, every_state_back_after_Redis_returned=recovery,
           every_state_back_after_Redis_was_started=since_start)


def test_broker_killed_and_restarted_workers_stay_and_fold_again(faulty: Stack) -> None:
    """The broker is killed (kill -9) and started again 5 s later: calls get 503s meanwhile
    and are posted again; the workers never exit and fold again once it is back."""
    pids = workers_pids(faulty)
    players, watcher = playing(faulty, "broker")
    pidfile = faulty.data / "kafka" / "kafka.pid"
    os.kill(int(pidfile.read_text()), signal.SIGKILL)
    time.sleep(5)  # the scenario, not a wait for a condition: the broker stays down 5 s
    pidfile.unlink()
    _deploy("kafka/start.sh", faulty.env)
    back = time.monotonic()

    def first_after(table: str) -> Any:
        return next((a for a in players.acks if a.table == table and a.at >= back), None)

    wait_for(lambda: all((ack := first_after(t)) and watcher.folded_at(ack)
                         for t in players.tables), 90,
             "every table's first event after the restart folded")
    recovery = max((watcher.folded_at(first_after(t)) or 0.0) for t in players.tables) - back
    wait_for(lambda: acked_since(players, back + recovery, PLAY_ON), 60,
             "play going on after every table folded again")
    found = settle_and_audit(faulty, players, watcher)
    after = [late for _, late in latencies(players, watcher, since=back + recovery)]
    assert workers_pids(faulty) == pids, "a worker exited"
    slowest = max(after, default=0.0)
    report("broker killed and restarted after 5 s", found, players,
           every_table_folding_again_after_the_broker_returned=recovery,
           slowest_fold_after_that=slowest)
    assert recovery <= BROKER_RETURN_BOUND_S, recovery
    assert len(after) >= PLAY_ON * len(players.tables) and slowest <= FOLD_AFTER_RETURN_BOUND_S, \
        (len(after), slowest)


def test_a_worker_paused_20_s_rejoins_without_a_second_stall(faulty: Stack) -> None:
    """A worker is paused 20 s (SIGSTOP): the other takes its shards after the session
    timeout; resumed, it finds its runners fenced, gives them up and rejoins the group. Its
    tables stall once, less than the pause (`FIRST_STALL_BOUND_S`), the other worker's hardly
    (`OTHERS_STALL_BOUND_S`); no second stall when it rejoins: of the events acknowledged
    after the resume, through the rejoin and `PLAY_ON` more a table, no table is behind
    longer than `SECOND_STALL_BOUND_S`. No alert is emitted twice, and both workers run shards
    again within `REJOIN_BOUND_S`."""
    pids = workers_pids(faulty)
    wait_for(lambda: owned_once(faulty, SHARDS), 60, "both workers own shards, each once")
    paused = "w1"
    shards = {s for s, name in owners(faulty).items() if name == paused}
    players, watcher = playing(faulty, "pause")
    proc = faulty.workers[paused]
    began = time.time()
    proc.send_signal(signal.SIGSTOP)
    time.sleep(20)  # the scenario, not a wait for a condition: the pause lasts 20 s
    proc.send_signal(signal.SIGCONT)
    resumed = time.monotonic()
    wait_for(lambda: len(set(owners(faulty).values())) == 2, 60, "both workers own shards again")
    rejoined = time.monotonic() - resumed
    wait_for(lambda: acked_since(players, resumed + rejoined, PLAY_ON), 60,
             "play going on after the rejoin")
    found = settle_and_audit(faulty, players, watcher)
    theirs = {t for t in players.tables if shard_of(t, SHARDS) in shards}
    stall = stalled_s(players, watcher, theirs)
    others = stalled_s(players, watcher, set(players.tables) - theirs)
    second = stalled_s(players, watcher, set(players.tables), since=resumed)
    assert workers_pids(faulty) == pids, "a worker exited"
    assert theirs, "the paused worker had tables"
    report("a worker paused 20 s", found, players, its_tables_stalled_in_all=stall,
           the_other_tables_stalled=others, any_table_stalled_after_the_resume=second,
           both_workers_owning_shards_again_after=rejoined)
    print(processor_story(faulty, began))
    assert stall <= FIRST_STALL_BOUND_S, stall
    assert others <= OTHERS_STALL_BOUND_S, others
    assert second <= SECOND_STALL_BOUND_S, second
    assert rejoined <= REJOIN_BOUND_S, rejoined
