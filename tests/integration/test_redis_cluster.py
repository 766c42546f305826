"""A real Redis Cluster of three primaries, started by the deploy scripts
(TABLESERVER_REDIS_CLUSTER=3, the `redis_cluster_nodes` fixture), through redis-py's cluster
client: what the services may count on when their keys are spread over the nodes. Keys whose
hash tags differ land on different nodes; one command (a script, an XREAD) reaches keys of one
slot only, so the keys read or written together share a hash tag."""

from __future__ import annotations

import asyncio
import socket
import subprocess
from collections.abc import AsyncIterator

import pytest
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import ClusterCrossSlotError, MovedError, RedisClusterException

from tests.redis_cluster import RedisClusterNodes
from tests.stack import ROOT

SLOTS = 16384
SCRIPT = "redis.call('SET', KEYS[1], ARGV[1]); redis.call('SET', KEYS[2], ARGV[1]); " \
         "return redis.call('MGET', KEYS[1], KEYS[2])"


@pytest.fixture
async def cluster(redis_cluster_nodes: RedisClusterNodes) -> AsyncIterator[RedisCluster]:
    client = RedisCluster.from_url(redis_cluster_nodes.url)
    await client.initialize()
    try:
        yield client
    finally:
        await client.aclose()


def owner(cluster: RedisCluster, key: str) -> ClusterNode:
    """The primary that serves `key`'s slot."""
    node = cluster.get_node_from_key(key)
    assert node is not None, f"no node serves {key}"
    return node


def tags_by_node(cluster: RedisCluster, count: int = 400) -> dict[str, list[str]]:
    """Hash tags `{t0}`, `{t1}`… grouped by the node that serves their slot."""
    tags: dict[str, list[str]] = {}
    for i in range(count):
        tag = f"{{t{i}}}"
        tags.setdefault(owner(cluster, tag).name, []).append(tag)
    return tags


def slot_ranges(answer: list[list[object]]) -> dict[int, list[tuple[int, int]]]:
    """CLUSTER SLOTS's answer as each primary's port → its slot ranges."""
    ranges: dict[int, list[tuple[int, int]]] = {}
    for start, end, primary, *_replicas in answer:
        assert isinstance(start, int) and isinstance(end, int) and isinstance(primary, list)
        ranges.setdefault(int(primary[1]), []).append((start, end))
    return ranges


async def test_every_node_serves_slots_and_all_16384_are_covered(
        cluster: RedisCluster, redis_cluster_nodes: RedisClusterNodes) -> None:
    assert sorted(node.port for node in cluster.get_primaries()) == \
        list(redis_cluster_nodes.ports)
    maps = [slot_ranges(await node.execute_command("CLUSTER", "SLOTS"))
            for node in cluster.get_primaries()]
    assert all(map_ == maps[0] for map_ in maps), "the nodes disagree on who serves what"
    assert sorted(maps[0]) == list(redis_cluster_nodes.ports)
    served = sorted(slot for ranges in maps[0].values() for start, end in ranges
                    for slot in range(start, end + 1))
    assert served == list(range(SLOTS))  # each slot once
    for node in cluster.get_primaries():
        info = (await node.execute_command("CLUSTER", "INFO")).decode()
        assert "cluster_state:ok" in info and f"cluster_slots_ok:{SLOTS}" in info


async def test_keys_of_different_hash_tags_land_on_different_nodes(
        cluster: RedisCluster) -> None:
    tags = tags_by_node(cluster)
    assert len(tags) == 3, tags.keys()
    keys = {name: f"{names[0]}:state" for name, names in tags.items()}
    for name, key in keys.items():
        await cluster.set(key, name)
    for name, key in keys.items():
        assert await cluster.get(key) == name.encode()
        assert await owner(cluster, key).execute_command("GET", key) == name.encode()  # there
        for other in cluster.get_primaries():
            if other.name != name:
                with pytest.raises(MovedError):
                    await other.execute_command("GET", key)


async def test_a_script_reaches_keys_of_one_hash_tag_only(cluster: RedisCluster) -> None:
    sha = await cluster.script_load(SCRIPT)  # on every primary
    assert await cluster.evalsha(sha, 2, "{t1}:a", "{t1}:b", "v") == [b"v", b"v"]
    assert await cluster.mget("{t1}:a", "{t1}:b") == [b"v", b"v"]
    apart = ("{t1}:a", "{t2}:b")
    assert cluster.keyslot(apart[0]) != cluster.keyslot(apart[1])
    with pytest.raises(RedisClusterException, match="same key slot"):  # redis-py refuses
        await cluster.evalsha(sha, 2, *apart, "w")
    with pytest.raises(ClusterCrossSlotError):  # and so does the node itself
        await owner(cluster, apart[0]).execute_command("EVALSHA", sha, 2, *apart, "w")
    assert await cluster.get(apart[0]) == b"v"  # nothing written


