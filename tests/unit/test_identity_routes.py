"""Identity in the record through the gateway's routes, on the fakes: the Director names a
seat with its player's ID (on the table's topic as `players_named`'s `ids`), a bad ID is a 400
naming its seat and records nothing, and the read of one player's boards refuses a bad
player, an unknown tournament and a reader who is not the Director."""

from __future__ import annotations

import httpx

from services.common.names import table_topic
from shared.codec import decode, to_map
from tests.fakes import MemoryKafka


def _named(kafka: MemoryKafka, table: str) -> list[dict[str, object]]:
    events = [to_map(decode(value or b"")) for _, value in kafka.records(table_topic(table))]
    return [e for e in events if e["type"] == "players_named"]


async def test_a_seat_is_named_with_its_players_id(http: httpx.AsyncClient,
                                                   kafka: MemoryKafka) -> None:
    assert (await http.post("/api/tables", json={"table": "t1"})).status_code == 201
    named = await http.post("/api/tables/t1/players",
                            json={"players": {"N": "Ann", "S": "Bob"}, "ids": {"N": "EBU 7"}})
    assert named.status_code == 202, named.text
    [event] = _named(kafka, "t1")
    assert event["players"] == {"N": "Ann", "S": "Bob"} and event["ids"] == {"N": "EBU 7"}


async def test_an_id_for_a_seat_not_named_is_refused_naming_it(http: httpx.AsyncClient,
                                                               kafka: MemoryKafka) -> None:
    assert (await http.post("/api/tables", json={"table": "t1"})).status_code == 201
    refused = await http.post("/api/tables/t1/players",
                              json={"players": {"N": "Ann"}, "ids": {"W": "EBU 9"}})
    assert (refused.status_code, refused.json().get("field")) == (400, "ids.W"), refused.text
    assert _named(kafka, "t1") == []


async def test_the_players_boards_read_refuses_what_it_cannot_answer(
        http: httpx.AsyncClient) -> None:
    blank = await http.get("/api/tournaments/t/boards", params={"player": "  "})
    assert (blank.status_code, blank.json().get("field")) == (400, "player"), blank.text
    missing = await http.get("/api/tournaments/nope/boards", params={"player": "EBU 7"})
    assert missing.status_code == 404, missing.text
    anyone = await http.get("/api/tournaments/nope/boards", params={"player": "EBU 7"},
                            headers={"Authorization": ""})
    assert anyone.status_code == 401, anyone.text
