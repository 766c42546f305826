"""The feeds' hub leaves a gap between reads that brought entries (`fanout.READ_GAP_S`): a read
of every followed stream costs about the same for one entry as for fifty, so back to back they
took what the machine had left at any rate of events; a read that brought only a new socket's
wake-up is followed at once."""

from __future__ import annotations

from typing import Any

import pytest

from services.gateway.feeds import fanout
from services.gateway.feeds.fanout import READ_GAP_S, FeedHub, _Stream
from tests.helpers import run


def _hub(reply: list[Any], monkeypatch: pytest.MonkeyPatch) -> tuple[FeedHub, list[float]]:
    pauses: list[float] = []

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    async def xread_packed(client: Any, command: bytes) -> list[Any]:
        return reply

    monkeypatch.setattr(fanout, "xread_packed", xread_packed)
    hub = FeedHub(object(), object(), pause=pause)  # type: ignore[arg-type]
    hub.streams["tableserver:feed:{t-1}"] = _Stream("0-0")
    return hub, pauses


def test_a_read_that_brought_entries_is_followed_by_a_gap(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    hub, pauses = _hub([(b"tableserver:feed:{t-1}", [(b"1-0", {b"n": b"1"}),
                                                     (b"2-0", {b"n": b"2"})])], monkeypatch)
    run(hub.read(None, hub.wake_key, {"tableserver:feed:{t-1}": "0-0"}))  # type: ignore[arg-type]
    assert hub.streams["tableserver:feed:{t-1}"].last == "2-0"
    assert len(pauses) == 1 and 0 < pauses[0] <= READ_GAP_S


def test_a_read_that_brought_only_the_wake_up_is_followed_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reply: list[Any] = []
    hub, pauses = _hub(reply, monkeypatch)
    reply.append((hub.wake_key.encode(), [(b"7-0", {b"w": b"1"})]))
    run(hub.read(None, hub.wake_key, {"tableserver:feed:{t-1}": "0-0"}))  # type: ignore[arg-type]
    assert hub.wake_last[hub.wake_key] == "7-0"
    assert pauses == []
