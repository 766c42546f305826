"""Redis as the cache of table states and the feed of their changes.

A state is written with the Kafka offset it reflects as its version, by a Lua script that
never replaces a newer state by an older one; each accepted write is appended to the table's
feed (a Redis stream), so a client can resume from the last entry it saw. (Director alerts
are read from their Kafka topic, not kept here.)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, NamedTuple, Protocol, cast

import orjson
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import NoScriptError

from services.common import registry
from services.common.names import (
    CLOCKS,
    SUBSTITUTES,
    TOURNAMENTS_SET,
    feed_key,
    hand_records_key,
    once_key,
    pages_key,
    robot_key,
    shard_alive_keys,
    state_key,
    worker_key,
)
from services.common.redis_connect import AnyRedis, Lines
from services.common.redis_faults import translated
from shared.robot.seats import RobotPresence
from shared.table.board_view import BoardView
from shared.table.table_summary import StoredSummary

SEATS = ("N", "E", "S", "W")
FEED_LENGTH = 1000  # entries kept per table feed (about the last few boards)

# KEYS: the table's state hash and feed stream (one hash slot: `names.tag`). ARGV: version,
# board JSON, feed length[, the table's overview line JSON].
_WRITE_STATE = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if tonumber(ARGV[1]) <= current then return 0 end
if #ARGV == 4 then
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'board', ARGV[2], 'line', ARGV[4])
else
  redis.call('HSET', KEYS[1], 'version', ARGV[1], 'board', ARGV[2])
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 'version', ARGV[1], 'board', ARGV[2])
return 1
"""

_WRITE_STATE_SHA = hashlib.sha1(_WRITE_STATE.encode()).hexdigest()


class StateWrite(NamedTuple):
    """A table's state at a version; a tournament's table also has its line in the
    tournament's overview, kept in the table's state hash (one slot: `names.tag`)."""

    table: str
    version: int
    board: BoardView
    line: StoredSummary | None = None


States = list[StateWrite]


def board_of(raw: bytes | str) -> BoardView:
    """A board's state as Redis keeps it (its state hash, its feed), back as the type the
    processor wrote it from (`TableRun.view`, `Board.to_dict()`): parsed once at this
    boundary, not validated on each read (a card's check reads it; the schema's tests,
    tests/unit/test_board_state_model.py, validate the states the core makes)."""
    return cast(BoardView, orjson.loads(raw))  # 3× json's speed


def line_of(raw: bytes | str) -> StoredSummary:
    """A table's overview line as Redis keeps it, back as the type the processor wrote it
    from (`TableRun.overview_line`), parsed, not validated (as `board_of`)."""
    return cast(StoredSummary, orjson.loads(raw))


def hash_items(reply: Any) -> Iterable[tuple[Any, Any]]:
    """A hash's fields and values from `HGETALL`'s reply: a dict from redis-py, a flat list
    (field, value, field, value, …) on the pipelined lines."""
    if isinstance(reply, dict):
        return reply.items()
    return zip(reply[::2], reply[1::2], strict=True)


def _json(value: Any) -> bytes:
    """A value as Redis keeps it: compact JSON, UTF-8 (orjson: a board's state in a ninth of
    the stdlib's instructions, `bench/instructions_bench.py`), keys that are not strings as
    strings, as `json.dumps` wrote them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _write_command(w: StateWrite) -> tuple[str | int | bytes, ...]:
    """The script's call that writes one state (its overview line too, in a tournament)."""
    command: tuple[str | int | bytes, ...] = ("EVALSHA", _WRITE_STATE_SHA, 2, state_key(w.table),
                                      feed_key(w.table), w.version, _json(w.board), FEED_LENGTH)
    return command if w.line is None else (*command, _json(w.line))


