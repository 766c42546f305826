"""The worker's registry agent takes a tournament's new tables at the speed of its reads: faust
awaits a commit to Kafka before the next message once `broker_commit_every` messages were acked
(faust/transport/consumer.py, the fetcher's loop), so at 1 every registration waited a commit's
round trip (~60 a second: 3,750 tables a minute before a night's first board was folded)."""

from __future__ import annotations

from pathlib import Path

from services.common.settings import Settings
from services.processor.app import create_app


def test_the_registry_is_committed_by_the_timer_not_before_each_registration(
        tmp_path: Path) -> None:
    app = create_app(Settings(TABLESERVER_DATA=tmp_path), "registry-commits")
    assert app.conf.broker_commit_every >= 1000
    assert app.conf.broker_commit_interval <= 1.0
