"""The gateway: HTTP and WebSocket for seats, spectators and directors.

It authenticates, judges syntax only (the Laws are the processor's), appends events to the
table's topic and answers with the offset once Kafka has acknowledged them; it reads states
from Redis. See the README for the API.
"""


import asyncio
import hmac
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.errors import KafkaError
from fastapi import Depends, FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from services.gateway.alert_feed import AlertFeed
from services.gateway.asgi import Guard
from services.gateway.fanout import FeedHub
from services.gateway.limits import SharedLimit
from services.gateway.probes import dependencies
from services.gateway.sockets import serve_feed
from services.gateway.tokens import Grant, TokenError, expiry_of, sign, verify
from services.gateway.views import board_for, entry_for
from services.gc_settle import settle
from services.kafka_admin import ensure_core_topics
from services.live import send_copy
from services.names import (
    ALERTS,
    TABLE_ID,
    feed_key,
    table_topic,
)
from services.replay.history import NoSuchBoard, build_history, events_of
from services.replay.reader import KafkaUnavailable, NoTableError, TableReader
from services.settings import Settings
from services.store import StateStore
from services.tables import create_table, table_record
from shared.codec import EventError, encode, from_map
from shared.notation.export import to_lin, to_pbn

SEAT_EVENTS = {"call", "option", "card_exposed", "call_changed", "opening_lead", "question",
               "explanation"}
DIRECTOR_EVENTS = SEAT_EVENTS | {"ruling"}
REDIS_CONNECTIONS = 64  # the pool's bound, whatever the number of sockets
HISTORY_READERS = 2  # long-lived consumers that read tables' topics for /history


