"""The pages through the TLS front (deploy/tls, nginx with its self-signed certificate: the
browser told to accept it) before a gateway whose public address is the front's: the director's
console, opened on the club's own network (the gateway's address), hands out links at the public
address, and a seat's page opened from one plays over HTTPS, its feed over wss (a page served
over HTTPS may open no ws:// socket: mixed content, refused)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.browser import Tab, assert_clean_console, auction, click_call, open_tab
from tests.helpers import DEAL, GATEWAY_PORT
from tests.stack import Stack
from tests.tls_front import Front, tls_front


@pytest.fixture(scope="module")
def front(stack: Stack) -> Iterator[Front]:
    with tls_front(stack, GATEWAY_PORT + 45, GATEWAY_PORT + 46, GATEWAY_PORT + 47,
                   "tls-pages") as started:
        yield started


def test_a_seat_link_from_the_console_plays_through_the_front(
        stack: Stack, front: Front, browser: Browser, tabs: list[Tab]) -> None:
    director = open_tab(browser, f"{front.gateway}/director#{stack.director}")
    tabs.append(director)
    page = director.page
    expect(page.locator("#connection")).to_have_text("Connected")
    page.locator(".tab[data-tab='create']").click()
    page.fill("#new-table", "tls-seat")
    page.locator("#table-form button[type='submit']").click()
    expect(page.locator("#table-result")).to_have_text("Table tls-seat is ready.")
    north = page.locator("#link-tls-seat-N").input_value()
    assert north.startswith(f"{front.public}/seat#v1.")
    assert page.locator("#link-tls-seat-vugraph").input_value().startswith(
        f"{front.public}/vugraph#v1.")
    with front.client(stack.director) as http:
        assert http.post("/api/tables/tls-seat/boards",
                         json={"board": 1, "deal": DEAL}).status_code == 202

    seat = open_tab(browser, north, ignore_https_errors=True)
    tabs.append(seat)
    expect(seat.page.locator("#connection")).to_have_text("Connected")
    expect(seat.page.locator("[data-hand] [data-card]")).to_have_count(13)
    click_call(seat, "P")  # posted over HTTPS; the state with it back on the wss feed
    expect(seat.page.locator(".auction tbody td:not(.next) > [aria-label]")).to_have_count(1)
    assert auction(seat)[0].startswith("North: pass")
    assert seat.page.evaluate("window.location.protocol") == "https:"
    assert_clean_console(seat)
    assert_clean_console(director)

