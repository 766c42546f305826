"""The gateway under load (docs/operations.md, "Overload"), in process through ASGI, its adapters in
memory (tests/fakes.py):

- a large deals file is parsed off the event loop: while the gateway reads it, `/livez` and a
  seat's call are answered (before it was, the loop was held for the whole parse: 27.6 s
  without an answer to `/livez` for a 1.9 MiB file);
- past `TABLESERVER_EVENTS_IN_FLIGHT` events under way, one more waits for a turn (in order of
  arrival) and is refused when none comes within `TABLESERVER_EVENT_WAIT_MS` (0: at once), 503
  with `Retry-After`, on every door (the call path, the FastAPI route, a socket's ack), while
  the events under way are answered and nothing is lost; before, every event was taken and
  waited;
- the worker process goes with its gateway; the clients that retry wait a 503's Retry-After.

The real stack's side: tests/integration/test_load_shedding.py; the numbers:
bench/overload_bench.py."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from services.common.names import TABLE_PREFIX
from services.common.settings import Settings
from services.gateway.app import create_app
from services.gateway.gates import WAITING, Busy, Gate
from services.gateway.http.asgi import Guard
from services.gateway.tables.off_loop import BACKGROUND_NICE, OffLoop
from services.gateway.tables.service import Gateway
from services.gateway.tokens import Role, sign
from tests.fakes import Appended, MemoryAppender, gateway_adapters
from tests.helpers import played_deals_file, wait_for, wait_for_async
from tests.unit.test_event_doors import on_socket

DIRECTOR = "d" * 32
SIZE = int(1.9 * 2**20)  # the file


class HeldAppender(MemoryAppender):
    """The producer, whose appends to tables' topics wait until `release` is set (a broker
    that has not acknowledged them yet); `held` counts those waiting."""

    def __init__(self) -> None:
        super().__init__()
        self.release = asyncio.Event()
        self.held = 0

    async def send_and_wait(self, topic: str, value: bytes, key: bytes | None = None,
                            partition: int | None = None) -> Appended:
        if topic.startswith(TABLE_PREFIX):
            self.held += 1
            try:
                await self.release.wait()
            finally:
                self.held -= 1
        return await super().send_and_wait(topic, value, key, partition)


async def gateway_app(tmp_path: Path, producer: MemoryAppender, **settings: Any) -> Guard:
    """The gateway with table t1 known, its producer `producer`."""
    adapters = gateway_adapters(producer=producer)
    app = create_app(Settings(TABLESERVER_SIGNING_KEY="k" * 32,
                              TABLESERVER_DIRECTOR_TOKEN=DIRECTOR, TABLESERVER_DATA=tmp_path,
                              **settings), adapters)
    await adapters.store.remember_tables({"t1": {"table": "t1", "ruleset": "duplicate",
                                                 "created": 1}})
    return app


def gateway_of(guard: Guard) -> Gateway:
    assert isinstance(guard.app, FastAPI)
    found: Gateway = guard.app.state.gateway
    return found


def seat(guard: Guard, at: str = "N") -> dict[str, str]:
    token = sign(gateway_of(guard).signing_key, "t1", at, Role.SEAT, expires=2**40)
    return {"Authorization": f"Bearer {token}"}


def call(client_seq: int) -> dict[str, Any]:
    return {"type": "call", "call": "1C", "client_seq": client_seq}


class Entered:
    """An ASGI app's wrapper that notes when a request to `path` has had its whole body
    read (`read`): from then on the request is the gateway's to work on."""

    def __init__(self, app: Guard, path: str) -> None:
        self.app, self.path = app, path
        self.read = asyncio.Event()

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any
                       ) -> None:
        if scope.get("path") != self.path:
            await self.app(scope, receive, send)
            return

        async def noted() -> MutableMapping[str, Any]:
            message: MutableMapping[str, Any] = await receive()
            if message["type"] == "http.request" and not message.get("more_body"):
                self.read.set()
            return message

        await self.app(scope, noted, send)


async def test_a_large_deals_file_leaves_the_loop_to_livez_and_a_seats_call(
        tmp_path: Path) -> None:
    """Off the loop: a 1.9 MiB deals file with play sections, whose last board cannot be
    read (so its whole parse is what the request costs: then a 400, no I/O). Once the
    gateway has the whole body, `/livez` and a seat's call are answered while it is still
    being read. (Before, the parse ran on the loop: no other request had a turn until the
    creation was answered.)"""
    deals = played_deals_file(SIZE)
    broken = deals + '\n[Board "999999"]\n[Deal "N:AKQ.xx"]\n'
    guard = await gateway_app(tmp_path, MemoryAppender())
    entered = Entered(guard, "/api/tournaments")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(entered),  # type: ignore[arg-type]
                                 base_url="http://testserver", timeout=600) as client:
        creation = asyncio.create_task(client.post(
            "/api/tournaments", headers={"Authorization": f"Bearer {DIRECTOR}"},
            json={"tournament": "big", "tables": 2, "deals": broken}))
        await wait_for_async(lambda: entered.read.is_set() or creation.done(), 120,
                             "the creation's body read")
        live = await client.get("/livez")
        called = await client.post("/api/tables/t1/events", json=call(1),
                                   headers=seat(guard))
        in_flight = not creation.done()
        refused = await creation
    assert (live.status_code, called.status_code) == (200, 202), called.text
    assert in_flight, "the probe and the seat's call were answered only after the creation"
    assert refused.status_code == 400 and refused.json()["field"] == "deals", refused.text
    assert f"line {broken.count(chr(10))}:" in refused.json()["error"]  # its last line


