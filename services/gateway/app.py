"""The gateway: HTTP and WebSocket for seats, spectators and directors.

It authenticates, judges syntax only (the Laws are the processor's), appends events to the
table's topic and answers with the offset once Kafka has acknowledged them; it reads states
from Redis and alerts from Kafka. See docs/api.md for the API.

    app.py      the app: its adapters' lifespan, its error handlers, its routers, the guard
    bootstrap.py  its adapters (ports.py), real or given, and its long-lived readers
    service.py  what it does (tokens, tables, events checked and appended: `accept_event`)
    refusals.py its domain errors; errors.py their HTTP statuses (the edge)
    doors.py    an event's doors (the route, the call path, a socket) read it once, translate
    routes/     a module per resource; deps.py their typed dependencies; models.py bodies
    asgi.py     the plain ASGI guard in front (limits; the call path without FastAPI)
    fanout.py, alert_feed.py, sockets.py   the live feeds
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from services.common import gc_settle
from services.common.loop_watch import LoopWatch
from services.common.settings import Settings
from services.common.supervision import Supervisor
from services.common.task_end import cancel_until_done
from services.gateway.bootstrap import Adapters, background, real_adapters
from services.gateway.http import route_warmup
from services.gateway.http.asgi import Guard
from services.gateway.http.docs import install_docs
from services.gateway.http.doors import admission, events_answer
from services.gateway.http.errors import install_error_handlers
from services.gateway.http.routes import (
    alerts,
    clock,
    entries,
    events,
    feeds,
    fouled_boards,
    health,
    player_boards,
    players,
    reading,
    results_import,
    robots,
    substitutes,
    tables,
    tournaments,
)
from services.gateway.http.routes.pages import install_pages
from services.gateway.tables.seat_presence import pages_of
from services.gateway.tables.service import Gateway
from services.gateway.tournaments.clock import run_clock
from services.gateway.tournaments.close import resume
from services.gateway.tournaments.public_boards import public_of
from services.gateway.tournaments.substitutes import run_substitutes


def create_app(settings: Settings | None = None, adapters: Adapters | None = None,
               supervisor: Supervisor | None = None) -> Guard:
    """The gateway as an ASGI app: `Guard` (limits, and the call path) in front of FastAPI.
    Its adapters are `adapters` (fakes, in tests), else the real ones, started by its
    lifespan; its long-lived readers run under `supervisor` (a death stops the process)."""
    gateway = Gateway(settings or Settings(), adapters)
    watch = supervisor or Supervisor()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            if adapters is None:
                gateway.adapters = await stack.enter_async_context(
                    real_adapters(gateway.settings))
                stack.callback(setattr, gateway, "adapters", None)
            tasks = background(gateway.adapters)
            tasks["the public's boards"] = public_of(gateway).run
            tasks["the rounds' clock"] = partial(run_clock, gateway)
            tasks["the substitutes"] = partial(run_substitutes, gateway)
            tasks["the seats' open pages"] = pages_of(gateway).run
            if gateway.settings.loop_held_ms:
                tasks["the loop's watch"] = LoopWatch(gateway.settings.loop_held_ms).run
            if adapters is None:  # closes cut short, finished (`closing.py`)
                tasks["closes resumed"] = partial(resume, gateway)
                tasks["the full collections"] = gc_settle.run  # at the process's own times
            for name, run in tasks.items():
                task = watch.supervised(asyncio.create_task(run(), name=name), name)
                stack.push_async_callback(cancel_until_done, task)  # before the adapters stop
            if adapters is None:  # the real gateway: its routes built before it serves
                route_warmup.warm(app)
            gc_settle.settle()
            try:
                yield
            finally:
                await gateway.appends.stop()
                gateway.off_loop.stop()
                gateway.background.stop()

    app = FastAPI(title="tableserver gateway", version="0.1.0", lifespan=lifespan,
                  description="An event-sourced table server for contract bridge: see "
                  "docs/api.md for the event schema and the state of a board.")
    app.state.gateway = gateway
    install_error_handlers(app)
    for module in (tables, tournaments, results_import, fouled_boards, clock, entries,
                   player_boards, players, robots, events, reading, alerts, feeds, health,
                   substitutes):
        app.include_router(module.router)
    install_docs(app)  # /docs and /redoc from local files: no CDN
    install_pages(app)  # the web pages, /seat …, and their assets under /web
    app.openapi = lambda: _without_422(app)  # type: ignore[method-assign]
    return Guard(app, max_body=gateway.settings.max_body_bytes,
                 max_upload=gateway.settings.max_upload_bytes,
                 origins=gateway.settings.allowed_origins, events=events_answer(gateway),
                 admit=admission(gateway))




def _without_422(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI schema without FastAPI's 422, which this gateway never answers (its
    validation errors are 400s, `services.gateway.http.errors`)."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version=app.version,
                             description=app.description, routes=app.routes)
        for path in schema.get("paths", {}).values():
            for operation in path.values():
                if operation.get("responses", {}).pop("422", None) is not None:
                    operation["responses"].setdefault("400", {
                        "description": "bad input",
                        "content": {"application/json": {"schema": {
                            "$ref": "#/components/schemas/ErrorBody"}}}})
        for name in ("HTTPValidationError", "ValidationError"):
            schema.get("components", {}).get("schemas", {}).pop(name, None)
        app.openapi_schema = schema
    return app.openapi_schema
