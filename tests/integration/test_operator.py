"""A table's operator on the real stack: the director issues his token
(`POST /api/tables/{t}/operator`); it reads that table whole and sends any seat's events there,
over HTTP and on the table's socket; it reads no other table and does nothing else of the
director's."""

from __future__ import annotations

import json
from typing import Any

from websockets.asyncio.client import connect

from tests.helpers import DEAL, new_table, run, wait_for
from tests.stack import Stack


def operator_token(stack: Stack, table: str) -> str:
    with stack.client(stack.director) as http:
        response = http.post(f"/api/tables/{table}/operator")
    assert response.status_code == 200, response.text
    found = response.json()
    assert found["table"] == table and found["link"] == f"/capture#{found['token']}"
    token: str = found["token"]
    return token


def post(stack: Stack, table: str, token: str, event: dict[str, Any]) -> tuple[int, Any]:
    with stack.client(token) as http:
        response = http.post(f"/api/tables/{table}/events", json=event)
    return response.status_code, response.json()


def board_at(stack: Stack, table: str, token: str, offset: int) -> dict[str, Any]:
    """The board once the event at `offset` is folded, as `token` reads it."""
    def read() -> dict[str, Any] | None:
        with stack.client(token) as http:
            found = http.get(f"/api/tables/{table}/state").json()
        return found["board"] if (found["version"] or -1) >= offset else None
    board: dict[str, Any] = wait_for(read, 20, f"offset {offset} folded")
    return board


def test_the_director_issues_an_operator_token_and_nobody_else_does(stack: Stack) -> None:
    tokens = new_table(stack, "op-issue")
    operator = operator_token(stack, "op-issue")
    with stack.client(stack.director) as http:
        assert http.post("/api/tables/op-nowhere/operator").status_code == 404
        console = http.post("/api/tables/op-issue/operator", json={})  # as the console asks
        assert console.status_code == 200 and console.json()["link"].startswith("/capture#")
    for token in (tokens["seats"]["N"], tokens["spectator"], operator):
        with stack.client(token) as http:
            refused = http.post("/api/tables/op-issue/operator")
        assert refused.status_code == 403, refused.text
    with stack.client() as http:
        assert http.post("/api/tables/op-issue/operator").status_code == 401


def test_the_operator_records_every_seat_and_sees_the_whole_board(stack: Stack) -> None:
    """North opens, East passes, then West bids 1S at South's turn: a bid out of rotation
    (Law 31) that the processor finds, with North (West's LHO) to accept it or not (Law 29A).
    The operator reads every hand (he sees them at the table) and the alert; the seats read
    their own hands only."""
    tokens = new_table(stack, "op-record")
    operator = operator_token(stack, "op-record")
    for seat, call in (("N", "1H"), ("E", "P"), ("W", "1S")):
        status, reply = post(stack, "op-record", operator, {"type": "call", "seat": seat,
                                                            "call": call})
        assert status == 202, reply
    board = board_at(stack, "op-record", operator, reply["offset"])
    assert board["deal"] == DEAL
    assert [c["call"] for c in board["calls"]] == ["1H", "P"]
    assert [a["kind"] for a in board["alerts"]] == ["bid_out_of_rotation"]
    assert board["pending"]["option_holder"] == "N" and board["turn"] == "N"
    status, reply = post(stack, "op-record", operator, {"type": "option", "seat": "N",
                                                        "accept": False})
    assert status == 202, reply
    board = board_at(stack, "op-record", tokens["seats"]["S"], reply["offset"])
    assert board["rectifications"][-1]["law"] == "31A" and board["turn"] == "S"
    assert board["deal"].split(":")[1].split()[0] == "-"  # South: his own hand only


def test_an_operator_has_no_other_authority(stack: Stack) -> None:
    """His token is for his table's seats' events: no other table, no ruling (the director's,
    Laws 81–82), no event without the seat whose it is, nothing else of the director's."""
    new_table(stack, "op-a")
    new_table(stack, "op-b")
    operator = operator_token(stack, "op-a")
    call = {"type": "call", "seat": "N", "call": "1H"}
    assert post(stack, "op-b", operator, call)[0] == 403
    with stack.client(operator) as http:
        assert http.get("/api/tables/op-b/state").status_code == 403
        assert http.get("/api/tables/op-b/history").status_code == 403
        assert http.post("/api/tables", json={"table": "op-c"}).status_code == 403
        assert http.post("/api/tables/op-a/boards", json={"board": 2}).status_code == 403
        assert http.post("/api/tables/op-a/players",
                         json={"players": {"N": "Eve"}}).status_code == 403
        assert http.get("/api/alerts").status_code == 403
    status, reply = post(stack, "op-a", operator, {"type": "ruling", "action": "cancel_call",
                                                   "index": 0})
    assert (status, reply["field"]) == (403, "type")
    status, reply = post(stack, "op-a", operator, {"type": "call", "call": "1H"})
    assert (status, reply["field"]) == (400, "seat")
    status, _ = post(stack, "op-a", operator, call)
    assert status == 202


async def _socket_replies(url: str, token: str, events: list[dict[str, Any]]
                          ) -> list[dict[str, Any]]:
    """The table's feed, authenticated with `token`: the answer to each event sent on it."""
    replies = []
    async with connect(url, open_timeout=30) as socket:
        await socket.send(json.dumps({"type": "auth", "token": token}))
        for event in events:
            await socket.send(json.dumps(event))
            while True:
                message = json.loads(await socket.recv())
                if message.get("ack") == event["client_seq"]:
                    replies.append(message)
                    break
    return replies


def test_the_operator_sends_on_the_tables_socket(stack: Stack) -> None:
    new_table(stack, "op-socket")
    operator = operator_token(stack, "op-socket")
    url = f"{stack.url.replace('http', 'ws')}/api/tables/op-socket/feed"
    taken, refused = run(_socket_replies(url, operator, [
        {"type": "call", "seat": "N", "call": "1NT", "client_seq": 1},
        {"type": "call", "call": "P", "client_seq": 2}]))
    assert "offset" in taken and "error" not in taken, taken
    assert (refused["status"], refused["field"]) == (400, "seat")
    board = board_at(stack, "op-socket", operator, taken["offset"])
    assert [(c["seat"], c["call"]) for c in board["calls"]] == [("N", "1NT")]
