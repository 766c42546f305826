"""The tables' feeds as the public sees them: each state `delay` after it was written.

A spectator sees a table as it was `TABLESERVER_SPECTATOR_DELAY` seconds ago (docs/api.md):
every call, card and result, not only the deal. A table feed's entries carry the time Redis
appended them (their ids: ms since the epoch), so the public's feed of a table is the table's
own feed read up to now − delay. One task a gateway process (`run`) polls, every `EVERY_S`,
the streams the public follows that may have an entry due, all in one pipeline (`XRANGE
stream (last now−delay`, and the first entry after it: when the next one is due; a stream
with none waiting is not read again for the delay, as what it is appended next is due no
sooner), and offers each entry found to that stream's sockets, rendered once per view
(`fanout.fan_out`).
Nothing waits in memory for the delay: the entries wait in Redis, which keeps a table's last
1,000 (`store.FEED_LENGTH`: hours of a table's play; an entry trimmed before its time is
passed over, and the next one shows the table as it then stood).

`shown` is the newest entry the public may see now: a spectator's `GET …/state`, and where a
socket starts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import cast

from services.common.backoff import Backoff
from services.common.errors import StoreUnavailable
from services.common.redis_connect import AnyRedis
from services.common.redis_faults import translating
from services.gateway.feeds.fanout import (
    CATCH_UP,
    Audience,
    BadSince,
    Entries,
    Fields,
    Render,
    Subscription,
    _order,
    _stream_id,
    fan_out,
)

log = logging.getLogger("tableserver.public_feeds")

EVERY_S = 0.5  # how often the streams the public follows are read: the delay's precision
BATCH = 100  # entries of a stream read at a poll
TOP_SEQ = 2**64 - 1  # the last sequence number of a millisecond, in a stream id


def wall_ms() -> int:
    """Now, in ms since the epoch (the time Redis stamps on a stream's entries)."""
    return int(time.time() * 1000)


def _ceiling(ms: int) -> str:
    """The id after every entry appended by `ms`."""
    return f"{ms}-{TOP_SEQ}"


@dataclass
class _Line:
    last: str  # the last entry offered (or the id after which the next one comes)
    subs: Audience = field(default_factory=Audience)
    due_ms: int = 0  # no entry after `last` is due before (ms since the epoch)


class PublicFeeds:
    """The `Feeds` of the public: `subscribe` a spectator's socket to a table's stream,
    `unsubscribe` it when it goes; `run` is the poller. `delay_ms` 0: the table as it is,
    within `every_s`."""

    def __init__(self, redis: AnyRedis, delay_ms: int, every_s: float = EVERY_S,
                 clock: Callable[[], int] = wall_ms) -> None:
        self.redis, self.delay_ms, self.every_s, self.clock = redis, delay_ms, every_s, clock
        self.lines: dict[str, _Line] = {}

    def cutoff(self, now_ms: int | None = None) -> int:
        """The newest time the public may see (ms since the epoch)."""
        return max(0, (self.clock() if now_ms is None else now_ms) - self.delay_ms)

    @translating
    async def shown(self, key: str, now_ms: int | None = None) -> tuple[str, Fields] | None:
        """The newest entry of stream `key` the public may see now: (its id, its fields), or
        None when the stream has none that old. Raises StoreUnavailable."""
        found = cast(Entries, await self.redis.xrevrange(key, max=str(self.cutoff(now_ms)),
                                                         count=1))
        return (found[0][0].decode(), found[0][1]) if found else None

    @translating
    async def subscribe(self, key: str, since: str | None, view: Hashable, render: Render
                        ) -> Subscription:
        """A spectator's socket following stream `key`: first the newest entry the public may
        see (`since` None), or those after `since` it may see (a stream id; `$`: none), then
        each entry as its time comes. Raises StoreUnavailable, BadSince."""
        if since not in (None, "$") and not _stream_id(str(since)):
            raise BadSince("since: a stream id (such as 1700000000000-0) or $")
        sub = Subscription(key, view, render)
        cutoff = self.cutoff()
        after: str | None = None if since in (None, "$") else since
        for _ in range(50):  # until the line has not gone past what was read
            if since is None and after is None:
                newest = await self.shown(key, cutoff + self.delay_ms)
                entries = [] if newest is None else [(newest[0].encode(), newest[1])]
            elif after is None:
                entries = []
            else:
                entries = cast(Entries, await self.redis.xrange(
                    key, min=f"({after}", max=str(cutoff), count=CATCH_UP))
            for raw_id, fields in entries:
                after = raw_id.decode()
                sub.offer(after, render(after, fields))
            line = self.lines.get(key)
            if line is None or after is None or _order(line.last) <= _order(after):
                break
        resume = after or _ceiling(cutoff)
        sub.floor = _order(resume)
        line = self.lines.get(key)
        if line is None:
            self.lines[key] = _Line(resume, Audience([sub]))
        else:
            line.subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        line = self.lines.get(sub.key)
        if line is not None:
            line.subs.discard(sub)
            if not line.subs:
                del self.lines[sub.key]

    @translating
    async def poll(self, now_ms: int | None = None) -> None:
        """One read of the streams the public follows that may have an entry due, up to now −
        delay; each entry found offered to its stream's sockets. Raises StoreUnavailable."""
        now = self.clock() if now_ms is None else now_ms
        keys = [key for key, line in self.lines.items() if line.due_ms <= now]
        if not keys:
            return
        cutoff = self.cutoff(now)
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.xrange(key, min=f"({self.lines[key].last}", max=str(cutoff), count=BATCH)
                pipe.xrange(key, min=str(cutoff + 1), count=1)  # the next one, not yet due
            replies = cast(list[Entries], await pipe.execute())
        for i, key in enumerate(keys):
            line = self.lines.get(key)
            if line is None:
                continue  # every socket left meanwhile
            entries, waiting = replies[2 * i], replies[2 * i + 1]
            line.due_ms = now if len(entries) == BATCH else \
                _order(waiting[0][0].decode())[0] + self.delay_ms if waiting else \
                now + self.delay_ms  # appended from now on: due no sooner
            try:
                for raw_id, fields in entries:
                    entry = raw_id.decode()
                    line.last = entry
                    fan_out(line.subs, entry, _order(entry), fields)
            except Exception:  # one entry it cannot render must not stop every feed
                log.exception("an entry of %s could not be sent; passed over", key)
                line.last = entries[-1][0].decode()

    async def run(self) -> None:
        """The poller, as long as the gateway runs; Redis away: tried again, backing off."""
        backoff = Backoff.doubling(0.1, 2.0)
        while True:
            try:
                await self.poll()
            except (StoreUnavailable, OSError) as exc:
                if backoff.fresh:
                    log.warning("the public's feeds lost Redis: %r", exc)
                await backoff.wait()
                continue
            backoff.reset()
            await asyncio.sleep(self.every_s)  # the poll's period
