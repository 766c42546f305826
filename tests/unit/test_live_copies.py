"""The live copies' format (`services/common/live.py`): what the gateway writes, the processor
reads; anything else on the topic is not taken for a copy."""

from __future__ import annotations

import msgpack
import pytest

from services.common.live import read_copy


def test_a_copy_reads_back_as_table_offset_and_event() -> None:
    event = b"\x83\xa4type\xa4call"
    assert read_copy(b"t1", msgpack.packb([7, event])) == ("t1", 7, event)


@pytest.mark.parametrize(("key", "value"), [
    (None, msgpack.packb([7, b"x"])),  # no table
    (b"t1", None),
    (b"t1", b"\xc1"),  # not msgpack
    (b"t1", msgpack.packb([7])),  # no event
    (b"t1", msgpack.packb(["7", b"x"])),  # the offset is not a number
    (b"t1", msgpack.packb([7, "x"])),  # the event is not bytes
    (b"\xff", msgpack.packb([7, b"x"])),  # a key that is not text
])
def test_anything_else_is_not_a_copy(key: bytes | None, value: bytes | None) -> None:
    assert read_copy(key, value) is None