async def test_past_its_bound_of_events_in_flight_the_gateway_refuses_503_with_retry_after(
        tmp_path: Path) -> None:
    """Overload: with `TABLESERVER_EVENTS_IN_FLIGHT` 2 (and no wait for a turn) and
    two calls waiting for Kafka, a third is refused at once, 503 with `Retry-After: 1`,
    through the call path, the
    FastAPI route and a socket (its ack's `retry_after`); the two are answered 202 once Kafka
    acknowledges them, and then an event is taken again. Nothing refused was appended."""
    producer = HeldAppender()
    guard = await gateway_app(tmp_path, producer, TABLESERVER_EVENTS_IN_FLIGHT=2,
                              TABLESERVER_EVENT_WAIT_MS=0)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(guard),
                                 base_url="http://testserver") as client, \
            httpx.AsyncClient(transport=httpx.ASGITransport(guard.app),
                              base_url="http://testserver") as routed:
        waiting = [asyncio.create_task(client.post("/api/tables/t1/events", json=call(n),
                                                   headers=seat(guard, at)))
                   for n, at in ((1, "N"), (2, "E"))]
        await wait_for_async(lambda: producer.held == 2, 30, "two calls waiting for Kafka")
        third = asyncio.create_task(client.post("/api/tables/t1/events", json=call(3),
                                                headers=seat(guard, "S")))
        await wait_for_async(lambda: third.done() or producer.held > 2, 30,
                             "the third call answered or waiting")
        assert producer.held == 2 and third.done(), "the third call waits with the others"
        fast = third.result()
        route = await routed.post("/api/tables/t1/events", json=call(3), headers=seat(guard, "S"))
        ack = await on_socket(guard, "t1", seat(guard, "S")["Authorization"][7:],
                              json.dumps(call(3)))
        producer.release.set()
        taken = [await answer for answer in waiting]
        after = await client.post("/api/tables/t1/events", json=call(3), headers=seat(guard, "S"))
    for refused in (fast, route):
        assert (refused.status_code, refused.headers.get("retry-after")) == (503, "1"), \
            refused.text
        assert "2 are under way" in refused.json()["error"]
    assert ack == {"ack": 3, **fast.json(), "status": 503, "retry_after": 1}
    assert [answer.status_code for answer in taken] == [202, 202]
    assert after.status_code == 202, after.text
    appended = [topic for topic, _, _, _ in producer.sent if topic.startswith(TABLE_PREFIX)]
    assert len(appended) == 3  # the two held and the one after: none of those refused


async def test_past_the_bound_an_event_waits_its_turn_in_order_or_is_refused_when_none_comes(
        ) -> None:
    """The bounded queue in front of the events (`gates.Gate`): past its limit (1) one more
    waits for a turn; the turns go in order of arrival, whoever arrives meanwhile (the table
    just answered coming straight back) waits behind; a wait that gets no turn in time, or
    one past `WAITING` × the limit waiting, is refused (`Busy`); one that leaves hands on a
    turn it was given. Refused at once instead, a call waited 29 s through 28 refusals while
    the tables let in came straight back (bench/overload_bench.py)."""
    gate = Gate(1, "events", wait_s=60)
    order: list[str] = []
    ends = {name: asyncio.Event() for name in "ABCD"}

    async def event(name: str) -> None:
        async with gate.slot():
            order.append(name)
            await ends[name].wait()

    first = asyncio.create_task(event("A"))
    await wait_for_async(lambda: order == ["A"], 10, "A under way")
    waiting = [asyncio.create_task(event(name)) for name in "BC"]
    await wait_for_async(lambda: len(gate.waiting) == 2, 10, "B and C waiting")
    ends["A"].set()
    await first
    again = asyncio.create_task(event("D"))  # arrives as A ends: behind C
    await wait_for_async(lambda: order == ["A", "B"] and len(gate.waiting) == 2, 10,
                         "B's turn, C and D waiting")
    for name in "BC":
        ends[name].set()
    await wait_for_async(lambda: order == ["A", "B", "C", "D"], 10, "C's turn, then D's")
    ends["D"].set()
    await asyncio.gather(*waiting, again)
    assert gate.taken == 0 and not gate.waiting

    patient = Gate(1, "events", wait_s=60)
    async with patient.slot():
        turns = [patient.slot() for _ in range(WAITING)]  # kept: one let go ends its turn
        crowd = [asyncio.create_task(turn.__aenter__()) for turn in turns]
        await wait_for_async(lambda: len(patient.waiting) == WAITING, 10, "the queue full")
        with pytest.raises(Busy, match="1 are under way"):  # past WAITING × 1: at once
            async with patient.slot():
                pass
        crowd[0].cancel()  # a client gone: its place is given up
        await wait_for_async(lambda: len(patient.waiting) == WAITING - 1, 10, "one gone")
    await wait_for_async(lambda: crowd[1].done(), 10, "the next in line has the turn")
    assert patient.taken == 1 and len(patient.waiting) == WAITING - 2
    for task in crowd[2:]:
        task.cancel()
    await asyncio.gather(*crowd, return_exceptions=True)
    hurried = Gate(1, "events", wait_s=0.05)
    async with hurried.slot():
        with pytest.raises(Busy):  # no turn within its wait
            async with hurried.slot():
                pass
    assert hurried.taken == 0 and not hurried.waiting


