"""What `bench/pipeline_bench.py` prints: percentiles, the second-by-second timeline of a
window, and the side-by-side table of its calls-only and whole-board windows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bench.whole_boards import CALL, CARD, CLAIM

Key = tuple[str, int]  # (table, offset)
LOAD_GENERATOR = "load generator"  # the bench's own process, among those it measures


class Measured(Protocol):
    """What the load generator recorded of the events it sent."""

    acked: list[tuple[float, float]]  # (when sent, how long to the 202)
    sent: dict[Key, float]  # when sent
    accepted: dict[Key, float]  # when its 202 was read
    kinds: dict[Key, str]  # CALL, CARD or CLAIM


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def report(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no samples"
    return (f"{name}: p50 {pct(values, 0.5):.1f} ms, p99 {pct(values, 0.99):.1f} ms "
            f"({len(values)} samples)")


def print_timeline(pipeline: Measured, in_redis: dict[tuple[str, int], float], start: float,
                   cpu: list[dict[str, float]]) -> None:
    """Second by second of the measured window (by when each call was sent): calls answered,
    p99 to the 202, to Redis, and from the 202 to Redis, and the CPU each process used: to
    see when a run goes bad."""
    acked: dict[int, list[float]] = {}
    for started, took in pipeline.acked:
        acked.setdefault(int(started - start), []).append(took)
    landed: dict[int, list[float]] = {}
    after_202: dict[int, list[float]] = {}
    for key, at in in_redis.items():
        second = int(pipeline.sent[key] - start)
        landed.setdefault(second, []).append(at - pipeline.sent[key])
        after_202.setdefault(second, []).append(max(0.0, at - pipeline.accepted[key]))
    print("  second  202s  p99 202  in Redis  p99 Redis  p99 202→Redis  CPU % ("
          + ", ".join(cpu[0]) + ")" if cpu else
          "  second  202s  p99 202  in Redis  p99 Redis  p99 202→Redis")
    for second in range(max(acked, default=-1) + 1):
        shares = " ".join(f"{100 * v:.0f}" for v in cpu[second].values()) \
            if second < len(cpu) else ""
        print(f"  {second:6d}  {len(acked.get(second, [])):4d}  "
              f"{pct(acked.get(second, [0.0]), 0.99):7.1f}  {len(landed.get(second, [])):8d}  "
              f"{pct(landed.get(second, [0.0]), 0.99):9.1f}  "
              f"{pct(after_202.get(second, [0.0]), 0.99):13.1f}  {shares}")


@dataclass
class Cpu:
    """Each process's CPU seconds over a part of a window, and the events accepted in it."""

    what: str
    seconds: dict[str, float]
    events: int

    def per_event(self) -> dict[str, float]:
        """Milliseconds of CPU per event, by process."""
        return {name: 1000 * s / max(self.events, 1) for name, s in self.seconds.items()}

    def services_ms(self) -> float:
        """Milliseconds of CPU per event over the services' processes (Kafka, Redis, the
        gateway, the workers), the load generator left out: the 1 ms target's measure."""
        return sum(ms for name, ms in self.per_event().items() if name != LOAD_GENERATOR)


def spent(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds by process between two readings (either may hold more keys)."""
    return {name: after[name] - seconds for name, seconds in before.items() if name in after}


@dataclass
class Window:
    """What one measured window gave, for the side-by-side table."""

    mode: str
    accepted: dict[str, int]  # kind → events accepted
    elapsed: float
    cpu: list[Cpu]  # the first half (the pipeline alone), the second (beside the probe)
    to_202: dict[str, list[float]]  # kind → latencies from the send to the 202
    to_redis: dict[str, list[float]]  # kind → latencies from the 202
    to_feed: dict[str, list[float]]
    bare_beside: list[float]


def by_kind(pipeline: Measured, latencies: dict[tuple[str, int], float]
            ) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for key, value in latencies.items():
        out.setdefault(pipeline.kinds[key], []).append(value)
    return out


def since_accepted(pipeline: Measured, seen: dict[tuple[str, int], float]
                   ) -> dict[tuple[str, int], float]:
    return {key: max(0.0, when - pipeline.accepted[key]) for key, when in seen.items()
            if key in pipeline.accepted}


def print_side_by_side(windows: list[Window]) -> None:
    """Calls only and whole boards, measured in the same run: events/s, CPU per event over
    every process, and the latency from the 202 to Redis and to the feed, kind by kind."""
    def p(values: list[float]) -> str:
        return f"{pct(values, 0.5):.1f} / {pct(values, 0.99):.1f}" if values else "–"

    print("side by side (p50 / p99 ms: the 202 from the send, Redis and the feed from the 202; "
          "CPU ms per event accepted):")
    for w in windows:
        events = sum(w.accepted.values())
        print(f"  {w.mode}: {events / w.elapsed:.0f} events/s "
              f"({', '.join(f'{n} {k}s' for k, n in w.accepted.items() if n)}); "
              f"bare round trip beside p99 {pct(w.bare_beside, 0.99):.1f} ms")
        for half in w.cpu:
            ms = half.per_event()
            print(f"    CPU per event, {half.what}: {half.services_ms():.2f} ms over the "
                  f"services, {sum(ms.values()):.2f} with the load generator ("
                  + ", ".join(f"{name} {v:.2f}" for name, v in ms.items()) + ")")
        for kind in (CALL, CARD, CLAIM):
            if w.accepted[kind]:
                print(f"    {kind}s: 202 {p(w.to_202.get(kind, []))}, → Redis "
                      f"{p(w.to_redis.get(kind, []))}, → feed "
                      f"{p(w.to_feed.get(kind, []))} ({len(w.to_feed.get(kind, []))} on "
                      "the feed)")
