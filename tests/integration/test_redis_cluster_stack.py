"""The services on a Redis Cluster of three primaries (capacity.md: one Redis thread cannot
hold 100,000 tables, docs/capacity.md): a stack of its own, Redis started by the deploy scripts
with `TABLESERVER_REDIS_CLUSTER=3`. Tables whose keys lie on every primary play; each table's
spectator socket gets each of its states (the gateway's hub reads the cluster slot by slot,
`services/gateway/feeds/cluster_feeds.py`); the states equal the tables' replays; and when one
primary loses its data, or all do, the workers write those states again."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from redis import Redis
from redis.cluster import RedisCluster
from websockets.asyncio.client import ClientConnection, connect

from services.common.names import feed_key, state_key
from shared.table.board_end import table_view
from tests.helpers import new_table, play_script, run, state_at, wait_for
from tests.integration.kafka_reading import replay
from tests.stack import Stack, running_stack

SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))  # as conftest.py's
KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 24092 + SHIFT, 24379 + SHIFT, 24800 + SHIFT
TABLES = [f"rc{i}" for i in range(12)]
SCRIPT = "N 1C, E 1D, S 1H, W 1S, N P"


async def _last_versions(sockets: dict[str, ClientConnection], last: dict[str, int]
                         ) -> dict[str, list[int]]:
    """Each socket's versions, read until its table's last (or 30 s)."""

    async def read(table: str, ws: ClientConnection) -> list[int]:
        seen: list[int] = []
        async with asyncio.timeout(30):
            while not seen or seen[-1] < last[table]:
                seen.append(json.loads(await ws.recv())["version"])
        return seen

    found = await asyncio.gather(*(read(t, ws) for t, ws in sockets.items()))
    return dict(zip(sockets, found, strict=True))


def _equal_to_replay(stack: Stack, table: str, last: int) -> bool:
    folded, offset = run(replay(stack.bootstrap, table))
    now = state_at(stack, table, last)
    return (offset == last and now is not None and folded.board is not None
            and now["board"] == table_view(folded))


def test_tables_on_three_primaries_play_are_fed_and_come_back_after_a_flush(tmp_path: Path
                                                                           ) -> None:
    env = {"TABLESERVER_REDIS_CLUSTER": "3", "TABLESERVER_REDIS_BUS_PORT": ""}
    with running_stack(tmp_path, KAFKA_PORT, REDIS_PORT, GATEWAY_PORT, extra_env=env) as stack:
        cluster = RedisCluster(host="127.0.0.1", port=REDIS_PORT)
        try:
            primaries = {t: cluster.get_node_from_key(state_key(t)).name for t in TABLES}
            assert len(set(primaries.values())) == 3, primaries  # every primary holds some
            tokens = {t: new_table(stack, t) for t in TABLES}
            base = f"ws://127.0.0.1:{GATEWAY_PORT}/api/tables"

            async def play_and_watch() -> tuple[dict[str, int], dict[str, list[int]]]:
                sockets = {t: await connect(f"{base}/{t}/feed?token={tokens[t]['spectator']}")
                           for t in TABLES}
                try:
                    for ws in sockets.values():  # the current state first: each one follows
                        json.loads(await ws.recv())
                    loop = asyncio.get_running_loop()
                    last = {t: await loop.run_in_executor(None, play_script, stack, t,
                                                          tokens[t], SCRIPT) for t in TABLES}
                    return last, await _last_versions(sockets, last)
                finally:
                    for ws in sockets.values():
                        await ws.close()

            last, seen = run(play_and_watch())
            for table in TABLES:
                assert seen[table][-1] == last[table], (table, seen[table])
                assert seen[table] == sorted(set(seen[table])), seen[table]  # in order, once
                assert _equal_to_replay(stack, table, last[table]), table
            assert all(cluster.exists(feed_key(t)) for t in TABLES)

            # one primary loses its data (a restart without persistence): the marks of its
            # buckets with it, so the workers write their tables again
            lost = primaries[TABLES[0]]
            host, port = lost.rsplit(":", 1)
            with Redis(host=host, port=int(port)) as node:
                node.flushall()
            gone = [t for t in TABLES if primaries[t] == lost]
            assert gone and not any(cluster.exists(state_key(t)) for t in gone)
            wait_for(lambda: all(cluster.exists(state_key(t)) for t in gone), 30,
                     "the lost primary's states written again by the workers")
            assert all(_equal_to_replay(stack, t, last[t]) for t in TABLES)

            cluster.flushall()  # every primary's keys (redis-py sends it to each)
            assert not any(cluster.exists(state_key(t)) for t in TABLES)
            wait_for(lambda: all(state_at(stack, t, last[t]) for t in TABLES), 30,
                     "every state written again by the workers")
            assert all(_equal_to_replay(stack, t, last[t]) for t in TABLES)
        finally:
            cluster.close()
