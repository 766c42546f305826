"""A worker's heartbeat for Kubernetes' probes (services/processor/heartbeat.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from services.common.settings import Settings
from services.processor.heartbeat import STALE_S, beat, main, youngest_age


def test_the_youngest_beat_counts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))
    settings = Settings()
    assert youngest_age(settings, time.time()) is None
    beat(settings, "w1")
    beat(settings, "w2")
    old = tmp_path / "heartbeats" / "w1"
    os.utime(old, (time.time() - 100, time.time() - 100))
    age = youngest_age(settings, time.time())
    assert age is not None and age < 5


@pytest.mark.parametrize(("ago", "code"), [(1.0, 0), (STALE_S + 10, 1), (None, 1)])
def test_the_probe_fails_without_a_recent_beat(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               ago: float | None, code: int) -> None:
    """The probe's exit status (`python -m services.processor.heartbeat`: its `main`, run
    here in the test's process)."""
    if ago is not None:
        path = tmp_path / "heartbeats" / "w1"
        path.parent.mkdir()
        path.touch()
        os.utime(path, (time.time() - ago, time.time() - ago))
    monkeypatch.setenv("TABLESERVER_DATA", str(tmp_path))
    with pytest.raises(SystemExit) as probe:
        main()
    assert probe.value.code == code
