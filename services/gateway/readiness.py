"""Whether the gateway can append, for `/readyz` and `/healthz`.

A broker that answers is not a cluster that takes writes. With two brokers of three down, the
one left answered every connection while each append waited for replicas that were gone (every
append is `acks=all`, and a topic needs `min.insync.replicas` of them), so every call got its
503 after the produce timeout, for as long as it lasted, while `/readyz` said 200. The cluster's
metadata did not say so either: without a quorum of controllers, nobody could shrink the
partitions' in-sync replicas. So readiness is the outcome of appends themselves:

- every append the gateway makes tells `Appends` whether Kafka acknowledged it (`record`);
- when the last one was acknowledged less than `FRESH_S` ago, the gateway can append, and
  nothing is asked;
- otherwise (the last one failed, or nothing was appended lately), a probe appends a small
  record to the health topic, `acks=all` as every append, and it is waited for at most
  `PROBE_WAIT_S` (it raises `LogUnavailable` for Kafka's errors, as every append). One probe
  at a time: while one is unanswered (up to `PROBE_TIMEOUT_S`) no other is sent, so that a
  cluster that takes nothing does not fill the producer's queue with
  probes; its answer, when it comes, counts as any append's (a failure only if no append had
  a newer outcome meanwhile).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from services.common.errors import LogUnavailable

FRESH_S = 5.0  # an acknowledgement this recent says the gateway can append
PROBE_WAIT_S = 2.0  # a probe is waited for this long before the answer is "no"
PROBE_TIMEOUT_S = 10.0  # a probe unanswered this long is given up (then another may go)


class Appends:
    def __init__(self, probe: Callable[[], Awaitable[object]],
                 clock: Callable[[], float] = time.monotonic, fresh_s: float = FRESH_S,
                 wait_s: float = PROBE_WAIT_S, timeout_s: float = PROBE_TIMEOUT_S) -> None:
        self.probe, self.clock = probe, clock
        self.fresh_s, self.wait_s, self.timeout_s = fresh_s, wait_s, timeout_s
        self.last: tuple[bool, float] | None = None  # (acknowledged, when) of the last append
        self.probing: asyncio.Task[bool] | None = None

    def record(self, acknowledged: bool) -> None:
        """An append's outcome: acknowledged by Kafka, or not (an error, or no answer in
        time)."""
        self.last = (acknowledged, self.clock())

    async def writable(self) -> bool:
        """Whether Kafka takes the gateway's appends now."""
        if self.last is not None and self.last[0] and self.clock() - self.last[1] <= \
                self.fresh_s:
            return True
        if self.probing is None or self.probing.done():
            self.probing = asyncio.create_task(self._probe(), name="append-probe")
        try:
            return await asyncio.wait_for(asyncio.shield(self.probing), self.wait_s)
        except TimeoutError:
            return False

    async def _probe(self) -> bool:
        started = self.clock()
        try:
            await asyncio.wait_for(self.probe(), self.timeout_s)
        except (LogUnavailable, OSError, TimeoutError):  # Kafka's, as its adapters raise it
            if self.last is None or self.last[1] <= started:
                self.record(False)
            return False
        self.record(True)
        return True

    async def stop(self) -> None:
        if self.probing is not None and not self.probing.done():
            self.probing.cancel()
            await asyncio.gather(self.probing, return_exceptions=True)