class ApiError(Exception):
    """A refusal: its status, its message and the field at fault; `retry_after` (seconds) for
    a service that is down, which the client may try again."""

    def __init__(self, status: int, message: str, field: str | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.field = status, message, field
        self.retry_after = retry_after

    @property
    def headers(self) -> dict[str, str]:
        return {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}


REDIS_DOWN = "the state store (Redis) is unreachable; retry"


def error_body(exc: ApiError) -> dict[str, Any]:
    body: dict[str, Any] = {"error": exc.message}
    if exc.field:
        body["field"] = exc.field
    return body


def create_app(settings: Settings | None = None) -> Guard:
    """The gateway as an ASGI app: `Guard` (limits, and the call path) in front of FastAPI."""
    settings = settings or Settings()
    director_token = settings.director_token()
    signing_key = settings.signing_key()
    clients: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        admin = AIOKafkaAdminClient(bootstrap_servers=settings.kafka_bootstrap)
        await admin.start()
        await ensure_core_topics(admin, settings.shards, settings.replication)
        producer = AIOKafkaProducer(bootstrap_servers=settings.kafka_bootstrap, acks="all",
                                    enable_idempotence=True, linger_ms=0)
        await producer.start()
        # Short commands share a bounded pool (a burst waits for a connection instead of
        # opening hundreds); the feeds' hub reads with a connection of its own.
        redis = Redis(connection_pool=BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=REDIS_CONNECTIONS, timeout=5,
            client_name="tableserver-gateway", socket_connect_timeout=2, socket_timeout=5))
        feeds_redis = Redis.from_url(settings.redis_url, socket_timeout=30,  # > its XREAD BLOCK
                                     client_name="tableserver-gateway-feeds")
        hub = FeedHub(feeds_redis, redis)
        hub_task = asyncio.create_task(hub.run())
        alert_feed = AlertFeed(settings.kafka_bootstrap)
        await alert_feed.start()
        alerts_task = asyncio.create_task(alert_feed.run())
        readers = [TableReader(settings.kafka_bootstrap) for _ in range(HISTORY_READERS)]
        for reader in readers:
            await reader.start()
        clients.update(admin=admin, producer=producer, redis=redis, store=StateStore(redis),
                       hub=hub, alerts=alert_feed, readers=asyncio.Queue(), seat_limit=SharedLimit(
                           redis, "tableserver:rate:seat:", settings.calls_per_second,
                           settings.calls_per_second),
                       history_limit=SharedLimit(redis, "tableserver:rate:history:",
                                                 settings.history_per_second,
                                                 5 * settings.history_per_second))
        for reader in readers:
            clients["readers"].put_nowait(reader)
        settle()
        try:
            yield
        finally:
            hub_task.cancel()
            alerts_task.cancel()
            await alert_feed.stop()
            for reader in readers:
                await reader.stop()
            await producer.stop()
            await admin.close()
            await redis.aclose()
            await feeds_redis.aclose()

    app = FastAPI(title="tableserver gateway", version="0.1.0", lifespan=lifespan)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(error_body(exc), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        """FastAPI's own checks (a query parameter that is not a number…) in our shape."""
        first = exc.errors()[0] if exc.errors() else {}
        field = str(first.get("loc", ("", "?"))[-1])
        return await api_error(request, ApiError(
            400, f"field {field!r}: {first.get('msg', 'invalid')}", field))

    @app.exception_handler(RedisError)
    async def redis_down(request: Request, exc: RedisError) -> JSONResponse:
        return await api_error(request, ApiError(503, REDIS_DOWN, retry_after=2))

    verified: dict[str, tuple[Grant, int]] = {}  # token → grant and expiry, once checked

    def grant_of(token: str | None) -> Grant:
        if not token:
            raise ApiError(401, "missing token (Authorization: Bearer …)")
        if hmac.compare_digest(token.encode(), director_token.encode()):
            return Grant(None, None, "director")
        now = int(time.time())
        known = verified.get(token)
        if known is not None and known[1] >= now:
            return known[0]
        try:
            grant = verify(signing_key, token, now)
        except TokenError as exc:
            raise ApiError(401, str(exc)) from None
        if len(verified) > 100_000:  # a bound, not an eviction policy: start again
            verified.clear()
        verified[token] = (grant, expiry_of(token))
        return grant

    def grant_from(authorization: str | None) -> Grant:
        scheme, _, token = (authorization or "").partition(" ")
        return grant_of(token if scheme.lower() == "bearer" else None)

    async def bearer(authorization: Annotated[str | None, Header()] = None) -> Grant:
        return grant_from(authorization)

    GrantDep = Annotated[Grant, Depends(bearer)]

    def director(grant: Grant) -> None:
        if grant.role != "director":
            raise ApiError(403, "only the director may do this")

    def may_read(grant: Grant, table: str) -> None:
        if grant.role != "director" and grant.table != table:
            raise ApiError(403, f"this token is not for table {table}")

    async def json_body(request: Request) -> dict[str, Any]:
        return parse_body(await request.body())

    def parse_body(raw: bytes) -> dict[str, Any]:
        if len(raw) > settings.max_body_bytes:
            raise ApiError(413, f"body larger than {settings.max_body_bytes} bytes")
        try:
            body = json.loads(raw)
        except ValueError as exc:
            raise ApiError(400, f"body is not JSON: {exc}", "body") from None
        except RecursionError:  # the decoder's own bound on nesting, well before the stack's
            raise ApiError(400, "body is nested too deep", "body") from None
        if not isinstance(body, dict):
            raise ApiError(400, "body must be a JSON object")
        return body

    known_tables: dict[str, dict[str, Any]] = {}  # tables never go away: cache what we saw

    async def table_meta(table: str) -> dict[str, Any]:
        meta = known_tables.get(table)
        if meta is None:
            found = await table_record(clients["redis"], table)
            if found is None:
                raise ApiError(404, f"no table {table}")
            meta = known_tables[table] = found
        return meta

    async def append(table: str, event_map: dict[str, Any]) -> int:
        try:
            event = from_map(event_map)
        except EventError as exc:
            raise ApiError(400, str(exc), exc.field) from None
        value = encode(event)
        try:  # bounded: with the broker down, the client hears so and may retry
            metadata = await asyncio.wait_for(
                clients["producer"].send_and_wait(table_topic(table), value),
                settings.produce_timeout_s)
        except (KafkaError, TimeoutError) as exc:
            # not acknowledged, though it may still be appended: a retry with the same
            # client_seq is folded once (shared.engine)
            reason = "in time" if isinstance(exc, TimeoutError) else f"({exc})"
            raise ApiError(503, f"Kafka did not acknowledge the event {reason}; retry with "
                           "the same client_seq", retry_after=1) from None
        await send_copy(clients["producer"], table, metadata.offset, value, settings.shards)
        return int(metadata.offset)

    @app.post("/api/tables", status_code=201)
    async def post_table(request: Request, grant: GrantDep) -> dict[str, Any]:
        director(grant)
        body = await json_body(request)
        table = body.get("table")
        if not isinstance(table, str) or not TABLE_ID.fullmatch(table):
            raise ApiError(400, "field 'table': 1–63 letters, digits, - or _", "table")
        ruleset = body.get("ruleset", "duplicate")
        if ruleset not in ("duplicate", "rubber"):
            raise ApiError(400, "field 'ruleset': duplicate or rubber", "ruleset")
        try:
            meta = await asyncio.wait_for(create_table(
                clients["admin"], clients["producer"], clients["redis"], table, ruleset,
                settings.replication, settings.shards), 2 * settings.produce_timeout_s)
        except (KafkaError, TimeoutError):
            raise ApiError(503, "Kafka did not create the table in time; retry (creating a "
                           "table twice is harmless)", retry_after=1) from None
        if meta["ruleset"] != ruleset:
            raise ApiError(409, f"table {table} exists with ruleset {meta['ruleset']}",
                           "ruleset")
        expires = int(time.time()) + settings.token_ttl_s
        return {"table": table, "ruleset": ruleset,
                "seats": {s: sign(signing_key, table, s, "seat", expires) for s in "NESW"},
                "spectator": sign(signing_key, table, None, "spectator", expires)}

    @app.post("/api/tables/{table}/boards", status_code=202)
    async def start_board(table: str, request: Request, grant: GrantDep) -> dict[str, Any]:
        director(grant)
        meta = await table_meta(table)
        body = await json_body(request)
        event = {"ruleset": meta["ruleset"], **body, "type": "board_started",
                 "ts": int(time.time() * 1000)}
        return {"offset": await append(table, event)}

    async def explains_own_call(table: str, seat: str | None, index: Any) -> None:
        """Law 20F with online self-alerting: a seat explains its own calls, to the opponents
        only; an explanation of his partner's call would pass free text to the partner. (At
        a physical table a partner explains aloud, to all: that is recorded by the table's
        operator, not sent from a seat.)"""
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            return  # the event's syntax check names the field
        found = await clients["store"].read_state(table)
        calls = found[1].get("calls", []) if found is not None else []
        if index >= len(calls):
            raise ApiError(409, f"no call at index {index} yet; retry once it is folded",
                           "index")
        if calls[index]["seat"] != seat:
            raise ApiError(403, "a seat explains its own calls only (Law 20F, online "
                           f"self-alerting): the call at index {index} is "
                           f"{calls[index]['seat']}'s", "index")

    async def accept_event(table: str, grant: Grant, raw: bytes) -> dict[str, Any]:
        """An event from a seat (its seat from the token) or the director, appended to the
        table's topic once its syntax and the sender's authority are checked."""
        if grant.role == "spectator":
            raise ApiError(403, "spectators do not make calls")
        may_read(grant, table)
        await table_meta(table)
        body = parse_body(raw)
        kind = body.get("type")
        if grant.role == "seat":
            if "seat" in body:
                raise ApiError(400, "field 'seat': the seat comes from your token, not the "
                               "body", "seat")
            if kind not in SEAT_EVENTS:
                raise ApiError(400, f"field 'type': a seat may send {sorted(SEAT_EVENTS)}",
                               "type")
            if not await clients["seat_limit"].allow(f"{table}/{grant.seat}",
                                                     time.monotonic()):
                raise ApiError(429, f"more than {settings.calls_per_second} events a second "
                               "from this seat")
            if kind == "explanation":
                await explains_own_call(table, grant.seat, body.get("index"))
            body = {**body, "seat": grant.seat}
        elif kind not in DIRECTOR_EVENTS:
            raise ApiError(400, f"field 'type': events here are {sorted(DIRECTOR_EVENTS)}",
                           "type")
        return {"offset": await append(table, {**body, "ts": int(time.time() * 1000)})}

    @app.post("/api/tables/{table}/events", status_code=202)
    async def post_event(table: str, request: Request, grant: GrantDep) -> dict[str, Any]:
        """Served by `services.gateway.asgi.Guard` without FastAPI's layers; here for OpenAPI
        and for any client the guard does not serve."""
        return await accept_event(table, grant, await request.body())

    async def event_response(table: str, authorization: str | None, raw: bytes
                             ) -> tuple[int, dict[str, Any], dict[str, str]]:
        try:
            grant = grant_from(authorization)
        except ApiError as refused:
            return refused.status, error_body(refused), refused.headers
        return await event_response_for(table, grant, raw)

    async def event_response_for(table: str, grant: Grant, raw: bytes
                                 ) -> tuple[int, dict[str, Any], dict[str, str]]:
        """An event sent over HTTP or on a socket: (status, body, headers), never raised."""
        try:
            return 202, await accept_event(table, grant, raw), {}
        except RedisError:
            exc = ApiError(503, REDIS_DOWN, retry_after=2)
        except ApiError as refused:
            exc = refused
        return exc.status, error_body(exc), exc.headers

    @app.get("/api/tables/{table}/state")
    async def get_state(table: str, grant: GrantDep) -> dict[str, Any]:
        may_read(grant, table)
        await table_meta(table)
        found = await clients["store"].read_state(table)
        if found is None:
            return {"table": table, "version": None, "board": None}
        version, board = found
        return {"table": table, "version": version,
                "board": board_for(grant, board, settings.spectator_delay_s,
                                   int(time.time() * 1000))}

    @app.get("/api/tables/{table}/history", response_model=None)
    async def get_history(table: str, grant: GrantDep, board: int | None = None,
                          until: int | None = None, format: str = "json"
                          ) -> dict[str, Any] | PlainTextResponse:
        """The table's history read from its topic (`tableserver replay`), as the reader may
        see it: every event with the alerts it raised, and the board's state at that point."""
        may_read(grant, table)
        await table_meta(table)
        if format not in ("json", "pbn", "lin"):
            raise ApiError(400, "field 'format': json, pbn or lin", "format")
        for name, value in (("board", board), ("until", until)):
            if value is not None and value < 0:
                raise ApiError(400, f"field {name!r} must be at least 0", name)
        holder = f"{grant.role}:{grant.table}:{grant.seat}"  # whoever the token is for
        if not await clients["history_limit"].allow(holder, time.monotonic()):
            raise ApiError(429, f"more than {settings.history_per_second} history reads a "
                           "second with this token", retry_after=1)
        reader = await clients["readers"].get()  # a long-lived consumer, one read at a time
        try:
            records = await reader.read(table, until)
            document = build_history(table, records, board, until)
        except (NoTableError, NoSuchBoard) as exc:
            raise ApiError(404, str(exc)) from None
        except KafkaUnavailable as exc:
            raise ApiError(503, f"{exc}; retry", retry_after=2) from None
        finally:
            clients["readers"].put_nowait(reader)
        now = int(time.time() * 1000)
        delay = settings.spectator_delay_s
        document["history"] = [entry_for(grant, e, delay, now) for e in document["history"]]
        if document["state"] is not None:
            document["state"] = board_for(grant, document["state"], delay, now)
        if format == "json":
            return document
        writer = to_pbn if format == "pbn" else to_lin
        return PlainTextResponse(writer(events_of(document)))

    @app.get("/api/alerts")
    async def get_alerts(grant: GrantDep, count: int = 100) -> dict[str, Any]:
        director(grant)
        return {"alerts": clients["alerts"].latest(max(1, min(count, 1000)))}

    async def ws_grant(websocket: WebSocket) -> Grant | None:
        origin = websocket.headers.get("origin")
        if origin and settings.allowed_origins and origin not in settings.allowed_origins:
            await websocket.close(code=4403)
            return None
        try:
            return grant_of(websocket.query_params.get("token"))
        except ApiError:
            await websocket.close(code=4401)
            return None

    @app.websocket("/api/tables/{table}/feed")
    async def table_feed(websocket: WebSocket, table: str) -> None:
        grant = await ws_grant(websocket)
        if grant is None:
            return
        if grant.role != "director" and grant.table != table:
            await websocket.close(code=4403)
            return

        def render(entry_id: str, fields: dict[bytes, bytes]) -> str:
            board = json.loads(fields[b"board"])
            return json.dumps({"id": entry_id, "version": int(fields[b"version"]),
                               "board": board_for(grant, board, settings.spectator_delay_s,
                                                  int(time.time() * 1000))})

        async def answer(text: str, body: dict[str, Any]) -> str | None:
            """An event sent on the socket: the same checks and append as the HTTP path;
            `{"ack": client_seq, "offset": n}` or `{"ack", "error", "field", "status"}`."""
            if body.get("type") not in DIRECTOR_EVENTS:
                return None
            status, reply, _ = await event_response_for(table, grant, text.encode())
            ack = body.get("client_seq")
            if status == 202:
                return json.dumps({"ack": ack, **reply})
            return json.dumps({"ack": ack, **reply, "status": status})

        await serve_feed(websocket, clients["hub"], feed_key(table), (grant.role, grant.seat),
                         render, answer=answer)

    @app.websocket("/api/alerts/feed")
    async def alerts_feed(websocket: WebSocket) -> None:
        grant = await ws_grant(websocket)
        if grant is None:
            return
        if grant.role != "director":
            await websocket.close(code=4403)
            return

        def render(entry_id: str, fields: dict[bytes, bytes]) -> str:
            return json.dumps({"id": entry_id, "alert": json.loads(fields[b"alert"])})

        await serve_feed(websocket, clients["alerts"], ALERTS, "director", render,
                         default_since="$")  # new alerts only, unless resuming

    async def checked() -> tuple[int, dict[str, str]]:
        found = await dependencies(clients["redis"], clients["producer"])
        healthy = all(v == "ok" for v in found.values())
        return (200 if healthy else 503), {"status": "ok" if healthy else "unavailable",
                                           **found}

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """Kafka and Redis, each "ok" or "unreachable"; 503 when either is down."""
        status, body = await checked()
        return JSONResponse(body, status_code=status)

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        """For probes: 200 when the gateway can take calls (Kafka and Redis reachable)."""
        status, _ = await checked()
        return JSONResponse({"ready": status == 200}, status_code=status)

    return Guard(app, max_body=settings.max_body_bytes, origins=settings.allowed_origins,
                 events=event_response)
