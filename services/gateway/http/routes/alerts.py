"""The director's alerts, from Kafka's alerts topic (`services.gateway.feeds.alert_feed`), and his
marks on those he has dealt with (`tableserver.alerts.handled`)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Annotated

import orjson
from fastapi import APIRouter, Path, Query, Response

from services.common.errors import Unavailable
from services.common.kafka.produce import append
from services.common.kafka.reader import KafkaUnavailable
from services.common.names import HANDLED
from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.http.models import MarkAlert
from services.gateway.http.state_models import AlertsList, HandledMarks, Mark
from services.gateway.refusals import Kind, Refused
from services.gateway.tables.service import Gateway
from services.gateway.tables.table_logs import table_log
from shared.ids import ALERT_ID
from shared.table.table_run import TableRun

router = APIRouter(prefix="/api/alerts", tags=["alerts"])
REPLAY_TIMEOUT_S = 30  # a mark's alert found by folding its table: a broker that stops answering


@router.get("", responses=responses(400, 401, 403), response_model=AlertsList)
async def get_alerts(gw: GatewayDep, _: DirectorDep,
                     count: Annotated[int, Query(ge=1, le=1000)] = 100) -> Response:
    """The latest alerts, oldest first; each with the director's mark (`handled`) once he has
    dealt with it. Written as the alerts topic holds them, typed there
    (`feeds.alerts_view`), not validated again."""
    listed: AlertsList = {"alerts": gw.adapters.alerts.latest(count)}
    return Response(orjson.dumps(listed), media_type="application/json")


@router.get("/handled", responses=responses(401, 403), response_model=HandledMarks)
async def get_handled(gw: GatewayDep, _: DirectorDep) -> Response:
    """Every alert the director has marked as dealt with: its id → the mark."""
    marks: HandledMarks = {"handled": gw.adapters.alerts.handled}
    return Response(orjson.dumps(marks), media_type="application/json")


@router.post("/{alert_id}/handled", status_code=202,
             responses=responses(400, 401, 403, 404, 503))
async def mark_handled(alert_id: Annotated[str, Path(description="the alert's `id`, e.g. "
                                                      "t1:3:42:0")],
                       body: MarkAlert, gw: GatewayDep, _: DirectorDep) -> Mark:
    """Mark an alert as dealt with (`handled: false` takes the mark back), on every gateway's
    console: the mark is appended to `tableserver.alerts.handled` once Kafka acknowledges
    it. Marking again is harmless; an alert that was never raised is a 404."""
    if not ALERT_ID.fullmatch(alert_id):
        raise Refused(f"{alert_id!r} is not an alert's id (table:board:offset:n)",
                      "alert_id")
    if not await _raised(gw, alert_id):
        raise Refused(f"no alert {alert_id}: its table raised none with that id",
                      "alert_id", kind=Kind.NOT_FOUND)
    mark: Mark = {"alert": alert_id, "handled": body.handled, "note": body.note,
                  "ts": int(time.time() * 1000)}
    value = json.dumps(mark).encode()
    try:
        await append(gw.adapters.producer, HANDLED, value, key=alert_id.encode(),
                     timeout_s=gw.settings.produce_timeout_s)
    except Unavailable:  # Kafka's errors and time-outs (`produce.append`)
        raise Unavailable("Kafka did not acknowledge the mark in time; retry",
                          retry_after=1) from None
    gw.adapters.alerts.handled[alert_id] = mark  # this gateway knows at once
    return mark


async def _raised(gw: Gateway, alert_id: str) -> bool:
    """Whether `alert_id` was raised: among the alerts this gateway keeps, else found by
    folding its table's topic up to the event that would have raised it (the ids are
    deterministic: the processor raised the same). 404 for a table that does not exist."""
    if gw.adapters.alerts.knows(alert_id):
        return True
    table, _, rest = alert_id.partition(":")
    try:
        await gw.table_meta(table)
    except Refused as exc:
        if exc.kind == Kind.NOT_FOUND:
            raise Refused(f"no alert {alert_id}: no table {table}", "alert_id",
                          Kind.NOT_FOUND) from None
        raise
    offset = int(rest.split(":")[1])  # board:offset:n, or poison:offset
    try:
        records = await asyncio.wait_for(table_log(gw, table, offset), REPLAY_TIMEOUT_S)
    except (KafkaUnavailable, TimeoutError):
        raise Unavailable("Kafka did not give the table's history in time; retry",
                          retry_after=2) from None
    run = TableRun(table)
    for at, value in records:
        if any(raised == alert_id for raised, _ in run.apply(at, value)):
            return True
    return False
