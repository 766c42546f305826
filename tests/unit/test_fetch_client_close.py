"""The fetcher gives up a client whose metadata no longer learns leaders
(`services/processor/fetch_session.py`); the old client's close may fail on its own, as seen
after a broker's kill in tests/integration/test_faults.py (aiokafka's metadata task writing on
a connection uvloop had closed): the worker's fetch loop must go on, not die of it."""

from __future__ import annotations

import logging
from typing import Any, cast

import pytest
from aiokafka.client import AIOKafkaClient
from aiokafka.errors import KafkaConnectionError

from services.processor.fetch_session import _close_quietly

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
