"""The pipelined paths and the feeds' readers on a real Redis Cluster of three primaries
(`services/common/cluster_lines.py`, `services/gateway/feeds/cluster_feeds.py`)."""

from __future__ import annotations

import asyncio
import socket
import uuid

import pytest
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError, NoScriptError, ResponseError

from services.common.cluster_lines import ClusterLines, key_of
from services.common.names import feed_key, state_key, tag
from services.gateway.feeds.fanout import FeedHub
from tests.helpers import wait_for_async
from tests.redis_cluster import RedisClusterNodes


def _tables(count: int) -> list[str]:
    run = uuid.uuid4().hex[:8]
    return [f"cl{run}-{i}" for i in range(count)]


def test_a_command_is_routed_by_its_key_or_its_scripts_first_key() -> None:
    assert key_of(("HMGET", "k", "a")) == b"k"
    assert key_of(("EVALSHA", "abc", 2, "k1", "k2", 7)) == b"k1"
    assert key_of(("EVAL", "return 1", 0)) is None
    assert key_of(("PING",)) is None


async def test_a_batch_over_every_primary_comes_back_in_order(
        redis_cluster_nodes: RedisClusterNodes) -> None:
    lines, cluster = ClusterLines(redis_cluster_nodes.url), RedisCluster.from_url(
        redis_cluster_nodes.url)
    try:
        tables = _tables(24)
        await cluster.initialize()  # its map of slots
        nodes = {cluster.get_node_from_key(state_key(t)).name for t in tables}
        assert len(nodes) == 3  # the batch is split three ways
        await lines.execute_many([("HSET", state_key(t), "version", i)
                                  for i, t in enumerate(tables)])
        found = await lines.execute_many([("HGET", state_key(t), "version") for t in tables])
        assert found == [str(i).encode() for i in range(len(tables))]
        assert [await cluster.hget(state_key(t), "version") for t in tables] == found
        assert len(lines.lines) == 3  # one connection a primary
    finally:
        await lines.aclose()
        await cluster.aclose()


async def test_a_stale_map_is_read_again_and_the_redirected_commands_sent_once_more(
        redis_cluster_nodes: RedisClusterNodes) -> None:
    """As when a slot moves or a replica is promoted: a primary answers MOVED, and the
    command goes to the one the new map names."""
    lines, cluster = ClusterLines(redis_cluster_nodes.url), RedisCluster.from_url(
        redis_cluster_nodes.url)
    try:
        tables = _tables(12)
        await lines.execute("PING")  # the map read
        right = list(lines.owner)
        lines.owner = [right[0]] * len(right)  # every slot on one primary: stale for most
        replies = await lines.execute_many([("SET", state_key(t), t) for t in tables])
        assert replies == [b"OK"] * len(tables)
        assert lines.owner == right
        assert [await cluster.get(state_key(t)) for t in tables] == [t.encode() for t in tables]
    finally:
        await lines.aclose()
        await cluster.aclose()


async def test_an_unreachable_primary_fails_its_commands_and_has_the_map_read_again(
        redis_cluster_nodes: RedisClusterNodes) -> None:
    """As when a primary dies and a replica takes its slots: its commands fail (the caller
    retries, as on one Redis), and the map read meanwhile names the primary that answers."""
    lines = ClusterLines(redis_cluster_nodes.url)
    try:
        await lines.execute("PING")
        right = list(lines.owner)
        with socket.socket() as closed:  # a port nothing listens on
            closed.bind(("127.0.0.1", 0))
            gone = ("127.0.0.1", closed.getsockname()[1])
        lines.owner = [gone] * len(right)
        key = state_key(_tables(1)[0])
        with pytest.raises(RedisConnectionError):
            await lines.execute("SET", key, "x")
        await wait_for_async(lambda: lines.owner == right, 5, "the map read again")
        assert await lines.execute("SET", key, "x") == b"OK"
    finally:
        await lines.aclose()


