"""The feeds' hub reads every stream its sockets follow in one `XREAD`, packed by the hub
(`fanout.xread_command`): the same bytes redis-py would send, each stream's name packed once."""

from __future__ import annotations

from redis.asyncio.connection import Connection

from services.gateway.feeds import fanout
from services.gateway.feeds.fanout import xread_command


def _redis_pys(streams: dict[str, str], block_ms: int, count: int) -> bytes:
    return b"".join(Connection().pack_command(
        "XREAD", "BLOCK", block_ms, "COUNT", count, "STREAMS", *streams, *streams.values()))


def test_the_read_is_the_command_redis_py_would_send() -> None:
    streams = {"tableserver:feed:{t-1}": "0-0", "tableserver:feed:{tablé-2}": "1764480000000-12",
               "tableserver:wake:ab": "1764480000001-0"}
    assert xread_command(streams, 5000, 100) == _redis_pys(streams, 5000, 100)
    assert xread_command({"k": "1-1"}, 200, 7) == _redis_pys({"k": "1-1"}, 200, 7)


def test_a_streams_name_is_packed_once_and_its_new_id_each_read() -> None:
    streams = {"tableserver:feed:{t-9}": "5-0"}
    xread_command(streams, 5000)
    packed = fanout._BULK_KEYS["tableserver:feed:{t-9}"]
    streams["tableserver:feed:{t-9}"] = "6-3"
    assert xread_command(streams, 5000) == _redis_pys(streams, 5000, fanout.READ_COUNT)
    assert fanout._BULK_KEYS["tableserver:feed:{t-9}"] is packed
