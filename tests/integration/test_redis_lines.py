"""`RedisLines`, the pipelined connection of the hot paths (services/common/redis_lines.py),
against the real Redis: replies reach their own callers however many wait at once, and each
fault is redis-py's exception, after which the next command connects again."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.exceptions import (
    ConnectionError as RedisConnectionError,
    NoScriptError,
    ResponseError,
    TimeoutError as RedisTimeoutError,
)

from services.common.redis_lines import Address, RedisLines
from tests.stack import Stack


@pytest.fixture
async def redis(stack: Stack) -> AsyncIterator[Redis]:
    client = Redis(port=stack.redis_port)
    yield client
    await client.aclose()


def _key() -> str:
    return f"lines-{uuid.uuid4().hex[:12]}"


async def test_replies_reach_their_own_callers_when_many_wait_at_once(stack: Stack) -> None:
    lines = RedisLines(f"redis://127.0.0.1:{stack.redis_port}/0")
    keys = [_key() for _ in range(300)]
    await asyncio.gather(*(lines.execute("SET", k, f"value of {k}") for k in keys))
    got = await asyncio.gather(*(lines.execute("GET", k) for k in reversed(keys)))
    assert got == [f"value of {k}".encode() for k in reversed(keys)]
    assert await lines.execute_many([("INCR", keys[0] + "n"), ("INCR", keys[0] + "n"),
                                     ("HMGET", _key(), "a", "b")]) == [1, 2, [None, None]]
    await lines.aclose()


async def test_an_error_reply_is_raised_to_its_caller_alone(stack: Stack) -> None:
    lines = RedisLines(f"redis://127.0.0.1:{stack.redis_port}/0")
    key = _key()
    unknown = asyncio.ensure_future(lines.evalsha("0" * 40, 0))  # queued before the SET
    await lines.execute("SET", key, "text")
    with pytest.raises(NoScriptError):
        await unknown
    with pytest.raises(ResponseError, match="not an integer"):
        await lines.execute("INCR", key)
    assert await lines.execute("GET", key) == b"text"  # the connection goes on
    await lines.aclose()


async def test_a_lost_connection_fails_its_commands_and_the_next_one_connects_again(
        stack: Stack, redis: Redis) -> None:
    lines = RedisLines(f"redis://127.0.0.1:{stack.redis_port}/0")
    mine = await lines.execute("CLIENT", "ID")
    waiting = asyncio.ensure_future(lines.execute("BLPOP", _key(), 5))
    await asyncio.sleep(0)  # the task's first step: its command is queued on the connection
    assert await redis.client_kill_filter(_id=mine) == 1
    with pytest.raises(RedisConnectionError):
        await waiting
    assert await lines.execute("CLIENT", "ID") != mine  # a new connection
    await lines.aclose()


async def test_a_late_reply_is_a_timeout_and_the_next_command_connects_again(
        stack: Stack) -> None:
    lines = RedisLines(f"redis://127.0.0.1:{stack.redis_port}/0", timeout_s=0.3)
    mine = await lines.execute("CLIENT", "ID")
    with pytest.raises(RedisTimeoutError, match="did not answer"):
        await lines.execute("BLPOP", _key(), 3)
    assert await lines.execute("CLIENT", "ID") != mine
    await lines.aclose()


async def test_no_redis_is_a_connection_error_in_bounded_time() -> None:
    lines = RedisLines("redis://127.0.0.1:1/0", connect_timeout_s=1)
    with pytest.raises(RedisConnectionError, match="cannot connect"):
        await lines.execute("PING")
    await lines.aclose()


async def test_the_urls_database_is_selected(stack: Stack) -> None:
    key = _key()
    lines = RedisLines(f"redis://127.0.0.1:{stack.redis_port}/3")
    await lines.execute("SET", key, "in three")
    other = Redis(port=stack.redis_port, db=3)
    assert await other.get(key) == b"in three"
    assert await Redis(port=stack.redis_port, db=0).get(key) is None
    await other.aclose()
    await lines.aclose()


def test_an_address_is_read_from_the_url() -> None:
    assert Address.of("redis://:s%40cret@example:6380/2") == Address("example", 6380, 2, "s@cret")
    assert Address.of("redis://localhost") == Address("localhost", 6379)
    with pytest.raises(ValueError, match="redis://"):
        Address.of("rediss://example")
