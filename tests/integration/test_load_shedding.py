"""Load shedding on the real stack (overload): a gateway at its bound of events in
flight (`TABLESERVER_EVENTS_IN_FLIGHT`, here 1) refuses one more once its wait for a turn
(`TABLESERVER_EVENT_WAIT_MS`, 1 s) brings none, 503 with `Retry-After`, instead of holding it
behind the others for as long as they take; the event under way is answered once
Kafka acknowledges it, the refused one is taken when sent again, and each is folded once.
Before, every event was taken and waited (60 tables at once: p99 11.5 s, not one refusal).
The in-process side: tests/unit/test_gateway_load.py; the numbers: bench/overload_bench.py."""

from __future__ import annotations

import dataclasses
import os
import signal
import threading
from collections.abc import Iterator

import httpx
import pytest

from tests.helpers import new_table, state, wait_for
from tests.stack import Stack, another_gateway


@pytest.fixture(scope="module")
def one_event_gateway(stack: Stack) -> Iterator[str]:
    """A gateway that takes one event at a time (its appends waited for 30 s)."""
    narrow = dataclasses.replace(stack, env={**stack.env, "TABLESERVER_EVENTS_IN_FLIGHT": "1",
                                             "TABLESERVER_PRODUCE_TIMEOUT": "30"})
    with another_gateway(narrow, stack.gateway_port + 9, "gateway-one-event.log") as url:
        yield url


def test_an_event_past_the_bound_is_refused_and_taken_when_sent_again(
        stack: Stack, one_event_gateway: str) -> None:
    """With Kafka paused, East's pass at one table holds the gateway's one turn and East's
    pass at another is refused after its wait (whichever came second): 503, Retry-After, the
    bound named. Kafka resumed, the one held is answered 202; the refused one, sent again with its
    `client_seq`, 202; each table's auction has its pass once."""
    tokens = {t: new_table(stack, t) for t in ("shed1", "shed2")}
    for table in tokens:  # the gateway knows the tables and their topics before the pause
        with httpx.Client(base_url=one_event_gateway, timeout=30, headers={
                "Authorization": f"Bearer {tokens[table]['seats']['N']}"}) as http:
            answer = http.post(f"/api/tables/{table}/events",
                               json={"type": "call", "call": "1C", "client_seq": 1})
            assert answer.status_code == 202, answer.text
    answers: dict[str, httpx.Response | Exception] = {}

    def east_passes(table: str) -> None:
        try:
            with httpx.Client(base_url=one_event_gateway, timeout=60, headers={
                    "Authorization": f"Bearer {tokens[table]['seats']['E']}"}) as http:
                answers[table] = http.post(f"/api/tables/{table}/events", json={
                    "type": "call", "call": "P", "client_seq": 2})
        except Exception as exc:  # reported below
            answers[table] = exc

    senders = [threading.Thread(target=east_passes, args=(t,), daemon=True) for t in tokens]
    kafka = int(stack.kafka_pidfile().read_text())
    os.kill(kafka, signal.SIGSTOP)
    try:
        for sender in senders:
            sender.start()
        refused_at = wait_for(lambda: next(iter(answers), None), 20,
                              "one of the two passes answered while Kafka is paused")
    finally:
        os.kill(kafka, signal.SIGCONT)
    for sender in senders:
        sender.join(60)
    held_at = next(t for t in tokens if t != refused_at)
    refused, held = answers[refused_at], answers[held_at]
    assert isinstance(refused, httpx.Response) and isinstance(held, httpx.Response), answers
    assert refused.status_code == 503, refused.text
    assert int(refused.headers["Retry-After"]) >= 1
    assert "too many events at once: 1 are under way" in refused.json()["error"]
    assert held.status_code == 202, held.text
    with httpx.Client(base_url=one_event_gateway, timeout=30, headers={
            "Authorization": f"Bearer {tokens[refused_at]['seats']['E']}"}) as http:
        again = http.post(f"/api/tables/{refused_at}/events",
                          json={"type": "call", "call": "P", "client_seq": 2})
    assert again.status_code == 202, again.text
    for table in tokens:
        wait_for(lambda t=table: [c["call"] for c in (state(
            stack, t, tokens[t]["seats"]["N"])["board"] or {}).get("calls", [])] == ["1C", "P"],
            30, f"{table}'s auction: 1C, P")
