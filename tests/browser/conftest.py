"""The browser tests' fixtures: one Chromium for each module, and the tabs a test opens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (tests/browser/browser.py), one for each module of browser tests.
    Not one for the session: Playwright's sync API runs an event loop in the main thread for
    as long as it is open, and every later test's `asyncio.run` (or pytest-asyncio) then fails
    with "cannot be called from a running event loop" (a whole `make test` did). A module of
    browser tests runs no asyncio of its own for the same reason."""
    from playwright.sync_api import sync_playwright

    from tests.browser.browser import launch

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def tabs() -> Iterator[list[Any]]:
    """The browser tabs (tests/browser/browser.py's `Tab`) a test opens, closed after
    it."""
    opened: list[Any] = []
    yield opened
    for tab in opened:
        tab.page.context.close()
