"""The figures of a pair of benches run in alternating slices: each side's median and
min–max, and each ratio's, the ratio taken slice by slice (each slice of ours against the
floor's slice beside it in the same round), not as a ratio of medians: the machine's load
of a round falls on both sides of its ratio alike."""

from __future__ import annotations

import statistics


def spread(values: list[float]) -> str:
    """`median M (min–max A–B)`, three decimals."""
    return (f"median {statistics.median(values):.3f} "
            f"(min–max {min(values):.3f}–{max(values):.3f})")


def ratios(numerator: list[float], denominator: list[float]) -> list[float]:
    """Slice by slice: round i's numerator over round i's denominator."""
    return [n / d for n, d in zip(numerator, denominator, strict=True)]


def pair_lines(rate: int, ms: dict[str, list[float]], ours: str = "ours") -> list[str]:
    """The lines printed for one operating point: each side's CPU ms per event, then ours
    over each other side, then the floors' between themselves."""
    lines = [f"{rate} events/s, CPU ms per event over the side's processes with Kafka and "
             "Redis:"]
    lines += [f"  {name:8} {spread(values)}" for name, values in ms.items()]
    others = [name for name in ms if name != ours]
    lines += [f"  {ours} / {name:8} {spread(ratios(ms[ours], ms[name]))}" for name in others]
    lines += [f"  {a} / {b:8} {spread(ratios(ms[a], ms[b]))}"
              for i, a in enumerate(others) for b in others[i + 1:]]
    return lines
