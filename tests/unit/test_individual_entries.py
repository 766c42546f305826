"""Entries for an individual (`shared.tournament.entry_kinds`, docs/api.md "Entries"): opened
with the movement `individual`, each entry is one player (his name, an optional ID); the close
seats the players standing by the individual movement (`shared.scores.individuals`) when they
are a size it seats (8, 12, 16, 20 or 24), else a 400 naming `entrants` and the sizes, with
nothing recorded; the tournament the close makes is the one `POST /api/tournaments` makes of
the same players. A close cannot turn pairs' entries into an individual, nor players' into
pairs. In process, on the fakes (tests/fakes.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from shared.scores.individuals import individual
from shared.tournament.entrants import MovementKind
from shared.tournament.entries import entrants_at_close, entry_of, fold, movement_at_close
from shared.tournament.entry_kinds import EntryKind
from shared.tournament.errors import TournamentError
from tests.fakes import MemoryKafka
from tests.helpers import DEALS
from tests.unit.test_entry_routes import enter, records

T = "club"
INDIVIDUAL = {"kind": "individual", "boards_per_round": 1}


def _opened(**movement: Any) -> dict[str, Any]:
    return {"type": "entries_opened", "teams": False, "name": "Individual",
            "movement": {**INDIVIDUAL, **movement}}


def _one(name: str, pid: str = "") -> dict[str, Any]:
    return {"type": "entry_made", "players": [{"name": name, "id": pid}]}


def _folded(count: int) -> Any:
    return fold(enumerate([_opened(), *(_one(f"P{n}") for n in range(1, count + 1))]))


def test_an_individuals_entry_is_one_player() -> None:
    entries = fold(enumerate([_opened(), _one("Ann", "EBU 1"), _one("Bob"),
                              {"type": "entry_made", "players": [{"name": "Cy"},
                                                                 {"name": "Di"}]},
                              _one("ann", "EBU 1")]))  # a pair, and Ann again: nothing
    assert entries.opening is not None and entries.opening.kind is EntryKind.PLAYER
    assert [e.name for e in entries.entries] == ["Ann", "Bob"]
    assert [(e.number, e.name, e.players, e.player_ids)
            for e in entrants_at_close(entries)] == [
        (1, "Ann", ("Ann",), ("EBU 1",)), (2, "Bob", ("Bob",), ())]
    with pytest.raises(TournamentError) as caught:
        entry_of({"players": [{"name": "Cy"}, {"name": "Di"}]}, EntryKind.PLAYER)
    assert caught.value.field == "players" and "one player" in str(caught.value)


@pytest.mark.parametrize("count", [8, 12, 16, 20, 24])
def test_an_individuals_entries_close_into_its_movement_at_each_size(count: int) -> None:
    entries = _folded(count)
    movement, tables = movement_at_close(entries.opening, count, list(range(1, 37)))
    assert (movement.kind, tables, movement.rounds) == (
        MovementKind.INDIVIDUAL, count // 4, count - 1)
    assert len(individual(count, 1)) == movement.rounds


@pytest.mark.parametrize(("count", "hint"), [(10, "refuse 2 or wait for 2"),
                                             (7, "wait for 1"), (25, "refuse 1")])
def test_an_individual_of_a_size_it_does_not_seat_is_refused_naming_the_sizes(
        count: int, hint: str) -> None:
    with pytest.raises(TournamentError) as caught:
        movement_at_close(_folded(count).opening, count, list(range(1, 37)))
    assert caught.value.field == "entrants"
    assert "8, 12, 16, 20 or 24 players" in str(caught.value)
    assert f"{count} entries stand ({hint})" in str(caught.value)


def test_a_close_keeps_the_entries_kind() -> None:
    players = _folded(8).opening
    with pytest.raises(TournamentError) as caught:
        players.closing_with({"kind": "howell", "boards_per_round": 1})
    assert caught.value.field == "movement.kind"
    pairs = fold(enumerate([{**_opened(), "movement": {"boards_per_round": 1}}])).opening
    assert pairs.kind is EntryKind.PAIR
    with pytest.raises(TournamentError) as caught:
        pairs.closing_with(INDIVIDUAL)
    assert caught.value.field == "movement.kind"
    assert players.closing_with({**INDIVIDUAL, "rounds": 3}).movement["rounds"] == 3


async def _open(http: httpx.AsyncClient) -> str:
    answer = await http.post(f"/api/tournaments/{T}/entries/open", json={
        "name": "Club individual", "deals": DEALS, "movement": INDIVIDUAL})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def _created(kafka: MemoryKafka, tournament: str) -> dict[str, Any]:
    made = [r for r in records(kafka, tournament) if r["type"] == "tournament_created"]
    assert len(made) == 1
    return {k: len(v) if k == "tables" else v for k, v in made[0].items()
            if k not in ("tournament", "ts", "digest")}  # the tables named by the tournament


async def test_eight_players_enter_one_by_one_and_the_close_makes_the_apis_individual(
        http: httpx.AsyncClient, kafka: MemoryKafka) -> None:
    token = await _open(http)
    form = await http.get(f"/api/tournaments/{T}/entries/open",
                          headers={"Authorization": f"Bearer {token}"})
    assert (form.json()["kind"], form.json()["teams"]) == ("player", False), form.text
    answers = [await enter(http, token, {"players": [{"name": f"P{n}"}]})
               for n in range(1, 9)]
    assert [(a.status_code, a.json()["number"], [p["name"] for p in a.json()["links"]])
            for a in answers] == [(201, n, [f"P{n}"]) for n in range(1, 9)]
    pair = await enter(http, token, {"players": [{"name": "Cy"}, {"name": "Di"}]})
    assert (pair.status_code, pair.json()["field"]) == (400, "players"), pair.text
    closed = await http.post(f"/api/tournaments/{T}/entries/close", json={})
    assert closed.status_code == 201, closed.text
    assert closed.json() == {"tournament": T, "tables": 2, "entrants": 8, "created": True,
                             "movement": {"kind": "individual", "boards_per_round": 1,
                                          "rounds": 7, "scoring": "matchpoints"}}
    api = await http.post("/api/tournaments", json={
        "tournament": "api", "name": "Club individual", "tables": 2, "deals": DEALS,
        "entrants": [{"name": f"P{n}", "players": [f"P{n}"]} for n in range(1, 9)],
        "movement": INDIVIDUAL})
    assert api.status_code == 201, api.text
    assert _created(kafka, T) == _created(kafka, "api")


async def test_a_close_of_ten_players_names_the_entrants_and_records_nothing(
        http: httpx.AsyncClient, kafka: MemoryKafka) -> None:
    token = await _open(http)
    for n in range(1, 11):
        assert (await enter(http, token, {"players": [{"name": f"P{n}"}]})).status_code == 201
    before = records(kafka)
    closed = await http.post(f"/api/tournaments/{T}/entries/close", json={})
    assert (closed.status_code, closed.json()["field"]) == (400, "entrants"), closed.text
    assert "8, 12, 16, 20 or 24 players" in closed.text
    howell = await http.post(f"/api/tournaments/{T}/entries/close",
                             json={"movement": {"kind": "howell", "boards_per_round": 1}})
    assert (howell.status_code, howell.json()["field"]) == (400, "movement.kind"), howell.text
    assert records(kafka) == before