class StateStore(Protocol):
    """Where tables' states and records are kept for the gateway, and the processor's
    marks: Redis (`RedisStore`), or memory in tests (`tests.fakes.MemoryStore`); one contract test,
    tests/integration/test_store_contract.py, holds both to the same behaviour."""

    async def write_batch(self, states: States) -> None:
        """Each state unless a newer version of its table is there (appended to the table's
        feed when written; its overview line written with it)."""

    async def read_state(self, table: str) -> tuple[int, BoardView] | None: ...

    async def overview(self, tables: list[str]) -> dict[str, StoredSummary]:
        """The overview lines of those of `tables` that have one: table → line."""

    async def feed_versions(self, table: str) -> list[int]:
        """The versions appended to the table's feed, oldest first."""

    async def remember_tables(self, records: dict[str, dict[str, Any]]) -> None:
        """The registry records of tables (table → record)."""

    async def table_record(self, table: str) -> dict[str, Any] | None: ...

    async def table_records(self) -> dict[str, dict[str, Any]]:
        """Every table's record (table → record): the director's list of tables."""

    async def remember_tournament(self, tournament: str, record: dict[str, Any]) -> None:
        """A closed tournament's record (`closed`, then `archive`: gateway/tournament_close)."""

    async def tournament_record(self, tournament: str) -> dict[str, Any] | None:
        """A closed tournament's record; None for one not closed."""

    async def tournament_records(self) -> dict[str, dict[str, Any]]:
        """Every closed tournament's record (tournament → record)."""

    async def set_clock(self, tournament: str, ends_at: int) -> None:
        """The tournament's round ends at `ends_at` (ms): set, or moved."""

    async def drop_clock(self, tournament: str) -> bool:
        """The tournament's clock stopped; whether this call stopped it (of several gateways
        taking the same due clock, exactly one is told True)."""

    async def clocks_due(self, now: int) -> list[str]:
        """The tournaments whose round's end has come by `now` (ms), soonest first."""

    async def take_clock(self, tournament: str, now: int) -> bool:
        """The tournament's clock stopped if its end has come by `now`: whether this call
        stopped it (of several gateways, one; and none once the clock was set again, to the
        next round's end)."""

    async def clock_of(self, tournament: str) -> int | None:
        """When the tournament's round ends (ms); None when its clock is not running."""

    async def remember_hand_records(self, tournament: str, records: dict[int, dict[str, Any]]
                                    ) -> None:
        """Boards' hand records of a tournament (board → record), beside those it has."""

    async def hand_records(self, tournament: str) -> dict[int, dict[str, Any]]:
        """The tournament's hand records kept (board → record)."""

    async def robots_present(self, tables: list[str]) -> dict[str, dict[str, RobotPresence]]:
        """The robots the Table Manager host knows at these tables' seats: table → seat →
        `{"label", "connected", "since"}` (`services/robots/presence.py` writes them)."""
    async def mark_pages(self, gateway: str, pages: list[tuple[str, str]], now: int) -> None:
        """This gateway has an open page at each (table, seat) at `now` (ms)."""

    async def unmark_page(self, gateway: str, table: str, seat: str) -> None:
        """This gateway's last page at the table's seat closed."""

    async def pages_open(self, tables: list[str]) -> dict[str, dict[str, list[int]]]:
        """Each table's seats with a page marked open: seat → each gateway's last mark (ms)."""

    async def set_substitutes(self, tournament: str, after_s: int | None) -> None:
        """The Director's time before a substitute sits in (None: never)."""

    async def substitutes_after(self) -> dict[str, int]:
        """Each tournament with substitutes: its time (s)."""

    async def take_once(self, name: str, ttl_ms: int) -> bool:
        """Whether this call is the first to take `name` within `ttl_ms` (of several
        gateways, exactly one is told True)."""

    async def records_of(self, tables: list[str]) -> dict[str, dict[str, Any]]:
        """The records of `tables` the store has (table → record), in one read."""

    async def mark_alive(self, shard: int) -> None:
        """The shard's runner has written its tables here (`is_alive` false: data lost)."""

    async def is_alive(self, shard: int) -> bool: ...

    async def announce_worker(self, worker: str, shards: list[int], ttl_s: int) -> None:
        """The shards a worker runs, forgotten `ttl_s` after its last announcement."""

    async def ping(self) -> None:
        """Returns when the store answers; raises when it cannot be reached."""


PAGES_TTL_MS = 60_000  # a table's open pages forgotten when no gateway marks them this long

