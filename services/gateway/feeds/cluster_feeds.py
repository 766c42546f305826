"""The feeds' readers on a Redis Cluster: one blocking `XREAD` a hash slot.

On a cluster a command may only name keys of one slot. Tables' keys fall in a few slots, a
bucket's each (`names.tag`), so the hub (`fanout.FeedHub`) reads each slot its sockets follow
with a connection of its own to the primary serving it: the slot's streams, and a wake-up
stream in the same slot (`subscribe` appends to it when it adds a stream there). A reader
starts with its slot's first stream and ends once its slot has none. Each stream's last entry
read is the hub's, so a reader that starts over loses nothing.

The map of slots is redis-py's (`RedisCluster`): a reader whose primary answers `MOVED` or
`ASK` (the slot moved) or cannot be reached (a replica may be promoted in its place) reads
the map again, after a backoff for the latter, and goes on with the primary it names.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from typing import TYPE_CHECKING

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot
from redis.exceptions import AskError, RedisError

from services.common.backoff import Backoff

if TYPE_CHECKING:
    from services.gateway.feeds.fanout import FeedHub

log = logging.getLogger("tableserver.fanout")
TAG = re.compile(r"\{([^{}]+)\}")


class ClusterReaders:
    """The hub's readers on `cluster`, one a slot followed."""

    def __init__(self, hub: FeedHub, cluster: RedisCluster) -> None:
        self.hub, self.cluster = hub, cluster
        self.slots: dict[str, int] = {}  # a stream → its slot
        self.keys: dict[int, set[str]] = {}  # a slot → the streams followed in it
        self.readers: dict[int, asyncio.Task[None]] = {}
        self.wakes: dict[int, str] = {}  # a slot → the wake-up stream read with it
        self.failed: asyncio.Future[None] | None = None  # a reader's unexpected error

    def slot_of(self, key: str) -> int:
        slot = self.slots.get(key)
        if slot is None:
            slot = self.slots[key] = key_slot(key.encode())
        return slot

    def follow(self, key: str) -> str | None:
        """A reader for `key`'s slot, started if there is none; its wake-up stream, to wake
        it when it has one already (else None)."""
        slot = self.slot_of(key)
        self.keys.setdefault(slot, set()).add(key)
        reader = self.readers.get(slot)
        if reader is not None and not reader.done():
            return self.wakes[slot]
        found = TAG.search(key)
        if found is None:
            raise ValueError(f"{key}: a stream followed on a cluster carries a hash tag")
        self.wakes[slot] = f"{self.hub.wake_key}:{{{found.group(1)}}}"
        self.readers[slot] = asyncio.create_task(self._follow(slot), name=f"feeds {slot}")
        return None

    async def run(self) -> None:
        """Until a reader dies of an error it does not expect (a bug): raised here, so that
        the hub's task dies of it, as the one reader's would (the process's supervision)."""
        try:
            await self._failed()
        finally:
            await self.stop()

    def _failed(self) -> asyncio.Future[None]:
        if self.failed is None:
            self.failed = asyncio.get_running_loop().create_future()
        return self.failed

    async def stop(self) -> None:
        for reader in self.readers.values():
            reader.cancel()
        await asyncio.gather(*self.readers.values(), return_exceptions=True)

    def streams_of(self, slot: int) -> dict[str, str]:
        """The streams the hub follows in `slot`, each with its last entry read."""
        keys, streams = self.keys.get(slot, set()), self.hub.streams
        for key in [k for k in keys if k not in streams]:
            keys.discard(key)  # no socket follows it any more
            self.slots.pop(key, None)
        return {k: streams[k].last for k in keys}

    async def _follow(self, slot: int) -> None:
        try:
            await self._read(slot)
        except Exception as exc:  # a bug: `run` raises it
            if not self._failed().done():
                self._failed().set_exception(exc)

    async def _read(self, slot: int) -> None:
        """One slot's reader, while the hub follows a stream of it."""
        backoff = Backoff.doubling(0.1, 2.0)
        client: Redis | None = None
        try:
            while True:
                if not self.streams_of(slot):  # ended at once: `follow` starts another
                    del self.readers[slot]
                    return
                try:
                    if client is None:
                        client = await self._connect(self.wakes[slot])
                    await self.hub.read(client, self.wakes[slot], self.streams_of(slot))
                    backoff.reset()
                    continue
                except AskError:  # MovedError is one too: the slot has moved
                    pass
                except (RedisError, OSError) as exc:
                    if backoff.fresh:
                        log.warning("the feeds' reader of slot %d lost Redis: %r", slot, exc)
                    await backoff.wait()
                if client is not None:
                    await client.aclose()
                    client = None
                with contextlib.suppress(RedisError, OSError):  # else the same primary again
                    await self.cluster.nodes_manager.initialize()
        finally:
            if client is not None:
                await client.aclose()

    async def _connect(self, key: str) -> Redis:
        """A connection of its own to the primary that serves `key`'s slot."""
        await self.cluster.initialize()  # the map, read at the client's first use
        node = self.cluster.get_node_from_key(key)
        if node is None:
            raise RedisError(f"no primary serves the slot of {key} (CLUSTERDOWN)")
        return Redis(host=node.host, port=int(node.port), client_name="tableserver-gateway-feeds",
                     socket_timeout=self.hub.block_ms / 1000 + 25)
