"""The fetcher gives up a client whose metadata no longer learns leaders
(`services/processor/fetch_session.py`); the old client's close may fail on its own, as seen
after a broker's kill in tests/integration/test_faults.py (aiokafka's metadata task writing on
a connection uvloop had closed): the worker's fetch loop must go on, not die of it. Before
that, leaders unknown are asked of a broker directly: an outage there is logged, a bug
raised."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import pytest
from aiokafka.client import AIOKafkaClient
from aiokafka.errors import KafkaConnectionError
from aiokafka.structs import TopicPartition

from services.processor import fetch_session
from services.processor.fetch_session import TableFetcher, _close_quietly

pytestmark = pytest.mark.unit


class Closing:
    def __init__(self, error: BaseException | None) -> None:
        self.error, self.closed = error, False

    async def close(self) -> None:
        self.closed = True
        if self.error is not None:
            raise self.error


@pytest.mark.parametrize("error", [
    RuntimeError("unable to perform operation on <TCPTransport closed=True>"),
    KafkaConnectionError("closed"), ConnectionResetError()])
async def test_an_old_clients_failed_close_is_logged_not_raised(
        error: BaseException, caplog: pytest.LogCaptureFixture) -> None:
    client = Closing(error)
    with caplog.at_level(logging.WARNING, "tableserver.fetch"):
        await _close_quietly(cast(AIOKafkaClient, client))
    assert client.closed
    assert "closed with an error" in caplog.text and type(error).__name__ in caplog.text


async def test_a_bug_in_the_close_is_not_hidden() -> None:
    client: Any = Closing(ValueError("a bug"))
    with pytest.raises(ValueError):
        await _close_quietly(client)


class Leaderless:
    """A client that knows no leader and whose metadata look-up meets `error`."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.cluster = self
        self.asked = 0

    def leader_for_partition(self, tp: TopicPartition) -> None:
        return None

    def force_metadata_update(self) -> None:
        return None

    def set_topics(self, topics: object) -> None:
        return None

    def get_random_node(self) -> int:
        return 1

    async def send(self, node: int, request: object) -> object:
        self.asked += 1
        raise self.error


async def leaderless_fetcher(error: BaseException, monkeypatch: pytest.MonkeyPatch
                             ) -> tuple[TableFetcher, Leaderless]:
    """A fetcher whose one partition's leader stays unknown past `LOOK_UP_AFTER_S` (0 here):
    its direct look-up made once, and awaited."""
    monkeypatch.setattr(fetch_session, "LOOK_UP_AFTER_S", 0.0)
    fetcher, client = TableFetcher("unused:9092"), Leaderless(error)
    fetcher._client = cast(AIOKafkaClient, client)
    fetcher.fetch_from(TopicPartition("t", 0), 0)
    fetcher._by_leader(fetcher.positions)  # unknown from now
    fetcher._by_leader(fetcher.positions)  # past LOOK_UP_AFTER_S: looked up
    assert fetcher.looking_up is not None
    await asyncio.gather(fetcher.looking_up, return_exceptions=True)
    assert client.asked == 1
    return fetcher, client


async def test_a_look_up_that_meets_an_outage_is_left_to_the_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaders unknown are asked of a broker directly (`fetch_session._look_up`); a broker that
    does not answer is only logged, and the fetch goes on (the partition left out)."""
    fetcher, _ = await leaderless_fetcher(KafkaConnectionError("down"), monkeypatch)
    assert fetcher._by_leader(fetcher.positions) == {}


async def test_a_bug_in_the_look_up_is_raised_by_the_next_fetch(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the direct look-up is not lost in its task: the fetch after it raises it, and
    the worker's loop dies of it (crash-only, services/common/supervision.py)."""
    fetcher, _ = await leaderless_fetcher(ValueError("a bug"), monkeypatch)
    with pytest.raises(ValueError):
        fetcher._by_leader(fetcher.positions)
