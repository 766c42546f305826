"""Redis's keys for a cluster (`services/common/names.py`): a table's keys share one hash slot,
and the tables' buckets spread evenly over the slots."""

from __future__ import annotations

from collections import Counter

import pytest
from redis.crc import key_slot

from services.common.names import (
    REDIS_BUCKETS,
    REDIS_SLOTS,
    feed_key,
    robot_key,
    shard_alive_keys,
    state_key,
    tag,
)

pytestmark = pytest.mark.unit
TABLES = [f"t{i}" for i in range(20_000)]


def test_a_tables_state_feed_and_robots_share_one_slot_that_redis_computes() -> None:
    for table in ["b17", "final-1", "a_b", *TABLES[:200]]:
        slots = {key_slot(k.encode()) for k in (state_key(table), feed_key(table),
                                                robot_key(table, "N"), robot_key(table, "W"))}
        assert len(slots) == 1, table
        assert table in state_key(table) and table in feed_key(table)


def test_tables_fall_in_every_bucket_each_in_its_share_of_the_slots() -> None:
    """`redis-cli --cluster create` gives N primaries equal ranges of slots: four hold a
    quarter of the tables each (within 2 %)."""
    width = REDIS_SLOTS // REDIS_BUCKETS
    buckets = {key_slot(state_key(t).encode()) // width for t in TABLES}
    assert buckets == set(range(REDIS_BUCKETS))
    quarters = Counter(key_slot(state_key(t).encode()) * 4 // REDIS_SLOTS for t in TABLES)
    assert all(abs(n - len(TABLES) / 4) < len(TABLES) * 0.02 for n in quarters.values())
    assert len({tag(t) for t in TABLES}) == REDIS_BUCKETS


def test_a_shards_marks_lie_one_in_each_buckets_slot_and_name_the_keys_layout() -> None:
    """On a cluster, a primary that lost its data lost the marks of its buckets: every shard
    with tables there writes them again. A worker that finds no mark of this layout does the
    same: an upgrade from keys without tags rebuilds them."""
    width = REDIS_SLOTS // REDIS_BUCKETS
    marks = shard_alive_keys(3)
    assert sorted(key_slot(k.encode()) // width for k in marks) == list(range(REDIS_BUCKETS))
    assert all(k.endswith(":3:layout2") for k in marks)
    assert not set(marks) & set(shard_alive_keys(4))
