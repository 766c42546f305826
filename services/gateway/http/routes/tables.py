"""Tables and their boards: the director creates them and starts boards."""

from __future__ import annotations

import asyncio
import time

from fastapi import APIRouter

from services.common import registry
from services.common.errors import Unavailable
from services.gateway.http.deps import DirectorDep, GatewayDep
from services.gateway.http.errors import responses
from services.gateway.http.models import (
    Accepted,
    BoardStart,
    Closed,
    Hold,
    OperatorLink,
    Players,
    RoundStart,
    TableCreate,
    TableCreated,
    TableLinks,
    TableList,
    TableListed,
)
from services.gateway.http.routes.pages import operator_link, table_links
from services.gateway.ports import RegistryUnavailable, TopicsUnavailable
from services.gateway.refusals import REDIS_DOWN, Kind, Refused
from services.gateway.tables.closing import close
from services.gateway.tables.service import Gateway
from shared.events import Ruleset

router = APIRouter(prefix="/api/tables", tags=["tables"])


@router.post("", status_code=201, responses=responses(400, 401, 403, 409, 503))
async def post_table(body: TableCreate, gw: GatewayDep, _: DirectorDep) -> TableCreated:
    """Create a table (its topic, its record), or find it; the seats' and spectators' tokens."""
    settings, adapters = gw.settings, gw.adapters
    found = await adapters.store.table_record(body.table)
    if found is not None and "closed" in found:  # its topic is gone: none is made again
        raise Refused(f"table {body.table} was closed by the director; choose another name",
                      "table", kind=Kind.CONFLICT)
    meta = await _created(gw, body.table, body.ruleset)
    if meta["ruleset"] != body.ruleset:
        raise Refused(f"table {body.table} exists with ruleset {meta['ruleset']}",
                      "ruleset", kind=Kind.CONFLICT)
    links = table_links(gw.signing_key, body.table, int(time.time()) + settings.token_ttl_s,
                        settings.link_base)
    return TableCreated(**links.model_dump(), ruleset=body.ruleset)


NOT_CREATED = ("Kafka did not create the table in time; retry (creating a table twice is "
               "harmless)")


async def _created(gw: Gateway, table: str, ruleset: str) -> registry.TableRecord:
    """The table made, or found (`services.common.registry.create_table`, through the ports):
    its topic, its record in Redis (one that exists stands), then in the registry topic,
    within twice the time an append may take. Kafka away or slow: a 503 to retry; Redis away:
    Redis's own 503."""
    adapters = gw.adapters
    try:
        async with asyncio.timeout(2 * gw.settings.produce_timeout_s):
            await adapters.admin.create_table(table)
            record = (await adapters.registry.claim(
                {table: registry.new_record(table, ruleset)}))[table]
            await adapters.registry.register({table: record}, doing="register the table")
    except (TimeoutError, TopicsUnavailable):
        raise Unavailable(NOT_CREATED, retry_after=1) from None
    except RegistryUnavailable as exc:
        if exc.reason == REDIS_DOWN:  # the claim's: Redis away
            raise
        raise Unavailable(NOT_CREATED, retry_after=1) from None
    return record


@router.get("", responses=responses(401, 403, 503))
async def list_tables(gw: GatewayDep, _: DirectorDep) -> TableList:
    """Every table, with its ruleset and its tournament: the director's console lists them."""
    records = await gw.adapters.store.table_records()
    return TableList(tables=[
        TableListed(table=t, ruleset=Ruleset(meta.get("ruleset", Ruleset.DUPLICATE)),
                    tournament=meta.get("tournament")) for t, meta in sorted(records.items())])


@router.get("/{table}/links", responses=responses(401, 403, 404, 503))
async def get_links(table: str, gw: GatewayDep, _: DirectorDep) -> TableLinks:
    """The table's seat and spectator tokens and its seats' pages, to hand out again."""
    await gw.table_meta(table)
    return table_links(gw.signing_key, table, int(time.time()) + gw.settings.token_ttl_s,
                       gw.settings.link_base)


@router.post("/{table}/operator", responses=responses(401, 403, 404, 503))
async def post_operator(table: str, gw: GatewayDep, _: DirectorDep) -> OperatorLink:
    """A token for the table's operator (a vugraph operator, or the recorder at a physical
    table) and his capture page: it reads this table, the whole board, and sends the events
    of any of its four seats (the seat in the body); no ruling, no other table."""
    await gw.table_meta(table)
    return operator_link(gw.signing_key, table, int(time.time()) + gw.settings.token_ttl_s,
                         gw.settings.link_base)


@router.post("/{table}/boards", status_code=202,
             responses=responses(400, 401, 403, 404, 503))
async def start_board(table: str, body: BoardStart, gw: GatewayDep, _: DirectorDep
                      ) -> Accepted:
    """Start a board at the table (`board_started`, in the table's ruleset)."""
    meta = await gw.open_meta(table)
    event = {"ruleset": meta["ruleset"], **body.model_dump(exclude_none=True),
             "type": "board_started", "ts": int(time.time() * 1000)}
    return Accepted(offset=await gw.append(table, event))


@router.post("/{table}/rounds", status_code=202,
             responses=responses(400, 401, 403, 404, 503))
async def start_round(table: str, body: RoundStart, gw: GatewayDep, _: DirectorDep
                      ) -> Accepted:
    """Start a round at the table (`round_started`): its first board at once (or when the
    board in progress ends), each of the others when the auction period of the one before
    ends (a pass-out, or the opening lead faced)."""
    meta = await gw.open_meta(table)
    event = {"ruleset": meta["ruleset"], **body.model_dump(exclude_none=True),
             "type": "round_started", "ts": int(time.time() * 1000)}
    return Accepted(offset=await gw.append(table, event))


@router.post("/{table}/hold", status_code=202, responses=responses(400, 401, 403, 404, 503))
async def hold_table(table: str, body: Hold, gw: GatewayDep, _: DirectorDep) -> Accepted:
    """Hold the table (`held: true`: the round's next board waits) or let it go on."""
    await gw.open_meta(table)
    event = {**body.model_dump(exclude_none=True), "type": "table_held",
             "ts": int(time.time() * 1000)}
    return Accepted(offset=await gw.append(table, event))


@router.post("/{table}/players", status_code=202,
             responses=responses(400, 401, 403, 404, 503))
async def name_players(table: str, body: Players, gw: GatewayDep, _: DirectorDep
                       ) -> Accepted:
    """Name the players at seats (`players_named`), from the board in progress on: shown to
    everyone in the table's state, and written by the exports."""
    await gw.open_meta(table)
    event = {**body.model_dump(exclude_none=True), "type": "players_named",
             "ts": int(time.time() * 1000)}
    return Accepted(offset=await gw.append(table, event))


@router.post("/{table}/close", responses=responses(401, 403, 404, 409, 503))
async def close_table(table: str, gw: GatewayDep, _: DirectorDep, force: bool = False
                      ) -> Closed:
    """Close the table: it takes no more events; its events are archived (its history, its
    PBN and LIN read the same afterwards) and its topic deleted. A board in play: 409 unless
    `force=true`. Closing a closed table again finishes a close cut short (or does nothing)."""
    meta = await gw.fresh_meta(table)
    return Closed(**await close(gw, {table: meta}, force))
