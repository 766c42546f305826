"""A worker's heartbeat, for probes: a file the worker touches every few seconds while its event
loop runs (`beat`), whatever Kafka and Redis are doing.

    python -m services.processor.heartbeat   exit 0 when a worker's heartbeat in the data
                                             folder is younger than `STALE_S` (Kubernetes'
                                             liveness and readiness probes of a worker's pod)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from services.common.settings import Settings

STALE_S = 30.0


def folder(settings: Settings) -> Path:
    return settings.data_dir / "heartbeats"


def beat(settings: Settings, worker: str) -> None:
    path = folder(settings) / worker
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()


def youngest_age(settings: Settings, now: float) -> float | None:
    """Seconds since the last beat of any worker in the data folder (None: never)."""
    beats = [p.stat().st_mtime for p in folder(settings).glob("*")] if \
        folder(settings).is_dir() else []
    return now - max(beats) if beats else None


def main() -> None:
    age = youngest_age(Settings(), time.time())
    if age is None or age > STALE_S:
        print("no worker heartbeat" + ("" if age is None else f" for {age:.0f} s"),
              file=sys.stderr)
        sys.exit(1)
    sys.exit(0)


if __name__ == "__main__":
    main()