async def test_a_pipeline_not_a_transaction_spans_every_node(cluster: RedisCluster) -> None:
    keys = [f"{names[0]}:piped" for names in tags_by_node(cluster).values()]
    pipe = cluster.pipeline(transaction=False)
    for i, key in enumerate(keys):
        pipe.set(key, i)
        pipe.incr(key)
    assert await pipe.execute() == [True, 1, True, 2, True, 3]
    assert await cluster.mget_nonatomic(keys) == [b"1", b"2", b"3"]


async def test_xread_reads_streams_of_one_slot_only(cluster: RedisCluster) -> None:
    tags = tags_by_node(cluster)
    (first, firsts), (second, seconds) = list(tags.items())[:2]
    together = [f"{firsts[0]}:feed-a", f"{firsts[0]}:feed-b"]  # one slot
    same_node = [f"{firsts[1]}:feed", f"{firsts[2]}:feed"]  # two slots of one node
    across = [f"{firsts[3]}:feed", f"{seconds[0]}:feed"]  # two nodes
    assert len({cluster.keyslot(key) for key in same_node}) == 2
    for key in [*together, *same_node, *across]:
        await cluster.xadd(key, {"key": key})
    node = owner(cluster, together[0])
    assert node.name == first

    async def xread(node: ClusterNode, keys: list[str]) -> list[bytes]:
        """XREAD from the start of `keys`, sent to `node` itself: the streams read."""
        answer = await node.execute_command("XREAD", "STREAMS", *keys, *["0"] * len(keys))
        return sorted(stream for stream, _entries in answer)

    assert await xread(node, together) == sorted(key.encode() for key in together)
    assert len(await cluster.xread(dict.fromkeys(together, "0"))) == 2
    with pytest.raises(ClusterCrossSlotError):  # the same node, but two slots
        await xread(node, same_node)
    with pytest.raises(RedisClusterException, match="same key slot"):
        await cluster.xread(dict.fromkeys(across, "0"))
    other = owner(cluster, across[1])
    assert other.name == second
    with pytest.raises(ClusterCrossSlotError):  # either node refuses
        await xread(other, across)
    with pytest.raises(ClusterCrossSlotError):
        await xread(node, across)


async def test_a_restart_forms_the_same_cluster_from_its_node_files(
        redis_cluster_nodes: RedisClusterNodes) -> None:
    async def node_ids() -> list[bytes]:
        client = RedisCluster.from_url(redis_cluster_nodes.url)
        await client.initialize()
        try:
            return [await node.execute_command("CLUSTER", "MYID")
                    for node in sorted(client.get_primaries(), key=lambda node: node.port)]
        finally:
            await client.aclose()

    before = await node_ids()
    await asyncio.to_thread(redis_cluster_nodes.stop)
    await asyncio.to_thread(redis_cluster_nodes.start)  # returns once every node says ok
    assert await node_ids() == before  # not created again: the same nodes, the same slots
    client = RedisCluster.from_url(redis_cluster_nodes.url)
    try:
        await client.set("{t1}:after", "restart")
        assert await client.get("{t1}:after") == b"restart"
    finally:
        await client.aclose()


def test_node_files_of_another_cluster_are_refused_and_nothing_is_started(
        redis_cluster_nodes: RedisClusterNodes) -> None:
    redis_cluster_nodes.stop()
    first = redis_cluster_nodes.ports[0]
    four = {**redis_cluster_nodes.env, "TABLESERVER_REDIS_CLUSTER": "4"}
    moved_bus = {**redis_cluster_nodes.env, "TABLESERVER_REDIS_BUS_PORT": str(first + 10)}
    try:
        for env, why in [(four, "names 3 nodes"), (moved_bus, "says this node is")]:
            refused = subprocess.run([str(ROOT / "deploy/redis/start.sh")], env=env,
                                     capture_output=True, text=True, check=False)
            assert refused.returncode == 1
            assert "were written for another cluster" in refused.stderr and why in \
                refused.stderr
            for port in range(first, first + 4):
                with socket.socket() as probe:
                    assert probe.connect_ex(("127.0.0.1", port)) != 0, f"{port} listens"
    finally:
        redis_cluster_nodes.start()  # the three again, from their files
