"""The heap's census: the oldest generation's most numerous types, counted
(services/common/heap_census.py)."""

from __future__ import annotations

import gc
import os
import signal

import pytest

from services.common import heap_census


class Kept:
    """Objects of a type of their own, for the census to find and count."""


def test_the_census_counts_what_the_oldest_generation_holds() -> None:
    kept = [Kept() for _ in range(200_000)]
    gc.collect()  # survivors of a full collection: in the oldest generation
    text = heap_census.census()
    counts = {line.split()[1]: int(line.split()[0].replace(",", ""))
              for line in text.splitlines()[1:-1]}
    assert counts["Kept"] >= len(kept)
    assert text.startswith("--- the heap: generations ")
    assert text.endswith(heap_census.END)


def test_the_signal_writes_the_census_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(heap_census.SIGNAL)
    heap_census.install()
    try:
        os.kill(os.getpid(), heap_census.SIGNAL)  # run on the main thread before kill returns
    finally:
        signal.signal(heap_census.SIGNAL, before)
    assert heap_census.END in capsys.readouterr().err
