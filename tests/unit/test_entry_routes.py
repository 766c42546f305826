"""A tournament's entries through the gateway's routes in process (httpx's ASGI transport on the
app `create_app` makes), on the fakes of its ports (tests/fakes.py): the Director opens entries,
players enter with the entry token, a bad entry is refused naming the field with nothing
recorded, the Director refuses and edits one and closes: the tournament is created with the
standing entries as its entrants and the movement their number chooses. The same on the real
stack: tests/integration/test_entries.py."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from services.common.names import tournament_topic
from services.gateway.tokens import Grant, Role, TokenError, sign, verify, vugraph_scope
from tests.fakes import MemoryKafka
from tests.helpers import DEALS

T = "club"


def records(kafka: MemoryKafka, tournament: str = T) -> list[dict[str, Any]]:
    return [json.loads(value) for tp, log in kafka.partitions.items()
            if tp.topic == tournament_topic(tournament) for _, value in log]


def pair(a: str, b: str, a_id: str = "") -> dict[str, Any]:
    return {"players": [{"name": a, "id": a_id}, {"name": b}]}


async def opened(http: httpx.AsyncClient, **movement: Any) -> str:
    answer = await http.post(f"/api/tournaments/{T}/entries/open", json={
        "name": "Club pairs", "deals": DEALS,
        "movement": {"boards_per_round": 1, **movement}})
    assert answer.status_code == 201, answer.text
    assert answer.json()["link"] == f"/enter#{answer.json()['token']}"
    token: str = answer.json()["token"]
    return token


async def enter(http: httpx.AsyncClient, token: str, body: dict[str, Any]) -> httpx.Response:
    return await http.post(f"/api/tournaments/{T}/entries", json=body,
                           headers={"Authorization": f"Bearer {token}"})


async def test_players_enter_the_director_refuses_one_and_closes_creating_the_tournament(
        http: httpx.AsyncClient, kafka: MemoryKafka) -> None:
    token = await opened(http)
    answers = [await enter(http, token, pair(f"A{n}", f"B{n}")) for n in range(1, 8)]
    assert [(a.status_code, a.json()["number"], a.json()["entrants"]) for a in answers] == [
        (201, n, n) for n in range(1, 8)]
    again = await enter(http, token, pair("A2", "B2"))  # sent twice: found, not made
    assert (again.status_code, again.json()["made"], again.json()["entry"]) == (200, False, 2)
    refused = await http.post(f"/api/tournaments/{T}/entries/2/refuse",
                              json={"reason": "not members"})
    assert refused.status_code == 200, refused.text
    assert (refused.json()["refused"], refused.json()["number"]) == ("not members", None)
    edited = await http.put(f"/api/tournaments/{T}/entries/6", json=pair("A6", "Zed"))
    assert edited.json()["name"] == "A6 & Zed", edited.text
    view = (await http.get(f"/api/tournaments/{T}/entries")).json()
    assert [(e["entry"], e["number"]) for e in view["entries"]] == [
        (1, 1), (2, None), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)]
    closed = await http.post(f"/api/tournaments/{T}/entries/close", json={})
    assert closed.status_code == 201, closed.text
    assert closed.json() == {"tournament": T, "tables": 3, "entrants": 6, "created": True,
                             "movement": {"kind": "howell", "boards_per_round": 1,
                                          "rounds": 5, "scoring": "matchpoints"}}
    created = [r for r in records(kafka) if r["type"] == "tournament_created"]
    assert [e["name"] for e in created[0]["entrants"]] == [
        "A1 & B1", "A3 & B3", "A4 & B4", "A5 & B5", "A6 & Zed", "A7 & B7"]
    again = await http.post(f"/api/tournaments/{T}/entries/close", json={})
    assert (again.status_code, again.json()["created"]) == (200, False)
    late = await enter(http, token, pair("Late", "Comer"))
    assert (late.status_code, late.json()["field"]) == (409, "entries")
    added = await http.post(f"/api/tournaments/{T}/entrants",  # the Director still can: a
                            json={"name": "Walk-in", "players": ["W1", "W2"]})  # 7th sits out
    assert (added.status_code, added.json()["number"]) == (201, 7), added.text


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"players": [{"name": "Solo"}]}, 400, "players"),
    ({"players": [{"name": "Ann"}, {"name": ""}]}, 400, "players[1].name"),
    (pair("ann", "Cy"), 409, "players[0]"),  # Ann entered already, no ID tells them apart
    ({"players": [{"name": "Ann"}, {"name": "Bob"}], "extra": 1}, 400, "extra"),
])
async def test_a_bad_entry_names_its_field_and_records_nothing(
        http: httpx.AsyncClient, kafka: MemoryKafka, body: dict[str, Any], status: int,
        field: str) -> None:
    token = await opened(http)
    assert (await enter(http, token, pair("Ann", "Bob"))).status_code == 201
    before = records(kafka)
    answer = await enter(http, token, body)
    assert (answer.status_code, answer.json()["field"]) == (status, field), answer.text
    assert records(kafka) == before


async def test_a_namesake_told_apart_by_ids_enters(http: httpx.AsyncClient) -> None:
    token = await opened(http)
    assert (await enter(http, token, pair("Ann", "Bob", "EBU 1"))).status_code == 201
    other = await enter(http, token, pair("Ann", "Cy", "EBU 2"))
    assert (other.status_code, other.json()["number"]) == (201, 2), other.text


async def test_the_entry_token_enters_its_tournament_only(http: httpx.AsyncClient) -> None:
    token = await opened(http)
    player = {"Authorization": f"Bearer {token}"}
    other = await http.post("/api/tournaments/other/entries", json=pair("A", "B"),
                            headers=player)
    assert other.status_code == 403
    assert (await http.get(f"/api/tournaments/{T}/entries", headers=player)).status_code == 403
    assert (await http.post(f"/api/tournaments/{T}/entries/1/refuse", json={},
                            headers=player)).status_code == 403


async def test_a_close_no_movement_fits_names_the_field_and_records_nothing(
        http: httpx.AsyncClient, kafka: MemoryKafka) -> None:
    token = await opened(http, kind="mitchell")
    assert (await enter(http, token, pair("A", "B"))).status_code == 201
    before = records(kafka)
    closed = await http.post(f"/api/tournaments/{T}/entries/close", json={})
    assert (closed.status_code, closed.json()["field"]) == (400, "entrants"), closed.text
    assert records(kafka) == before


async def test_entries_are_not_opened_on_a_created_tournament_nor_twice_otherwise(
        http: httpx.AsyncClient) -> None:
    await opened(http)
    again = await http.post(f"/api/tournaments/{T}/entries/open", json={
        "name": "Club pairs", "deals": DEALS, "movement": {"boards_per_round": 1}})
    assert (again.status_code, again.json()["opened"]) == (200, False)
    other = await http.post(f"/api/tournaments/{T}/entries/open", json={
        "name": "Other", "deals": DEALS, "movement": {"boards_per_round": 2}})
    assert (other.status_code, other.json()["field"]) == (409, "tournament")
    made = await http.post("/api/tournaments", json={"tournament": "made", "tables": 1,
                                                     "deals": DEALS})
    assert made.status_code == 201
    late = await http.post("/api/tournaments/made/entries/open", json={
        "deals": DEALS, "movement": {"boards_per_round": 1}})
    assert (late.status_code, late.json()["field"]) == (409, "tournament")


def test_an_entry_token_names_a_tournament_never_a_table() -> None:
    key = b"k" * 32
    token = sign(key, vugraph_scope(T), None, Role.ENTRY, 1000)
    assert verify(key, token, now=999) == Grant(f"tournament:{T}", None, Role.ENTRY)
    with pytest.raises(TokenError, match="claim 't'"):
        verify(key, sign(key, f"{T}-1", None, Role.ENTRY, 1000), now=999)
    with pytest.raises(TokenError, match="claim 's'"):
        verify(key, sign(key, vugraph_scope(T), "N", Role.ENTRY, 1000), now=999)


async def test_the_entry_page_reads_the_forms_facts_with_the_entry_token(
        http: httpx.AsyncClient) -> None:
    token = await opened(http)
    assert (await enter(http, token, pair("Ann", "Bob"))).status_code == 201
    form = await http.get(f"/api/tournaments/{T}/entries/open",
                          headers={"Authorization": f"Bearer {token}"})
    assert form.json() == {"tournament": T, "name": "Club pairs", "teams": False,
                           "kind": "pair", "closed": False, "entrants": 1}
