"""Redis's faults leave its adapters as ours (`StoreUnavailable`, services/common/redis_faults.py):
the store, the registry's copy, the feeds' readers, the robots' marks and the HTTP edge, each
given a Redis client that fails every command as redis-py does when Redis is away (or answers
an error), with no network."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, cast

import httpx
import pytest
from fastapi import FastAPI
from redis.exceptions import ConnectionError as RedisConnectionError, RedisError, ResponseError

from services.common import registry
from services.common.errors import STORE_DOWN, STORE_RETRY_S, StoreUnavailable, Unavailable
from services.common.redis_connect import AnyRedis
from services.common.redis_faults import store_faults, unreachable
from services.common.store import RedisStore, StateWrite
from services.gateway.feeds.fanout import FeedHub
from services.gateway.feeds.public_feeds import PublicFeeds
from services.gateway.http.errors import install_error_handlers
from services.robots.presence import RedisPresence
from services.robots.round_ends import RedisRoundEnds

pytestmark = pytest.mark.unit


class _Pipeline:
    def __init__(self, fault: RedisError) -> None:
        self.fault = fault

    async def __aenter__(self) -> _Pipeline:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None  # a command queued

    async def execute(self) -> list[Any]:
        raise self.fault


class AwayRedis:
    """A redis-py client whose every command (and pipeline) raises `fault`."""

    def __init__(self, fault: RedisError | None = None) -> None:
        self.fault = fault or RedisConnectionError("Error 111 connecting to 127.0.0.1:6379")
        self.calls = 0

    def pipeline(self, transaction: bool = True) -> _Pipeline:
        self.calls += 1
        return _Pipeline(self.fault)

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        async def command(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            raise self.fault
        return command


def away(fault: RedisError | None = None) -> AnyRedis:
    return cast(AnyRedis, AwayRedis(fault))


STORE_CALLS: dict[str, Callable[[RedisStore], Awaitable[object]]] = {
    "write_batch": lambda s: s.write_batch([StateWrite("t1", 1, cast(Any, {}))]),
    "read_state": lambda s: s.read_state("t1"),
    "overview": lambda s: s.overview(["t1"]),
    "table_records": lambda s: s.table_records(),  # through the registry
    "tournament_record": lambda s: s.tournament_record("cup"),
    "take_clock": lambda s: s.take_clock("cup", 0),
    "robots_present": lambda s: s.robots_present(["t1"]),
    "pages_open": lambda s: s.pages_open(["t1"]),
    "is_alive": lambda s: s.is_alive(0),
    "ping": lambda s: s.ping(),
}


@pytest.mark.parametrize("call", sorted(STORE_CALLS))
async def test_the_store_raises_ours_when_redis_is_away(call: str) -> None:
    redis = away()
    with pytest.raises(StoreUnavailable) as caught:
        await STORE_CALLS[call](RedisStore(redis))
    assert cast(AwayRedis, redis).calls >= 1  # Redis was asked
    assert isinstance(caught.value, Unavailable)  # a 503, a socket's 1011, an outage
    assert (caught.value.reason, caught.value.retry_after) == (STORE_DOWN, STORE_RETRY_S)
    assert isinstance(caught.value.__cause__, RedisConnectionError)
    assert unreachable(caught.value)


async def test_an_error_redis_answers_is_ours_too_and_told_from_unreachable() -> None:
    with pytest.raises(StoreUnavailable) as caught:
        await RedisStore(away(ResponseError("READONLY replica"))).read_state("t1")
    assert not unreachable(caught.value)
    assert str(caught.value.__cause__) == "READONLY replica"


async def test_the_registry_claims_and_reads_raise_ours() -> None:
    with pytest.raises(StoreUnavailable):
        await registry.claim(away(), {"t1": registry.new_record("t1", "acbl")})
    with pytest.raises(StoreUnavailable):
        await registry.record_of(away(), "t1")


async def test_the_feeds_readers_subscribe_and_read_raise_ours() -> None:
    with pytest.raises(StoreUnavailable):
        await FeedHub(away(), away()).subscribe("feed:t1", None, "view",
                                                lambda entry, fields: entry)
    public = PublicFeeds(away(), delay_ms=0)
    with pytest.raises(StoreUnavailable):
        await public.shown("feed:t1")
    with pytest.raises(StoreUnavailable):
        await public.subscribe("feed:t1", None, "view", lambda entry, fields: entry)


async def test_the_robots_marks_go_on_without_redis() -> None:
    """Unchanged: a robot's mark not written is logged, a round's end not read is "not over"."""
    redis = away()
    await RedisPresence(redis).seated("t1", "N", "robot")
    assert await RedisRoundEnds(redis).over("t1", 1) is False
    assert cast(AwayRedis, redis).calls == 2


def test_a_fault_outside_redis_passes_untouched() -> None:
    with pytest.raises(ValueError), store_faults():
        raise ValueError("not Redis's")


async def test_the_http_edge_answers_ours_503_with_retry_after() -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/state")
    async def state() -> dict[str, Any]:
        return {"state": await RedisStore(away()).read_state("t1")}

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app),
                                 base_url="http://gateway") as client:
        answer = await client.get("/state")
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == str(STORE_RETRY_S)
    assert answer.json() == {"error": STORE_DOWN}


class DownStore:
    """A store every call of which raises ours, as `RedisStore` does while Redis is away."""

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            raise StoreUnavailable()
        return call


async def test_the_directors_live_overview_closes_1011_retry_when_redis_is_away() -> None:
    """Unchanged: the tournament's live socket (docs/api.md) closed 1011, "retry"."""
    from services.common.settings import Settings
    from services.gateway.app import create_app
    from tests.fakes import gateway_adapters

    director = "d" * 32
    app = create_app(Settings(TABLESERVER_SIGNING_KEY="k" * 32,
                              TABLESERVER_DIRECTOR_TOKEN=director),
                     gateway_adapters(store=DownStore()))
    path = "/api/tournaments/spring/live"
    scope = {"type": "websocket", "asgi": {"version": "3.0", "spec_version": "2.4"},
             "scheme": "ws", "http_version": "1.1", "path": path, "raw_path": path.encode(),
             "root_path": "", "query_string": f"token={director}".encode(),
             "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 50000),
             "server": ("testserver", 80), "subprotocols": [], "state": {}}
    incoming = [{"type": "websocket.connect"}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0)

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    assert [m["type"] for m in sent] == ["websocket.accept", "websocket.close"]
    assert (sent[1]["code"], sent[1]["reason"]) == (1011, "Redis is unreachable; retry")
