"""Fair play at the gateway (issue 15): no free text from a seat reaches its partner (Law 16;
Law 20F with online self-alerting), by any channel: an event's id, an explanation of the
partner's call, the feed. The state and the history are checked in test_replay.py."""

from __future__ import annotations

import json

import pytest
from websockets.sync.client import connect

from tests.integration.conftest import Stack, run, wait_for
from tests.integration.kafka_reading import read_all
from tests.integration.test_pipeline import new_table, play_script, state

pytestmark = pytest.mark.integration


def _events(stack: Stack, table: str) -> int:
    return len(run(read_all(stack.bootstrap, f"tableserver.table.{table}")))


def test_an_id_is_a_token_not_a_message_to_partner(stack: Stack) -> None:
    tokens = new_table(stack, "fair1")
    before = _events(stack, "fair1")
    with stack.client(tokens["seats"]["N"]) as http:
        refused = http.post("/api/tables/fair1/events", json={
            "type": "call", "call": "1C", "id": "partner, lead a spade"})
    assert refused.status_code == 400 and refused.json()["field"] == "id"
    assert _events(stack, "fair1") == before


def test_a_seat_may_not_explain_its_partners_call(stack: Stack) -> None:
    """Law 20F, online self-alerting: S's "explanation" of N's call would tell N what S
    thinks it means; refused (403, field index), nothing appended. N explains his own."""
    tokens = new_table(stack, "fair2")
    last = play_script(stack, "fair2", tokens, "N 1C, E asks 0")
    wait_for(lambda: state(stack, "fair2", stack.director)["version"] == last, 10, "folded")
    before = _events(stack, "fair2")
    with stack.client(tokens["seats"]["S"]) as http:
        refused = http.post("/api/tables/fair2/events", json={
            "type": "explanation", "index": 0, "explanation": "he has 16+"})
    assert refused.status_code == 403 and refused.json()["field"] == "index"
    assert _events(stack, "fair2") == before
    with stack.client(tokens["seats"]["N"]) as http:
        assert http.post("/api/tables/fair2/events", json={
            "type": "explanation", "index": 0, "explanation": "16+"}).status_code == 202


def test_the_feed_never_carries_a_seats_explanation_to_its_partner(stack: Stack) -> None:
    tokens = new_table(stack, "fair3")
    base = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/fair3/feed?token="
    with connect(base + tokens["seats"]["S"], open_timeout=10) as south, \
            connect(base + tokens["seats"]["E"], open_timeout=10) as east:
        south.recv(timeout=10), east.recv(timeout=10)  # the current states
        with stack.client(tokens["seats"]["N"]) as http:
            assert http.post("/api/tables/fair3/events", json={
                "type": "call", "call": "1C", "alert": True,
                "explanation": "Precision"}).status_code == 202
        last = play_script(stack, "fair3", tokens, "E asks 0, N explains 0 any shape")

        def until_last(ws: object) -> list[str]:
            texts = []
            while True:
                text = ws.recv(timeout=10)  # type: ignore[attr-defined]
                texts.append(text)
                if json.loads(text)["version"] == last:
                    return texts

        told_south, told_east = until_last(south), until_last(east)
    assert not any("Precision" in t or "any shape" in t for t in told_south)
    assert "Precision" in told_east[-1] and "any shape" in told_east[-1]
