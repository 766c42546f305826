"""One way for an event (architecture.md): its three doors answer alike. The same requests go
to the gateway as uvicorn serves it (`asgi.Guard`, whose call path answers the POST without
FastAPI), to the bare FastAPI app behind it (the route kept for OpenAPI), and, where a socket
can send them, on a table's feed socket: the same status and body (and `Retry-After`), the
socket's ack the same status and error. In process, through ASGI, the gateway's adapters in
memory (tests/fakes.py, given to `create_app`): no I/O."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from services.common.names import LIVE, table_topic
from services.common.settings import Settings
from services.gateway.app import create_app
from services.gateway.http.asgi import Guard
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Role, sign
from tests.fakes import MemoryAppender, Switch, gateway_adapters

DIRECTOR = "d" * 32



@pytest.fixture
async def guard(tmp_path: Any, producer: MemoryAppender, limit: Switch) -> Guard:
    """The app with table t1 known, its adapters in memory (the producer and the seats' limit
    those given); no table t9 (nor in the registry)."""
    adapters = gateway_adapters(producer=producer, seat_limit=limit)
    app = create_app(Settings(TABLESERVER_SIGNING_KEY="k" * 32,
                              TABLESERVER_DIRECTOR_TOKEN=DIRECTOR, TABLESERVER_DATA=tmp_path),
                     adapters)
    await adapters.store.remember_tables({"t1": {"table": "t1", "ruleset": "duplicate",
                                                 "created": 1}})
    return app


def gateway(guard: Guard) -> Gateway:
    assert isinstance(guard.app, FastAPI)
    found: Gateway = guard.app.state.gateway
    return found


def token(guard: Guard, seat: str | None = "N", role: Role = Role.SEAT,
          table: str = "t1") -> str:
    return sign(gateway(guard).signing_key, table, seat, role, expires=2**40)


def call(**fields: Any) -> bytes:
    return json.dumps({"type": "call", "call": "1C", **fields}).encode()


# over the 4096 bytes of a body, within the 4096 characters of a socket's message
LONG = json.dumps({"type": "explanation", "index": 0, "explanation": "é" * 2100},
                  ensure_ascii=False).encode()
DEEP = b'{"type": "call", "call": "1C", "x": ' + b"[" * 9 + b"]" * 9 + b"}"
# name: (table, whose token: a seat, another role, the director's, none or a forged one, body)
REQUESTS: dict[str, tuple[str, str, bytes]] = {
    "accepted": ("t1", "N", call()),
    "a ruling": ("t1", "director", json.dumps({"type": "ruling", "action": "cancel_call",
                                               "index": 0}).encode()),
    "bad JSON": ("t1", "N", b'{"type": "call", "call": '),
    "not an object": ("t1", "N", b'["call"]'),
    "nested too deep": ("t1", "N", DEEP),
    "no type": ("t1", "N", b'{"call": "1C"}'),
    "bad field": ("t1", "N", call(call="1Z")),
    "wrong seat": ("t1", "N", call(seat="E")),
    "not a seat's event": ("t1", "N", json.dumps({"type": "board_started",
                                                  "board": 2}).encode()),
    "an import's id": ("t1", "N", call(id="import:x")),
    "a spectator": ("t1", "spectator", call()),
    "a spectator's bad JSON": ("t1", "spectator", b"{"),
    "another table's token": ("t2", "N", call()),
    "no token": ("t1", "none", call()),
    "bad token": ("t1", "forged", call()),
    "unknown table": ("t9", "director", call(seat="N")),
    "unknown table, bad JSON": ("t9", "director", b"{"),
    "too large": ("t1", "N", LONG),
}
STATUS = {"accepted": 202, "a ruling": 202, "bad JSON": 400, "not an object": 400,
          "nested too deep": 400, "no type": 400, "bad field": 400, "wrong seat": 400,
          "not a seat's event": 400, "an import's id": 400, "a spectator": 403,
          "a spectator's bad JSON": 403, "another table's token": 403, "no token": 401,
          "bad token": 401, "unknown table": 404, "unknown table, bad JSON": 404,
          "too large": 413}


def headers(guard: Guard, whose: str) -> dict[str, str]:
    if whose == "none":
        return {}
    if whose == "forged":
        return {"Authorization": "Bearer v1.e30.AAAA"}
    if whose == "director":
        return {"Authorization": f"Bearer {DIRECTOR}"}
    if whose == "spectator":
        return {"Authorization": f"Bearer {token(guard, None, Role.SPECTATOR)}"}
    return {"Authorization": f"Bearer {token(guard, whose)}"}


async def post(app: Any, table: str, head: dict[str, str], body: bytes
               ) -> tuple[int, dict[str, Any], str | None]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://testserver") as client:
        answer = await client.post(f"/api/tables/{table}/events", content=body,
                                   headers={**head, "content-type": "application/json"})
    return answer.status_code, answer.json(), answer.headers.get("retry-after")


@pytest.mark.parametrize("name", REQUESTS)
async def test_the_call_path_and_the_route_answer_alike(guard: Guard, name: str) -> None:
    table, whose, body = REQUESTS[name]
    fast = await post(guard, table, headers(guard, whose), body)
    routed = await post(guard.app, table, headers(guard, whose), body)
    assert fast[0] == STATUS[name]
    if fast[0] == 202:  # each door appended it once: the topic's first two offsets
        assert (fast[1], routed[1]) == ({"offset": 0}, {"offset": 1})
        assert (fast[0], fast[2]) == (routed[0], routed[2])
    else:
        assert fast == routed
        assert set(fast[1]) <= {"error", "field"} and fast[1]["error"]


async def test_a_rate_limit_is_answered_alike_with_its_retry_after(guard: Guard,
                                                                    limit: Switch) -> None:
    limit.open = False
    head = headers(guard, "N")
    fast, routed = await post(guard, "t1", head, call()), await post(guard.app, "t1", head,
                                                                       call())
    assert fast == routed and (fast[0], fast[2]) == (429, "1")


async def test_what_was_accepted_was_appended_once_per_door(
        guard: Guard, producer: MemoryAppender) -> None:
    await post(guard, "t1", headers(guard, "N"), call(client_seq=1))
    await post(guard.app, "t1", headers(guard, "N"), call(client_seq=1))
    appended = [(topic, value) for topic, _, value, _ in producer.sent if topic != LIVE]
    assert [topic for topic, _ in appended] == [table_topic("t1")] * 2
    assert appended[0][1] != b""


SOCKET = [name for name, (table, whose, body) in REQUESTS.items()
          if whose not in ("none", "forged")  # a socket's token is checked as it opens
          and table != "t2"  # a socket for another table is not opened (4403)
          and body.startswith(b"{") and body.endswith(b"}")  # else not a socket's message
          and name not in ("no type", "not a seat's event")]  # the socket closes on those


async def on_socket(app: Guard, table: str, token: str, text: str) -> dict[str, Any]:
    """What the feed socket of `table` answers to `text`, sent once its `token` is: driven as
    uvicorn drives it, through ASGI; the client leaves once it has its answer."""
    path = f"/api/tables/{table}/feed"
    scope = {"type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.4"},
             "scheme": "ws", "http_version": "1.1", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": b"", "headers": [(b"host", b"testserver")],
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
             "subprotocols": [], "state": {}}
    incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    for message in ({"type": "websocket.connect"},
                    {"type": "websocket.receive",
                     "text": json.dumps({"type": "auth", "token": token})},
                    {"type": "websocket.receive", "text": text}):
        incoming.put_nowait(message)
    answers: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "websocket.send":
            answers.put_nowait(json.loads(message["text"]))
        elif message["type"] == "websocket.close":
            answers.put_nowait(dict(message))

    served = asyncio.create_task(app(scope, incoming.get, send))
    answer = await answers.get()
    incoming.put_nowait({"type": "websocket.disconnect", "code": 1000})
    await served
    return answer


async def test_a_sockets_ack_carries_the_status_and_error_http_answers(guard: Guard) -> None:
    """Each request the socket can send, on the feed socket of its table with its token, and
    the same text posted: the ack says what the POST answered."""
    assert len(SOCKET) == 9
    for name in SOCKET:
        table, whose, body = REQUESTS[name]
        head = headers(guard, whose)
        text = json.dumps({**json.loads(body), "client_seq": 5}, ensure_ascii=False)
        status, posted, _ = await post(guard, table, head, text.encode())
        ack = await on_socket(guard, table, head["Authorization"].removeprefix("Bearer "),
                              text)
        assert status == STATUS[name], name
        if status == 202:  # appended after the POST's event: the next offset
            assert ack == {"ack": 5, "offset": posted["offset"] + 1}, name
        else:
            assert ack == {"ack": 5, **posted, "status": status}, name
