"""Rate limits shared by every gateway replica: a seat's events, a token's history reads.

A limit is a GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp) in a
Redis script: `rate` a second, bursts of up to `burst`, whichever replica the requests reach.
One round trip (on `RedisLines`, the pipelined connection: redis-py cost 17 % of the
gateway's CPU here), one key per limited thing, expiring when idle. The script reads Redis's own
clock, so replicas need not agree on the time. When Redis cannot be reached the limit is kept
per process (`LocalBucket`), so that play goes on: Kafka, not Redis, takes the calls.
"""

from __future__ import annotations

import hashlib

from redis.exceptions import NoScriptError, RedisError

from services.common.redis_connect import Lines

# KEYS: the limit's key. ARGV: interval between requests (µs), tolerance (µs).
# Returns 0 when allowed, else the µs until the next request would be.
_GCRA = """
local now = redis.call('TIME')
local t = tonumber(now[1]) * 1000000 + tonumber(now[2])
local interval, tolerance = tonumber(ARGV[1]), tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < t then tat = t end
if tat - t > tolerance then return tat - t - tolerance end
redis.call('SET', KEYS[1], tat + interval, 'PX', math.ceil((tolerance + interval) / 1000) + 1)
return 0
"""
_GCRA_SHA = hashlib.sha1(_GCRA.encode()).hexdigest()


class LocalBucket:
    """A token bucket per key in this process: `rate` a second, bursts of up to `rate`."""

    def __init__(self, rate: int) -> None:
        self.rate = rate
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str, now: float) -> bool:
        tokens, last = self.buckets.get(key, (float(self.rate), now))
        tokens = min(float(self.rate), tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        if len(self.buckets) > 100_000:  # a bound, not an eviction policy
            self.buckets.clear()
        self.buckets[key] = (tokens - 1, now)
        return True


class SharedLimit:
    """`rate` requests a second per key, bursts of `burst`, across replicas (Redis)."""

    def __init__(self, redis: Lines, prefix: str, rate: int, burst: int) -> None:
        self.redis, self.prefix = redis, prefix
        self.rate = rate
        self.interval = 1_000_000 // max(rate, 1)
        self.tolerance = self.interval * (max(burst, 1) - 1)
        self.fallback = LocalBucket(rate)

    async def allow(self, key: str, now: float) -> bool:
        """Whether one more request for `key` is within the limit (`now`: a monotonic time,
        for the per-process fallback)."""
        try:
            try:
                wait = await self.redis.evalsha(_GCRA_SHA, 1, self.prefix + key, self.interval,
                                                self.tolerance)
            except NoScriptError:
                wait = await self.redis.eval(_GCRA, 1, self.prefix + key, self.interval,
                                             self.tolerance)
        except RedisError:
            return self.fallback.allow(key, now)
        return int(wait) == 0
