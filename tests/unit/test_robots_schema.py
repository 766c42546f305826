"""A table's robots, typed once: GET/POST/DELETE /api/tables/{t}/robots answer the gateway's
`services.gateway.robots.presence.TableRobots`, each seat the core's `shared.robot.seats.
RobotSeat`, and /openapi.json shows those very TypedDicts (no pydantic mirror of them to keep),
no key but those declared, each described by the string under it."""

from __future__ import annotations

import typing
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import orjson
import pydantic
import pytest
from pydantic import TypeAdapter

from services.gateway.app import create_app
from services.gateway.http.state_models import DECLARED, TableRobots, declarations
from shared.robot.seats import RobotSeat
from tests.fakes import (
    MemoryKafka,
    MemoryStore,
    director_client,
    director_gateway,
    gateway_adapters,
)
from tests.helpers import DEALS

ROBOTS = TypeAdapter(TableRobots)


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
async def http(tmp_path: Path, store: MemoryStore) -> AsyncIterator[httpx.AsyncClient]:
    async with director_client(director_gateway(tmp_path, MemoryKafka(shards=8), store)
                               ) as client:
        yield client


def test_the_robots_schema_is_the_core_declaration() -> None:
    """The routes' schema is `TableRobots` with the core's `RobotSeat`: its keys, no other,
    and the descriptions written under them."""
    assert declarations(TableRobots) == {TableRobots, RobotSeat}
    assert all(v.__pydantic_config__ == DECLARED for v in (TableRobots, RobotSeat))
    schema = create_app(adapters=gateway_adapters()).app.openapi()  # type: ignore[attr-defined]
    for method in ("get", "post", "delete"):
        answer = schema["paths"]["/api/tables/{table}/robots"][method]["responses"]["200"]
        assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/TableRobots")
    seat = schema["components"]["schemas"]["RobotSeat"]
    assert list(seat["properties"]) == list(typing.get_type_hints(RobotSeat))
    assert seat["additionalProperties"] is False
    assert "TABLESERVER_TM_STALL" in seat["properties"]["status"]["description"]
    assert schema["components"]["schemas"]["TableRobots"]["additionalProperties"] is False


async def test_a_tables_robots_validate_as_answered(http: httpx.AsyncClient,
                                                    store: MemoryStore) -> None:
    """A robot asked for (waiting) and one the host seated (connected): the answer validates
    strictly against the declaration, each seat with every key of `RobotSeat`; a key no
    declaration names is refused."""
    made = await http.post("/api/tournaments", json={"tournament": "r", "tables": 1,
                                                     "deals": DEALS})
    assert made.status_code == 201, made.text
    asked = await http.post("/api/tables/r-1/robots", json={"seats": ["E"]})
    store.robots["r-1"] = {"W": {"label": "gib", "connected": True, "since": 5,
                                 "awaited_since": None, "stalled": False}}
    found = await http.get("/api/tables/r-1/robots")
    for answer in (asked, found):
        assert answer.status_code == 200, answer.text
        ROBOTS.validate_json(answer.content, strict=True)
    view = found.json()
    assert view["seats"]["W"]["status"] == "connected" and view["seats"]["E"]["requested"]
    assert all(set(s) == set(typing.get_type_hints(RobotSeat)) for s in view["seats"].values())
    for bad in ({**view, "new": 1}, {**view, "seats": {"E": {**view["seats"]["E"], "new": 1}}}):
        with pytest.raises(pydantic.ValidationError, match="new"):
            ROBOTS.validate_python(bad)
    assert orjson.loads(found.content) == view
