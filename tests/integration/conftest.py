"""Integration tests run on the real stack (tests/stack.py), started once per session."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.stack import Stack, running_stack

# TABLESERVER_TEST_PORT_SHIFT moves the session stack's ports, so that two checkouts on one
# machine can run their integration tests at once
_SHIFT = int(os.environ.get("TABLESERVER_TEST_PORT_SHIFT", "0"))
KAFKA_PORT, REDIS_PORT, GATEWAY_PORT = 19092 + _SHIFT, 16379 + _SHIFT, 18000 + _SHIFT


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    data = tmp_path_factory.mktemp("tableserver-data")
    with running_stack(data, KAFKA_PORT, REDIS_PORT, GATEWAY_PORT, workers=1,
                       extra_env={"TABLESERVER_SHARDS": "4",
                                  "TABLESERVER_CALLS_PER_SECOND": "20",
                                  "TABLESERVER_ORIGINS": "https://club.example"}) as running:
        yield running


def wait_for(check: Any, seconds: float, what: str) -> Any:
    """Poll `check()` until it returns something true; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.05)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (tests/integration/browser.py), one for each module of browser tests.
    Not one for the session: Playwright's sync API runs an event loop in the main thread for
    as long as it is open, and every later test's `asyncio.run` (or pytest-asyncio) then fails
    with "cannot be called from a running event loop" (a whole `make test` did). A module of
    browser tests runs no asyncio of its own for the same reason."""
    from playwright.sync_api import sync_playwright

    from tests.integration.browser import launch

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def tabs() -> Iterator[list[Any]]:
    """The browser tabs (tests/integration/browser.py's `Tab`) a test opens, closed after
    it."""
    opened: list[Any] = []
    yield opened
    for tab in opened:
        tab.page.context.close()
