"""Readiness as the outcome of appends (operations.md; `services.gateway.readiness`), with a
fake clock and a fake probe. On the real cluster: tests/integration/test_cluster.py."""

from __future__ import annotations

import asyncio

from aiokafka.errors import KafkaTimeoutError, NotEnoughReplicasError

from services.common.kafka_faults import log_faults
from services.gateway.readiness import Appends


class Probe:
    """The probe append: acknowledged, refused, or never answered, as a test says (Kafka's
    errors raised as ours, as `Gateway.probe_append` raises them through `produce.append`)."""

    def __init__(self) -> None:
        self.sent = 0
        self.answer: BaseException | None = None  # None: acknowledged
        self.hang = asyncio.Event()  # set: answered
        self.hang.set()

    async def __call__(self) -> None:
        self.sent += 1
        await self.hang.wait()
        if self.answer is not None:
            with log_faults():
                raise self.answer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def appends() -> tuple[Appends, Probe, Clock]:
    probe, clock = Probe(), Clock()
    return Appends(probe, clock=clock, fresh_s=5.0, wait_s=0.05, timeout_s=10.0), probe, clock


async def test_a_recent_acknowledgement_is_enough_and_nothing_is_asked() -> None:
    ready, probe, clock = appends()
    ready.record(True)
    clock.now += 4.9
    assert await ready.writable()
    assert probe.sent == 0


async def test_the_last_append_failed_a_probe_decides() -> None:
    ready, probe, _ = appends()
    ready.record(True)
    ready.record(False)  # e.g. two brokers of three down: no acknowledgement in time
    probe.answer = NotEnoughReplicasError()
    assert not await ready.writable()
    assert probe.sent == 1
    probe.answer = None  # the cluster takes appends again
    assert await ready.writable()
    assert probe.sent == 2
    assert await ready.writable()  # the probe's acknowledgement is fresh: nothing asked
    assert probe.sent == 2


async def test_nothing_appended_lately_a_probe_decides() -> None:
    ready, probe, clock = appends()
    assert await ready.writable()  # nothing ever appended: asked
    assert probe.sent == 1
    clock.now += 5.1
    probe.answer = KafkaTimeoutError()
    assert not await ready.writable()
    assert probe.sent == 2


async def test_a_probe_unanswered_is_a_no_and_no_other_is_sent_meanwhile() -> None:
    """The cluster takes nothing and says nothing (acks=all, the replicas gone): the answer
    is "no" after the wait, and the probe in flight is the only one until it is answered."""
    ready, probe, _ = appends()
    ready.record(False)
    probe.hang.clear()
    assert not await ready.writable()
    assert not await ready.writable()
    assert probe.sent == 1
    probe.hang.set()  # acknowledged at last: counts as an append
    assert ready.probing is not None
    assert await ready.probing
    assert await ready.writable()
    assert probe.sent == 1
    await ready.stop()


async def test_a_real_append_failing_after_a_probe_succeeded_asks_again() -> None:
    ready, probe, _ = appends()
    ready.record(False)
    assert await ready.writable()
    ready.record(False)
    probe.answer = NotEnoughReplicasError()
    assert not await ready.writable()
    assert probe.sent == 2


async def test_a_probe_failing_late_does_not_hide_a_newer_acknowledgement() -> None:
    """A probe sent while the cluster was away fails at last, after calls were acknowledged
    again: those say the gateway can append."""
    ready, probe, clock = appends()
    ready.record(False)
    probe.hang.clear()
    probe.answer = KafkaTimeoutError()
    assert not await ready.writable()
    clock.now += 1
    ready.record(True)
    probe.hang.set()
    assert ready.probing is not None
    assert not await ready.probing
    assert await ready.writable()
    assert probe.sent == 1
