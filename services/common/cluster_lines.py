"""`RedisLines` for a Redis Cluster: one pipelined connection per primary, each command sent
to the primary that serves its key's hash slot.

The hot paths (a worker's state writes, a seat's rate limit and state read) keep their one
pipelined connection a Redis (`services.common.redis_lines`); on a cluster a process holds one
to each primary. A command's key is its first (`EVALSHA`/`EVAL`: the first of its keys); a
batch is split by primary, sent to each at once, and its replies put back in order. Which
primary serves which slot is read with `CLUSTER SLOTS` at the first command and again when a
primary answers `MOVED` or `ASK` (a slot moved, a replica promoted): the commands so answered
are sent once more, to the primary the new map names. A primary that cannot be reached fails
its commands (the callers' errors, as on one Redis) and has the map read again. A table's
keys share a slot (`names.tag`), so a script that touches them runs on one primary.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from redis.crc import key_slot
from redis.exceptions import (
    AskError,
    ConnectionError as RedisConnectionError,
    RedisError,
    TimeoutError as RedisTimeoutError,
)

from services.common.redis_lines import Address, Arg, Commands, RedisLines

SLOTS = 16384
REMAP_EVERY_S = 1.0  # an unreachable primary's map read again at most this often
_SCRIPTS = (b"EVALSHA", b"EVAL")


def key_of(command: Sequence[Arg]) -> bytes | None:
    """The key a command is routed by; None for one without a key."""
    name = _bytes(command[0]).upper()
    if name in _SCRIPTS:
        return _bytes(command[3]) if len(command) > 3 and int(command[2]) > 0 else None
    return _bytes(command[1]) if len(command) > 1 else None


def _bytes(arg: Arg) -> bytes:
    return arg if isinstance(arg, bytes) else str(arg).encode()


class ClusterLines(Commands):
    """Commands to a Redis Cluster, each on its primary's pipelined connection; the same calls
    as `RedisLines`. `url` names any node of the cluster (`redis://host:port`)."""

    def __init__(self, url: str, timeout_s: float = 5.0, connect_timeout_s: float = 2.0) -> None:
        self.seed = Address.of(url)
        self.timeout_s, self.connect_timeout_s = timeout_s, connect_timeout_s
        self.lines: dict[tuple[str, int], RedisLines] = {}
        self.owner: list[tuple[str, int]] = []  # slot → its primary's (host, port)
        self.mapping: asyncio.Future[None] | None = None  # a `CLUSTER SLOTS` under way
        self.mapped_at = float("-inf")  # when the map was last asked for after a failure

    async def execute(self, *args: Arg) -> Any:
        """One command's reply."""
        return (await self.execute_many([args]))[0]

    async def execute_many(self, commands: Sequence[Sequence[Arg]]) -> list[Any]:
        """Several commands, each on its primary; their replies, in order (the first error
        reply raised once all have come)."""
        if not commands:
            return []
        if not self.owner:
            await self._map()
        results: list[Any] = [None] * len(commands)
        pending = list(range(len(commands)))
        for attempt in (1, 2):
            moved = await self._send(commands, pending, results)
            if not moved or attempt == 2:
                break
            await self._map(again=True)
            pending = moved
        for result in results:
            if isinstance(result, BaseException):
                if isinstance(result, RedisConnectionError | RedisTimeoutError):
                    self._unreachable()
                raise result
        return results

    def _unreachable(self) -> None:
        """A primary did not answer: the map is read again in the background (at most once
        a second), so that a replica promoted in its place is found; the caller hears the
        error and may try again."""
        now = asyncio.get_running_loop().time()
        if now - self.mapped_at < REMAP_EVERY_S:
            return
        self.mapped_at = now
        task = asyncio.ensure_future(self._map(again=True))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # tried again later

    async def _send(self, commands: Sequence[Sequence[Arg]], which: list[int],
                    results: list[Any]) -> list[int]:
        """`commands[i]` for each i of `which`, by primary, their replies into `results`;
        returns those a primary redirected (`MOVED`, `ASK`)."""
        groups: dict[tuple[str, int], list[int]] = {}
        for i in which:
            key = key_of(commands[i])
            node = self.owner[key_slot(key)] if key is not None else self.owner[0]
            groups.setdefault(node, []).append(i)
        replies = await asyncio.gather(*(
            self._line(node).execute_each([commands[i] for i in group])
            for node, group in groups.items()))
        moved = []
        for group, answers in zip(groups.values(), replies, strict=True):
            for i, answer in zip(group, answers, strict=True):
                results[i] = answer
                if isinstance(answer, AskError):  # MovedError is one too
                    moved.append(i)
        return moved

    def _line(self, node: tuple[str, int]) -> RedisLines:
        line = self.lines.get(node)
        if line is None:  # the seed's credentials; a cluster has no database but 0
            address = replace(self.seed, host=node[0], port=node[1], db=0)
            line = self.lines[node] = RedisLines(address, self.timeout_s,
                                                 self.connect_timeout_s)
        return line

    async def _map(self, again: bool = False) -> None:
        """Which primary serves each slot, from `CLUSTER SLOTS` (one asker at a time: the
        others wait for its answer)."""
        if self.mapping is not None and not self.mapping.done():
            await asyncio.shield(self.mapping)
            return
        if self.owner and not again:
            return
        self.mapping = asyncio.ensure_future(self._read_map())
        await asyncio.shield(self.mapping)

    async def _read_map(self) -> None:
        asked = [*self.lines, (self.seed.host, self.seed.port)]
        last: Exception = RedisConnectionError("no node of the cluster to ask")
        for node in dict.fromkeys(asked):
            try:
                ranges = await self._line(node).execute("CLUSTER", "SLOTS")
            except RedisError as exc:
                last = exc
                continue
            owner: list[tuple[str, int] | None] = [None] * SLOTS
            for start, end, primary, *_ in ranges:
                host = primary[0].decode() or node[0]
                for slot in range(int(start), int(end) + 1):
                    owner[slot] = (host, int(primary[1]))
            if any(o is None for o in owner):
                last = RedisError("the cluster does not serve every slot (CLUSTER SLOTS)")
                continue
            self.owner = [o for o in owner if o is not None]
            return
        raise last

    async def aclose(self) -> None:
        for line in self.lines.values():
            await line.aclose()
        self.lines.clear()
