"""Names shared by the gateway and the processor: Kafka topics and Redis keys.

- `tableserver.table.<table>`: one topic per table, one partition (one total order), kept until
  the director closes the table (then archived in `tableserver.archive`, and deleted); created
  with the table.
- `tableserver.tables`: the table registry, one record per table, compacted; its partitions
  are the processor's shards (a table's shard is `shard_of(table)`).
- `tableserver.alerts`: director alerts, each once, with a deterministic id.
- `tableserver.alerts.handled`: the director's marks on alerts he has dealt with (keyed by the
  alert's id, kept forever), written by the gateway's console route.
- `tableserver.checkpoints`: per table, the last offset whose alerts were committed (compacted,
  partitioned like the registry), written in the same Kafka transaction as the alerts.
- `tableserver.tournament.<tournament>`: a tournament's own events (its creation, its rounds,
  entrants, the Director's scores), one partition, kept until the director closes the
  tournament (then archived under the topic's name, and deleted).
- `tableserver.live`: a copy of each event the gateway appended, with its table and offset, in
  its shard's partition (kept an hour): a shard's runner reads one partition to learn what is
  new, instead of asking the broker about every table of the shard at every fetch. The table
  topics stay the record; a copy that is lost or late only sends the runner to the table topic.
- consumer group `tableserver-live` (no member): how far each shard's partition of the live
  topic has been folded, committed by its worker every second, for lag readers (KEDA's kafka
  scaler, `kafka-consumer-groups.sh`); nothing reads it back.
- `tableserver.robots`: the director's robots at each table (keyed by the table, compacted:
  its last request stands, `{"table", "seats", "ts"}`), written by the gateway; the robot pool
  (`services/robots/pool.py`) seats our robots from it, and every gateway reads it.
- `tableserver.archive`: the events of closed tables (`services.common.archive`), one record a
  table (or a few, for a long one), key = the table, one partition, kept forever (not
  compacted: every copy a record ever pointed at stays);
  a closed table's topic is deleted once its archive is read back and checked. A closed
  tournament's own topic is archived there too, under the topic's name
  (`services.gateway.tournaments.close`).
- `tableserver.health`: the gateways' probes of whether Kafka takes appends (`/readyz`), one
  partition, kept an hour; nothing reads it.
"""

from __future__ import annotations

import binascii
import functools
import itertools
import zlib

TABLE_PREFIX = "tableserver.table."
REGISTRY = "tableserver.tables"
ALERTS = "tableserver.alerts"
HANDLED = "tableserver.alerts.handled"
CHECKPOINTS = "tableserver.checkpoints"
LIVE = "tableserver.live"
LIVE_GROUP = "tableserver-live"  # the live topic's folded positions, for lag readers
HEALTH = "tableserver.health"
ROBOTS = "tableserver.robots"
ARCHIVE = "tableserver.archive"


def table_topic(table: str) -> str:
    return TABLE_PREFIX + table


def shard_of(table: str, shards: int) -> int:
    """The registry partition (the processor shard) that owns `table`: stable across runs."""
    return zlib.crc32(table.encode()) % shards


REDIS_BUCKETS = 64  # a Redis Cluster's slots that tables' keys fall in
REDIS_SLOTS = 16384


def tag(table: str) -> str:
    """A table's Redis hash tag, its bucket's: Redis Cluster puts every key carrying the same
    `{…}` in the same hash slot, so that one script may write a table's state and its feed,
    and one `XREAD` follow every feed of a bucket (`services.gateway.feeds.cluster_feeds`). A single
    Redis ignores it."""
    return _bucket_tag(zlib.crc32(table.encode()) % REDIS_BUCKETS)


