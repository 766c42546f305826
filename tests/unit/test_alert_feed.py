"""The alerts' feed in a gateway process (services/gateway/feeds/alert_feed.py), without Kafka: what
a socket is offered, by offset."""

from __future__ import annotations

import pytest

from services.gateway.feeds.alert_feed import AlertFeed
from services.gateway.feeds.fanout import BadSince


def render(entry_id: str, fields: dict[bytes, bytes]) -> str:
    return entry_id


async def test_new_alerts_only_even_before_the_backlog_is_read() -> None:
    """Just after a start the feed reads the last alerts back (for the list); a director who
    connects then asks for new ones (`$`): the backlog is not pushed to him as new."""
    feed = AlertFeed("127.0.0.1:1")  # never started: the test plays the consumer's part
    feed.end, feed.next = 500, 0
    sub = await feed.subscribe("alerts", "$", "director", render)
    feed._dispatch(10, {"id": "old"})
    feed._dispatch(500, {"id": "new"})
    assert [sub.queue.get_nowait()[0] for _ in range(sub.queue.qsize())] == ["500"]
    assert [a["id"] for a in feed.latest(10)] == ["old", "new"]


async def test_resuming_from_an_offset_gets_what_came_after() -> None:
    feed = AlertFeed("127.0.0.1:1")
    for offset in range(5):
        feed._dispatch(offset, {"id": f"a{offset}"})
    sub = await feed.subscribe("alerts", "2", "director", render)
    feed._dispatch(5, {"id": "a5"})
    assert [sub.queue.get_nowait()[0] for _ in range(sub.queue.qsize())] == ["3", "4", "5"]


@pytest.mark.parametrize("since", ["1700000000000-0", "99"])
async def test_a_since_that_is_no_offset_is_refused(since: str) -> None:
    feed = AlertFeed("127.0.0.1:1")
    feed._dispatch(0, {"id": "a0"})
    with pytest.raises(BadSince):
        await feed.subscribe("alerts", since, "director", render)


async def test_the_latest_mark_of_an_alert_stands_and_the_list_carries_it() -> None:
    """The director marks an alert handled, then takes the mark back: the list says so; a
    record that is no mark is passed over."""
    feed = AlertFeed("127.0.0.1:1")
    feed._dispatch(0, {"id": "t:1:4:0"})
    feed._dispatch(1, {"id": "t:1:9:0"})
    feed._marked(0, b'{"alert": "t:1:4:0", "handled": true, "ts": 1}')
    feed._marked(1, b"not json")
    assert [a["handled"] for a in feed.latest(10)] == [
        {"alert": "t:1:4:0", "handled": True, "ts": 1}, None]
    feed._marked(2, b'{"alert": "t:1:4:0", "handled": false, "ts": 2}')
    assert feed.latest(10)[0]["handled"]["handled"] is False
