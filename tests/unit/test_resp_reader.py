"""`RespReader`, the RESP parser of the pipelined Redis connection
(services/common/redis_lines.py): every kind of reply, whole or cut anywhere."""

from __future__ import annotations

from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError, ResponseError

from services.common.redis_lines import _NOTHING, RespReader, pack

pytestmark = pytest.mark.unit

REPLIES = (b"+OK\r\n:42\r\n:-7\r\n$5\r\nhe\r\nl\r\n$-1\r\n$0\r\n\r\n"
           b"*3\r\n$1\r\na\r\n*2\r\n:1\r\n$-1\r\n*0\r\n*-1\r\n-NOSCRIPT No matching script\r\n")
EXPECTED: list[Any] = [b"OK", 42, -7, b"he\r\nl", None, b"", [b"a", [1, None], []], None]


def read_all(reader: RespReader) -> list[Any]:
    found = []
    while (reply := reader.gets()) is not _NOTHING:
        found.append(reply)
    return found


def test_every_kind_of_reply_is_read() -> None:
    reader = RespReader()
    reader.feed(REPLIES)
    found = read_all(reader)
    assert found[:-1] == EXPECTED
    assert isinstance(found[-1], ResponseError) and str(found[-1]).startswith("NOSCRIPT")
    assert reader.buffer == bytearray()  # all consumed


@pytest.mark.parametrize("cut", range(1, len(REPLIES)))
def test_replies_cut_anywhere_are_read_once_whole(cut: int) -> None:
    reader = RespReader()
    reader.feed(REPLIES[:cut])
    first = read_all(reader)
    reader.feed(REPLIES[cut:])
    found = first + read_all(reader)
    assert found[:-1] == EXPECTED and len(found) == len(EXPECTED) + 1


def test_bytes_that_are_not_resp_are_a_connection_error() -> None:
    for wrong in (b"?what\r\n", b"$x\r\n", b":1.5\r\n"):
        reader = RespReader()
        reader.feed(wrong)
        with pytest.raises(RedisConnectionError):
            reader.gets()


def test_a_command_is_packed_as_an_array_of_bulk_strings() -> None:
    assert pack(("SET", b"k\r\n", 3, 1.5)) == \
        b"*4\r\n$3\r\nSET\r\n$3\r\nk\r\n\r\n$1\r\n3\r\n$3\r\n1.5\r\n"