@pytest.mark.parametrize("client", ["robots", "demo"])
async def test_the_clients_that_retry_wait_out_a_503s_retry_after_and_send_the_same_event(
        client: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The robots' link to the gateway and `make run`'s demo players: a 503 with
    `Retry-After: 3` (the gateway at its bound) is sent again, the same body, after 3 s."""
    from services.cli import demo_play as demo
    from services.robots import gateway_link

    sent: list[bytes] = []
    answers = [httpx.Response(503, headers={"Retry-After": "3"}, json={
        "error": "too many events at once: 128 are under way on this gateway; retry after 1 s"}),
        httpx.Response(202, json={"offset": 7})]

    def gateway(request: httpx.Request) -> httpx.Response:
        sent.append(request.content)
        return answers[len(sent) - 1]

    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    event = call(4)
    http = httpx.AsyncClient(transport=httpx.MockTransport(gateway), base_url="http://gw")
    async with http:
        if client == "robots":
            monkeypatch.setattr(gateway_link.asyncio, "sleep", sleep)
            link = gateway_link.GatewayLink("http://gw", "t1", "token")
            await link.http.aclose()
            link.http = http
            await link.send(event)
        else:
            monkeypatch.setattr(demo.asyncio, "sleep", sleep)
            await demo.send(http, "/api/tables/t1/events", event, "token")
    assert slept == [3.0]
    assert len(sent) == 2 and sent[0] == sent[1] and json.loads(sent[0]) == event


def gone(pid: int) -> bool:
    """Whether process `pid` has exited (a zombie not reaped yet counts)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "State:\tZ" in status


def test_the_worker_process_exits_when_its_gateway_is_killed(tmp_path: Path) -> None:
    """A gateway killed (SIGKILL) leaves no worker process behind: before, the worker waited
    for work for ever, and kept its fork server alive."""
    script = ("import asyncio, os\n"
              "from services.gateway.tables.off_loop import OffLoop\n"
              "async def main():\n"
              "    pool = OffLoop()\n"
              "    print(await pool.run(os.getpid), flush=True)\n"
              "    await asyncio.Event().wait()\n"
              "asyncio.run(main())\n")
    gateway = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).parents[2],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert gateway.stdout is not None
        worker = int(gateway.stdout.readline())
        assert not gone(worker)
    finally:
        gateway.kill()
        gateway.wait()
    wait_for(lambda: gone(worker), 30, "the worker gone after its gateway")


async def test_the_background_pools_process_is_niced_and_the_waited_for_pool_is_not() -> None:
    """Hand records (750 boards of an evening) are solved on spare CPU only: the background
    pool's process runs `BACKGROUND_NICE` nicer than the gateway; the pool of the work someone
    waits for, as nice as the gateway."""
    background, waited_for = OffLoop(nice=BACKGROUND_NICE), OffLoop()
    try:
        assert await background.run(os.nice, 0) == os.nice(0) + BACKGROUND_NICE
        assert await waited_for.run(os.nice, 0) == os.nice(0)
    finally:
        background.stop()
        waited_for.stop()


async def test_the_pools_start_is_waited_for_off_the_loop(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """A submit may start the pool's process (the fork server started, a worker forked: 3.5 s
    at a busy evening's first hand records), so it is made from a thread: here the submit
    waits for a gate only the loop opens, which it could not if the submit held the loop."""
    off_loop = OffLoop()
    pool = off_loop._pool()
    submit = pool.submit
    gate = threading.Event()

    def gated(*args: Any) -> Any:
        if not gate.wait(10):
            raise AssertionError("the submit held the loop: the loop never opened the gate")
        return submit(*args)

    monkeypatch.setattr(pool, "submit", gated)
    asyncio.get_running_loop().call_soon(gate.set)
    try:
        assert await off_loop.run(pow, 2, 10) == 1024
    finally:
        off_loop.stop()
