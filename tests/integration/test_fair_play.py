"""Fair play at the gateway (api.md): no free text from a seat reaches its partner (Law 16;
Law 20F with online self-alerting), by any channel: an event's id, an explanation of the
partner's call, the feed. The state and the history are checked in test_replay.py."""

from __future__ import annotations

import json
import time
from typing import Any

from aiokafka import AIOKafkaProducer
from websockets.sync.client import connect

from services.common.names import table_topic
from shared.codec import encode, from_map
from tests.helpers import DEAL, new_table, play_script, run, state, wait_for
from tests.integration.kafka_reading import read_all
from tests.integration.test_replay import history
from tests.stack import Stack


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


def _append(stack: Stack, table: str, event: dict[str, Any]) -> int:
    """`event` appended to the table's topic as the gateway appends a seat's (the checks it
    made before, against Redis, are the ones a race beats)."""
    async def produce() -> int:
        producer = AIOKafkaProducer(bootstrap_servers=stack.bootstrap, acks="all")
        await producer.start()
        try:
            sent = await producer.send_and_wait(table_topic(table), encode(from_map(event)))
            return int(sent.offset)
        finally:
            await producer.stop()

    offset: int = run(produce())
    return offset


def test_a_partners_text_never_reaches_him_whatever_the_fold_made_of_it(stack: Stack) -> None:
    """Partner's text, replayed in order rather than raced: a round of boards 3 and 5; S, W,
    N pass; E passes board 3 out (board 5 starts, N deals); N opens 1NT; S's explanation of
    index 0, which the gateway had checked against board 3's state (S's pass), is appended as
    S's own. The fold ignores it; N must get its text on no channel: not his state, not his
    feed, not his history (whole, the board, step by step, PBN, LIN). The opponents hear it."""
    secret = "partner, I hold the spade ace"
    with stack.client(stack.director) as http:
        created = http.post("/api/tables", json={"table": "fair4"})
        assert created.status_code == 201, created.text
        tokens = created.json()
        assert http.post("/api/tables/fair4/rounds", json={"round": 1, "boards": [
            {"board": 3, "deal": DEAL}, {"board": 5, "deal": DEAL}]}).status_code == 202
    play_script(stack, "fair4", tokens, "S P, W P, N P, E P, N 1NT")
    last = _append(stack, "fair4", {"type": "explanation", "seat": "S", "index": 0,
                                    "explanation": secret, "own": True,
                                    "ts": int(time.time() * 1000)})
    wait_for(lambda: state(stack, "fair4", stack.director)["version"] == last, 10, "folded")
    north = tokens["seats"]["N"]
    assert state(stack, "fair4", north)["board"]["board"] == 5
    assert secret not in json.dumps(state(stack, "fair4", north))
    for params in ({}, {"board": 5}, {"board": 5, "states": "true"}, {"format": "pbn"},
                   {"format": "lin"}):
        told = history(stack, "fair4", north, **params)
        assert secret not in (told if isinstance(told, str) else json.dumps(told)), params
    with connect(f"ws://127.0.0.1:{stack.gateway_port}/api/tables/fair4/feed?token={north}",
                 open_timeout=10) as feed:
        first = feed.recv(timeout=10)
    assert json.loads(first)["version"] == last and secret not in first
    assert history(stack, "fair4", tokens["seats"]["E"])["history"][-1]["event"][
        "explanation"] == secret


def test_a_revoke_reaches_no_seat_on_any_channel_while_the_play_lasts(stack: Stack) -> None:
    """A revoke's fair play (Laws 61B, 63, 64): W plays H4 on a diamond, holding four: a revoke,
    not established. The Director reads its alert in the table's history, PBN and LIN; no
    seat learns of it from the table on any channel (his state, feed, history: whole, the
    board, step by step, up to the card; PBN, LIN, where W's own fold finds it from his
    hand). Once a claim is agreed (Law 69A) the play has ended and every seat's history
    carries it, as his state does."""
    tokens = new_table(stack, "fair5")
    led = play_script(stack, "fair5", tokens, "N 1S, E P, S P, W P, E plays DA")
    wait_for(lambda: state(stack, "fair5", stack.director)["version"] == led, 30, "folded")
    with stack.client(tokens["seats"]["N"]) as http:  # declarer plays dummy's card (Law 45)
        assert http.post("/api/tables/fair5/events", json={
            "type": "card_played", "seat": "S", "card": "D6"}).status_code == 202
    last = play_script(stack, "fair5", tokens, "W plays H4")
    wait_for(lambda: state(stack, "fair5", stack.director)["version"] == last, 30, "folded")
    words = "holding a card of the suit led"
    queries: list[dict[str, Any]] = [{}, {"board": 1}, {"board": 1, "states": "true"},
                                     {"board": 1, "until": last}, {"format": "pbn"},
                                     {"format": "lin"}]

    def told(token: str, params: dict[str, Any]) -> str:
        found = history(stack, "fair5", token, **params)
        return found if isinstance(found, str) else json.dumps(found)

    for params in queries:
        assert words in told(stack.director, params), params
    base = f"ws://127.0.0.1:{stack.gateway_port}/api/tables/fair5/feed?token="
    for seat in "NESW":
        token = tokens["seats"][seat]
        assert words not in json.dumps(state(stack, "fair5", token)), seat
        with connect(base + token, open_timeout=10) as feed:
            first = feed.recv(timeout=10)
        assert json.loads(first)["version"] == last and words not in first, seat
        for params in queries:
            assert words not in told(token, params), (seat, params)
    ended = play_script(stack, "fair5", tokens, "N claims 7 cross-ruff, E agrees, W agrees")
    wait_for(lambda: state(stack, "fair5", stack.director)["version"] == ended, 30, "folded")
    for seat in "NESW":
        token = tokens["seats"][seat]
        assert words in json.dumps(state(stack, "fair5", token)["board"]["alerts"]), seat
        assert words in told(token, {"board": 1}), seat