_TAKE_CLOCK = """
local ends = redis.call('ZSCORE', KEYS[1], ARGV[1])
if ends and tonumber(ends) <= tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""  # a due clock removed in one step: of the gateways that saw it due, one takes it


@translated  # Redis's errors leave as `StoreUnavailable`
class RedisStore:
    def __init__(self, redis: AnyRedis, lines: Lines | None = None) -> None:
        """`lines`, when given, carries the hot paths (the states' writes and reads) on one
        pipelined connection (`services.common.redis_lines`); redis-py does the rest."""
        self.redis = redis
        self.lines = lines

    async def write_batch(self, states: States) -> None:
        """Store each board as its table's state at that version, unless a newer one is there,
        in one round trip (a pipeline). The scripts are
        called by their digest: loaded once, and again only when Redis has forgotten them
        (a restart); redis-py's own script objects ask Redis whether it knows them at every
        pipeline, a second round trip."""
        commands = [_write_command(w) for w in states]
        for attempt in (1, 2):
            try:
                await self._pipelined(commands)
                return
            except NoScriptError:  # each write is idempotent: doing all again is safe
                if attempt == 2:
                    raise
            await self.redis.script_load(_WRITE_STATE)

    async def _pipelined(self, commands: list[tuple[str | int | bytes, ...]]) -> list[Any]:
        """The commands' replies, in one round trip: on the pipelined lines when there are,
        else redis-py's pipeline (split by primary on a cluster, either way); the first error
        raised."""
        if self.lines is not None:
            return await self.lines.execute_many(commands)
        async with self.redis.pipeline(transaction=False) as pipe:
            for command in commands:
                pipe.execute_command(*command)
            return await pipe.execute()

    async def read_state(self, table: str) -> tuple[int, BoardView] | None:
        raw = await (self.lines or self.redis).hmget(state_key(table), "version", "board")
        if raw[0] is None or raw[1] is None:
            return None
        return int(raw[0]), board_of(raw[1])

    async def overview(self, tables: list[str]) -> dict[str, StoredSummary]:
        """One round trip: a field of each table's hash (split by primary on a cluster), on
        the pipelined lines when there are (through redis-py's pipeline, the night bench's
        overview of 3,750 tables took p50 175 ms, against 87 ms from one hash before)."""
        raw = await self._pipelined([("HGET", state_key(table), "line") for table in tables])
        return {t: line_of(line) for t, line in zip(tables, raw, strict=True) if line}

    async def feed_versions(self, table: str) -> list[int]:
        return [int(fields[b"version"]) for _, fields in await self._entries(feed_key(table))]

    async def _entries(self, stream: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
        return cast(list[tuple[bytes, dict[bytes, bytes]]], await self.redis.xrange(stream))

    async def remember_tables(self, records: dict[str, dict[str, Any]]) -> None:
        await registry.remember(self.redis, records)

    async def table_record(self, table: str) -> dict[str, Any] | None:
        return await registry.record_of(self.redis, table)

    async def table_records(self) -> dict[str, dict[str, Any]]:
        return await registry.all_records(self.redis)

    async def remember_tournament(self, tournament: str, record: dict[str, Any]) -> None:
        await self.redis.hset(TOURNAMENTS_SET, tournament, _json(record))

    async def tournament_record(self, tournament: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(TOURNAMENTS_SET, tournament)
        return None if raw is None else dict(json.loads(raw))

    async def tournament_records(self) -> dict[str, dict[str, Any]]:
        found = cast(dict[bytes, bytes], await self.redis.hgetall(TOURNAMENTS_SET))
        return {t.decode(): dict(json.loads(raw)) for t, raw in found.items()}

    async def set_clock(self, tournament: str, ends_at: int) -> None:
        await self.redis.zadd(CLOCKS, {tournament: ends_at})

    async def drop_clock(self, tournament: str) -> bool:
        return bool(await self.redis.zrem(CLOCKS, tournament))

    async def clocks_due(self, now: int) -> list[str]:
        due = cast(list[bytes], await self.redis.zrangebyscore(CLOCKS, "-inf", now))
        return [t.decode() for t in due]

    async def take_clock(self, tournament: str, now: int) -> bool:
        return bool(await self.redis.eval(_TAKE_CLOCK, 1, CLOCKS, tournament, now))

    async def clock_of(self, tournament: str) -> int | None:
        score = await self.redis.zscore(CLOCKS, tournament)
        return None if score is None else int(score)

    async def remember_hand_records(self, tournament: str, records: dict[int, dict[str, Any]]
                                    ) -> None:
        if records:
            await self.redis.hset(hand_records_key(tournament), mapping={
                str(board): _json(record) for board, record in records.items()})

    async def hand_records(self, tournament: str) -> dict[int, dict[str, Any]]:
        found = cast(dict[bytes, bytes], await self.redis.hgetall(hand_records_key(tournament)))
        return {int(board): dict(json.loads(raw)) for board, raw in found.items()}

    async def robots_present(self, tables: list[str]) -> dict[str, dict[str, RobotPresence]]:
        keys = [(t, s) for t in tables for s in SEATS]
        if not keys:
            return {}
        names = [robot_key(t, s) for t, s in keys]  # a table's in one slot, not all tables'
        if isinstance(self.redis, RedisCluster):
            raw = await self.redis.mget_nonatomic(names)
        elif self.lines is not None:  # a tournament's overview asks 8,000 keys: redis-py's
            raw = await self.lines.execute("MGET", *names)  # packing and parsing of them
        else:  # was half the overview's time on the gateway's loop (py-spy, the night)
            raw = await self.redis.mget(names)
        found: dict[str, dict[str, RobotPresence]] = {}
        for (table, seat), value in zip(keys, raw, strict=True):
            if value is not None:  # as the host wrote it (`services.robots.presence`)
                found.setdefault(table, {})[seat] = cast(RobotPresence, json.loads(value))
        return found
    async def mark_pages(self, gateway: str, pages: list[tuple[str, str]], now: int) -> None:
        commands: list[tuple[str | int | bytes, ...]] = []
        for table, seat in pages:
            commands += [("HSET", pages_key(table), f"{seat}|{gateway}", now),
                         ("PEXPIRE", pages_key(table), PAGES_TTL_MS)]
        if commands:
            await self._pipelined(commands)

    async def unmark_page(self, gateway: str, table: str, seat: str) -> None:
        await self.redis.hdel(pages_key(table), f"{seat}|{gateway}")

    async def pages_open(self, tables: list[str]) -> dict[str, dict[str, list[int]]]:
        if not tables:
            return {}
        raw = await self._pipelined([("HGETALL", pages_key(t)) for t in tables])
        found: dict[str, dict[str, list[int]]] = {}
        for table, fields in zip(tables, raw, strict=True):
            for name, ts in hash_items(fields):
                seat = (name.decode() if isinstance(name, bytes) else str(name)).split("|")[0]
                found.setdefault(table, {}).setdefault(seat, []).append(int(ts))
        return found

    async def set_substitutes(self, tournament: str, after_s: int | None) -> None:
        if after_s is None:
            await self.redis.hdel(SUBSTITUTES, tournament)
        else:
            await self.redis.hset(SUBSTITUTES, tournament, after_s)

    async def substitutes_after(self) -> dict[str, int]:
        """On the pipelined lines when there are, as `take_once`: the substitutes' look and
        steps wait for no connection of the pool (a round's start filled all 64 of them, and
        held a look 1.6–2.9 s and a step 1.1–1.4 s: substitutes seated 2–5 s late)."""
        if self.lines is not None:
            found = await self.lines.execute("HGETALL", SUBSTITUTES)
        else:
            found = await self.redis.hgetall(SUBSTITUTES)
        return {t.decode(): int(after) for t, after in hash_items(found)}

    async def take_once(self, name: str, ttl_ms: int) -> bool:
        if self.lines is not None:
            return await self.lines.execute("SET", once_key(name), "1", "NX", "PX",
                                            ttl_ms) is not None
        return bool(await self.redis.set(once_key(name), "1", nx=True, px=ttl_ms))

    async def records_of(self, tables: list[str]) -> dict[str, dict[str, Any]]:
        return await registry.records_of(self.redis, tables)

    async def mark_alive(self, shard: int) -> None:
        await self._pipelined([("SET", mark, "1") for mark in shard_alive_keys(shard)])

    async def is_alive(self, shard: int) -> bool:
        marks = shard_alive_keys(shard)  # on a cluster, counted slot by slot
        return int(await self.redis.exists(*marks)) == len(marks)

    async def announce_worker(self, worker: str, shards: list[int], ttl_s: int) -> None:
        await self.redis.set(worker_key(worker), json.dumps(sorted(shards)), ex=ttl_s)

    async def ping(self) -> None:
        await self.redis.ping()
