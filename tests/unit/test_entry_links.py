"""A player's own link from his entry (the player's evening from its first step): the entry's
answer gives each player a player's token naming him by his ENTRY and place (claim `q`), valid
from the moment he enters. `/api/play` reads it as the lobby while entries are open, a 403
saying so once his entry is refused, and his entrant's place after the close (the entrant his
entry became: a refusal before it moved him up a number); the Director's reissue revokes it as
it does the list's link. The routes run in process on the fakes (tests/fakes.py); the same on
the real stack: tests/integration/test_entry_links.py."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from services.gateway.tokens import PlayerScope, TokenError, sign_player, verify
from shared.tournament.entries import EntryEvent, fold
from shared.tournament.entry_players import EntryStanding, entry_player, partners_in
from tests.fakes import MemoryKafka
from tests.helpers import wait_for_async
from tests.unit.test_entry_routes import T, enter, opened, pair, records
from tests.unit.test_tokens import KEY, signed

QGOOD = {"t": "tournament:spring", "s": None, "r": "player", "e": 2**40, "q": [4, 2, 1]}


def test_a_link_by_entry_names_his_entry_and_place_never_an_entrant() -> None:
    by_entry = PlayerScope("spring", 4, 2, 1, by_entry=True)
    grant = verify(KEY, sign_player(KEY, by_entry, 2**40), now=0)
    assert grant.player == by_entry and grant.player.by_entry
    assert verify(KEY, signed(QGOOD), now=0).player == by_entry
    by_entrant = verify(KEY, sign_player(KEY, PlayerScope("spring", 4, 2, 1), 2**40), now=0)
    assert by_entrant.player is not None and not by_entrant.player.by_entry


@pytest.mark.parametrize("claims", [
    {**QGOOD, "p": [4, 2, 1]}, {**QGOOD, "q": [4, 2]}, {**QGOOD, "q": [0, 2, 1]},
    {**QGOOD, "r": "seat", "s": "N", "t": "t1"}, {**QGOOD, "r": "vugraph"}])
def test_a_link_by_entry_never_signed_is_malformed(claims: dict[str, object]) -> None:
    with pytest.raises(TokenError, match="malformed"):
        verify(KEY, signed(claims), now=0)


def entries_after(*events: dict[str, Any]) -> Any:
    opened_event = {"type": EntryEvent.OPENED, "teams": False, "deals": "",
                    "movement": {"boards_per_round": 1}}
    return fold(enumerate([opened_event, *events]))


def made(a: str, b: str) -> dict[str, Any]:
    return {"type": EntryEvent.MADE, **pair(a, b)}


def test_his_entry_resolves_waiting_refused_then_to_the_entrant_it_became() -> None:
    entries = entries_after(made("A1", "B1"), made("A2", "B2"), made("A3", "B3"))
    waiting = entry_player(entries, 3, 2)
    assert (waiting.standing, waiting.number) == (EntryStanding.WAITING, 3)
    assert waiting.entry is not None and partners_in(waiting.entry, 2) == ["A3"]
    refused = entries_after(made("A1", "B1"), made("A2", "B2"), made("A3", "B3"),
                            {"type": EntryEvent.REFUSED, "entry": 2, "reason": "no fee"})
    gone = entry_player(refused, 2, 1)
    assert (gone.standing, gone.number) == (EntryStanding.REFUSED, None)
    assert gone.entry is not None and gone.entry.refused == "no fee"
    assert entry_player(refused, 3, 1).number == 2  # moved up a number by the refusal
    closed = entries_after(made("A1", "B1"), made("A2", "B2"), made("A3", "B3"),
                           {"type": EntryEvent.REFUSED, "entry": 2, "reason": "no fee"},
                           {"type": EntryEvent.CLOSED, "entrants": []})
    after = entry_player(closed, 3, 1)
    assert (after.standing, after.number) == (EntryStanding.ENTRANT, 2)
    for entry, place in ((4, 1), (0, 1), (3, 3), (3, 0)):
        assert entry_player(closed, entry, place).standing is EntryStanding.NONE


async def play(http: httpx.AsyncClient, token: str) -> httpx.Response:
    return await http.get("/api/play", headers={"Authorization": f"Bearer {token}"})


async def until(http: httpx.AsyncClient, token: str, want: Any) -> httpx.Response:
    """`/api/play`'s answer once `want(answer)` holds: a gateway reads the entries again
    within `players.FRESH_S`."""
    async def answer() -> httpx.Response | None:
        response = await play(http, token)
        return response if want(response) else None
    found: httpx.Response = await wait_for_async(answer, 5, "the entries read again")
    return found


async def test_his_entrys_link_is_the_lobby_then_his_seat_and_a_refusal_says_so(
        http: httpx.AsyncClient) -> None:
    token = await opened(http, kind="howell", rounds=1)
    answers = [(await enter(http, token, pair(f"A{n}", f"B{n}"))).json() for n in range(1, 6)]
    links = {(a["entry"], link["place"]): link for a in answers for link in a["links"]}
    assert [(link["name"], link["link"]) for link in answers[2]["links"]] == [
        ("A3", f"/play#{links[3, 1]['token']}"), ("B3", f"/play#{links[3, 2]['token']}")]
    lobby = await play(http, links[3, 2]["token"])
    assert lobby.status_code == 200, lobby.text
    view = lobby.json()
    assert (view["phase"], view["entries"], view["entry"], view["player"], view["partner"],
            view["entrant"]["number"], len(view["entrants"])) == (
        "lobby", "open", 3, "B3", ["A3"], 3, 5)
    again = await enter(http, token, pair("A3", "B3"))  # the public entry link: no links again
    assert (again.json()["made"], again.json()["links"]) == (False, [])
    listed = (await http.get(f"/api/tournaments/{T}/entries")).json()["entries"]
    assert [link["name"] for link in listed[2]["links"]] == ["A3", "B3"]  # the Director's
    refused = await http.post(f"/api/tournaments/{T}/entries/2/refuse", json={"reason": "x"})
    assert refused.status_code == 200
    gone = await until(http, links[2, 1]["token"], lambda r: r.status_code == 403)
    assert "your entry was refused by the Director: x" in gone.json()["error"], gone.text
    assert (await play(http, links[3, 1]["token"])).json()["entrant"]["number"] == 2
    closed = await http.post(f"/api/tournaments/{T}/entries/close", json={})
    assert closed.status_code == 201, closed.text
    seated = (await until(http, links[3, 1]["token"],
                          lambda r: "entries" not in r.json())).json()  # read as created
    mine = (await http.get(f"/api/tournaments/{T}/players")).json()["players"]
    his = next(p for p in mine if (p["entrant"], p["place"]) == (2, 1))
    assert (seated["phase"], seated["entrant"]["number"], seated["player"]) == (
        "lobby", 2, "A3")
    assert seated["seat"] == (await play(http, his["token"])).json()["seat"]
    assert seated["seat"] is not None
    reissued = await http.post(f"/api/tournaments/{T}/players/2/1/reissue")
    assert reissued.status_code == 201, reissued.text
    revoked = await play(http, links[3, 1]["token"])
    assert revoked.status_code == 403 and "replaced" in revoked.json()["error"]
    assert (await play(http, links[3, 2]["token"])).status_code == 200  # his partner's stands


async def test_a_timed_evening_from_its_entries_keeps_its_clock(
        http: httpx.AsyncClient, kafka: MemoryKafka) -> None:
    """The opening's minutes a board reach the tournament the close creates: its rounds are
    timed, and the clock moves the players (docs/scoring.md, the clock)."""
    token = await opened(http, kind="howell", rounds=1, minutes_per_board=7)
    for n in range(1, 5):
        assert (await enter(http, token, pair(f"A{n}", f"B{n}"))).status_code == 201
    closed = await http.post(f"/api/tournaments/{T}/entries/close", json={})
    assert closed.status_code == 201, closed.text
    assert closed.json()["movement"]["minutes_per_board"] == 7
    created = [r for r in records(kafka) if r["type"] == "tournament_created"]
    assert created[0]["movement"]["minutes_per_board"] == 7, created