async def test_an_error_reply_is_raised_once_every_reply_has_come(
        redis_cluster_nodes: RedisClusterNodes) -> None:
    lines = ClusterLines(redis_cluster_nodes.url)
    try:
        key = state_key(_tables(1)[0])
        with pytest.raises(NoScriptError):
            await lines.evalsha("0" * 40, 1, key)
        with pytest.raises(ResponseError, match="WRONGTYPE"):
            await lines.execute_many([("SET", key, "x"), ("HGET", key, "f"), ("GET", key)])
        assert await lines.execute("GET", key) == b"x"  # the batch's other commands ran
    finally:
        await lines.aclose()


async def test_the_hub_reads_a_cluster_slot_by_slot_and_a_reader_ends_with_its_last_socket(
        redis_cluster_nodes: RedisClusterNodes) -> None:
    # Every step bounded: a fresh clone's run once hung in this test (where is not known yet;
    # a reply lost on a client without a timeout would do it): it must fail, and say where.
    cluster = RedisCluster.from_url(redis_cluster_nodes.url, socket_timeout=10)
    hub = FeedHub(cluster, cluster, block_ms=200)
    reading = asyncio.create_task(hub.run())
    try:
        tables = _tables(9)
        assert hub.nodes is not None
        slots = {hub.nodes.slot_of(feed_key(t)) for t in tables}
        subs = [await asyncio.wait_for(
            hub.subscribe(feed_key(t), "$", "v", lambda i, f: f[b"n"].decode()), 20)
            for t in tables]
        assert set(hub.nodes.readers) == slots  # a reader a slot followed
        for n, table in enumerate(tables):
            await cluster.xadd(feed_key(table), {"n": str(n)})
        got = [await asyncio.wait_for(sub.queue.get(), 10) for sub in subs]
        assert [message.text for _, message in got] == [str(n) for n in range(len(tables))]
        first = hub.nodes.slot_of(feed_key(tables[0]))
        for table, sub in zip(tables, subs, strict=True):
            if hub.nodes.slot_of(feed_key(table)) == first:
                hub.unsubscribe(sub)
        await wait_for_async(lambda: first not in hub.nodes.readers, 5, "its reader ended")
        again = await asyncio.wait_for(
            hub.subscribe(feed_key(tables[0]), "$", "v", lambda i, f: "again"), 20)
        assert not hub.nodes.readers[first].done()  # started anew with a socket
        await cluster.xadd(feed_key(tables[0]), {"n": "x"})
        assert (await asyncio.wait_for(again.queue.get(), 10))[1].text == "again"
        assert tag(tables[0]) in hub.nodes.wakes[first]  # woken in its own slot
    finally:
        reading.cancel()
        await asyncio.wait_for(asyncio.gather(reading, return_exceptions=True), 20)
        await asyncio.wait_for(cluster.aclose(), 20)


async def test_a_reader_that_dies_of_a_bug_ends_the_hubs_run_with_it(
        redis_cluster_nodes: RedisClusterNodes, monkeypatch: pytest.MonkeyPatch) -> None:
    """As the one reader's task would on one Redis: the gateway's supervision stops the
    process (a slot left unread would be a feed that silently stops)."""
    cluster = RedisCluster.from_url(redis_cluster_nodes.url)
    hub = FeedHub(cluster, cluster, block_ms=200)

    async def broken(*args: object) -> None:
        raise ValueError("a bug in the reader")

    monkeypatch.setattr(hub, "read", broken)
    reading = asyncio.create_task(hub.run())
    try:
        await hub.subscribe(feed_key(_tables(1)[0]), "$", "v", lambda i, f: "x")
        with pytest.raises(ValueError, match="a bug in the reader"):
            await asyncio.wait_for(reading, 10)
    finally:
        reading.cancel()
        await asyncio.gather(reading, return_exceptions=True)
        await cluster.aclose()
