"""Retries on the real stack (docs/api.md, "Retries"): an event appended (its 202 lost, as in
a broker's kill) and sent again with its `client_seq` gets the answer its first send got, 202
and its offset, once the state has moved past it: a card played already, the cards of a round's
board once the next one is under way. A card declarer plays from dummy (Law 45) is known by its
sender: dummy's own `client_seq`s do not swallow it. Nothing is appended twice: the state in
Redis equals a replay of the topic, which ends at the last first send."""

from __future__ import annotations

import itertools
from typing import Any

from shared import fold, from_map
from shared.table.board_end import table_view
from tests.helpers import DEAL, run, wait_for
from tests.integration.kafka_reading import replay
from tests.integration.test_play import _accepted
from tests.script import lowest_legal
from tests.stack import Stack

NEXT_DEAL = "N:JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6 4.KJ32.842.AQ743"
AUCTION = [("N", "1S"), ("E", "P"), ("S", "P"), ("W", "P")]  # N declares, S is dummy


def _post(stack: Stack, token: str, path: str, body: dict[str, Any]) -> Any:
    with stack.client(token) as http:
        return http.post(path, json=body)


def _board(stack: Stack, table: str, offset: int) -> dict[str, Any] | None:
    """The table's board once its state has folded `offset`."""
    with stack.client(stack.director) as http:
        found = http.get(f"/api/tables/{table}/state").json()
    if found.get("version") is None or found["version"] < offset:
        return None
    board: dict[str, Any] = found["board"]
    return board


def test_a_retried_card_gets_its_first_answer_and_dummys_numbers_do_not_swallow_it(
        stack: Stack) -> None:
    """Item 7: E's opening lead, once folded, sent again with its `client_seq`: 202 and its
    offset (not "played already"). Item 8: S (dummy) passed with `client_seq` 300; declarer's
    card from dummy with 300 too is played (Law 45: declarer's, not a retry of dummy's pass).
    Item 7 in a round: board 1's last trick sent again once board 2 is under way (declarer's
    card from dummy among them): each card its offset, nothing appended, board 2 untouched."""
    table = "retries"
    with stack.client(stack.director) as http:
        response = http.post("/api/tables", json={"table": table})
        assert response.status_code == 201, response.text
        seats = response.json()["seats"]
    start = _post(stack, stack.director, f"/api/tables/{table}/rounds", {"round": 1, "boards": [
        {"board": 1, "deal": DEAL}, {"board": 2, "deal": NEXT_DEAL}]}).json()["offset"]
    wait_for(lambda: _board(stack, table, start), 60, "board 1")
    numbers = {seat: itertools.count(first) for seat, first in
               (("N", 100), ("E", 200), ("S", 300), ("W", 400))}
    local = fold(from_map(m) for m in [{"type": "board_started", "board": 1, "deal": DEAL}])
    for seat, call in AUCTION:
        body = {"type": "call", "call": call, "client_seq": next(numbers[seat])}
        _accepted(stack, table, seats[seat], body)
        local = fold([from_map({**body, "seat": seat})], local)

    sent: list[tuple[str, dict[str, Any], int]] = []  # (sender, body, offset)
    for n in range(52):
        card = lowest_legal(local, DEAL)
        sender = "N" if card["seat"] == "S" else card["seat"]
        # declarer's first card from dummy takes dummy's number of his pass (item 8)
        seq = 300 if (n, sender) == (1, "N") else next(numbers[sender])
        body = {"type": "card_played", "card": card["card"], "client_seq": seq}
        if card["seat"] != sender:
            body["seat"] = card["seat"]
        sent.append((sender, body, _accepted(stack, table, seats[sender], body)))
        local = fold([from_map(card)], local)
        if n == 1:  # the lead and dummy's card folded: the lead sent again
            board = wait_for(lambda o=sent[-1][2]: _board(stack, table, o), 30, "dummy's card")
            assert [c["card"] for c in board["play"]["tricks"][0]["cards"]] == \
                [b["card"] for _, b, _ in sent]
            lead_sender, lead, lead_offset = sent[0]
            assert _accepted(stack, table, seats[lead_sender], lead) == lead_offset

    last = sent[-1][2]
    board = wait_for(lambda: _board(stack, table, last), 30, "the 52nd card folded")
    assert board["board"] == 2 and board["status"] == "auction"
    for sender, body, offset in sent[-4:]:  # the last trick: a card of each hand
        assert _accepted(stack, table, seats[sender], body) == offset, body
    assert any("seat" in body for _, body, _ in sent[-4:])  # dummy's, from declarer
    folded, end = run(replay(stack.bootstrap, table))
    assert end == last  # no retry appended
    assert local.board is not None and folded.board is not None
    first = folded.boards[0].to_dict()
    assert first["result"] == local.board.to_dict()["result"] and first["ignored"] == []
    assert _board(stack, table, last) == table_view(folded)