@functools.cache
def _bucket_tag(bucket: int) -> str:
    """A tag whose slot lies in the bucket's share of the slots (Redis's CRC16 of the tag):
    a cluster whose primaries hold equal ranges of slots, as `redis-cli --cluster create`
    gives them, holds equal shares of the buckets."""
    width = REDIS_SLOTS // REDIS_BUCKETS
    for i in itertools.count():
        text = f"b{bucket}.{i}"
        if binascii.crc_hqx(text.encode(), 0) % REDIS_SLOTS // width == bucket:
            return "{" + text + "}"
    raise AssertionError("unreachable: itertools.count() never ends")


def state_key(table: str) -> str:
    """Redis hash: `board` (JSON of the current board's state), `version` (the last offset
    folded) and, for a tournament's table, `line` (its line in the tournament's overview,
    JSON): the overview is read from its tables' hashes."""
    return f"tableserver:state:{tag(table)}:{table}"


def feed_key(table: str) -> str:
    """Redis stream of a table's new states, for live feeds (resume by stream id)."""
    return f"tableserver:feed:{tag(table)}:{table}"


def tournament_topic(tournament: str) -> str:
    """A tournament's topic: its creation and its rounds, as the director gave them."""
    return f"tableserver.tournament.{tournament}"


TABLES_SET = "tableserver:tables"
TOURNAMENTS_SET = "tableserver:tournaments"  # a closed tournament → its record (JSON)
CLOCKS = "tableserver:clocks"  # a timed round's tournament → when its round ends (ms), sorted
SEAT_RATE = "tableserver:rate:seat:"  # + table/seat: a seat's events (the gateway's limit)
HISTORY_RATE = "tableserver:rate:history:"  # + holder: a token's history reads
WAKE = "tableserver:wake:"  # + a gateway process's id: wakes its feeds' reader


def hand_records_key(tournament: str) -> str:
    """Redis hash: a tournament's hand records, board → its deal's double-dummy table and
    par (JSON; `services.gateway.tournaments.hand_records`)."""
    return f"tableserver:hand-records:{tournament}"


def worker_key(worker: str) -> str:
    """Redis string: the shards a processor worker runs (expires when it stops announcing)."""
    return f"tableserver:worker:{worker}"


WORKER_KEYS = "tableserver:worker:*"


LAYOUT = 2  # the keys' layout: 2 since tables' keys carry their bucket's hash tag


def shard_alive_keys(shard: int) -> list[str]:
    """Redis strings set by a shard's runner once it has written its tables, one in each
    bucket's slot: when one is gone, Redis (on a cluster, the primary serving that bucket)
    lost its data, or holds an earlier layout's keys; either way the runner writes its
    tables' states again."""
    return [f"tableserver:shard-alive:{_bucket_tag(bucket)}:{shard}:layout{LAYOUT}"
            for bucket in range(REDIS_BUCKETS)]


SUBSTITUTES = "tableserver:substitutes"  # a tournament → its Director's time (s) before a robot
# sits in for a player with no open page at his turn (docs/operations.md, "Substitutes")


def pages_key(table: str) -> str:
    """Redis hash: the seats of a table with an open page, `<seat>|<gateway>` → when that
    gateway last marked it open (ms); a gateway removes its field when its last page there
    closes, and the hash expires when no gateway keeps it up."""
    return f"tableserver:pages:{tag(table)}:{table}"


def once_key(name: str) -> str:
    """Redis string: a step that exactly one gateway takes (`StateStore.take_once`)."""
    return f"tableserver:once:{name}"


def robot_key(table: str, seat: str) -> str:
    """Redis string: the robot at a table's seat, as the Table Manager host knows it (JSON
    `{"label", "connected", "since"}`); it expires unless the host keeps it up."""
    return f"tableserver:robot:{tag(table)}:{table}:{seat}"


def robot_lease_key(table: str, seat: str) -> str:
    """Redis string: which robot pool holds a table's seat (its holder's id), for a lease's
    time, renewed while it holds it (services/robots/leases.py)."""
    return f"tableserver:robot-lease:{tag(table)}:{table}:{seat}"
