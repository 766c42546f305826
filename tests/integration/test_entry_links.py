"""A player's own link from his entry on the real stack (Kafka, Redis, the services): four pairs
enter, each player's answer carries his link (`/play#<player token>` naming him by his entry);
before the close it shows the lobby (entered, waiting for the close, the entries so far); the
Director refuses one entry (its link says so, the entries after it move up a number) and closes;
round 1 starts and the link, over the play socket, seats him at his table of the round, where
his round's seat token acts. The rules and the routes on fakes: tests/unit/test_entry_links.py."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from websockets.asyncio.client import connect

from tests.helpers import DEALS, run, wait_for
from tests.stack import Stack

T = "entry-links"


def pair(a: str, b: str) -> dict[str, Any]:
    return {"players": [{"name": a}, {"name": b}]}


def test_a_player_enters_keeps_his_link_and_round_1_seats_him_by_it(stack: Stack) -> None:
    base = stack.url.replace("http", "ws")
    with stack.client(stack.director) as director:
        opened = director.post(f"/api/tournaments/{T}/entries/open", json={
            "name": "Links from the entries", "deals": DEALS,
            "movement": {"kind": "howell", "boards_per_round": 1, "rounds": 1}})
        assert opened.status_code == 201, opened.text
        with stack.client(opened.json()["token"]) as entering:
            answers = [entering.post(f"/api/tournaments/{T}/entries",
                                     json=pair(f"A{n}", f"B{n}")) for n in range(1, 6)]
        assert [a.status_code for a in answers] == [201] * 5, [a.text for a in answers]
        mine = answers[3].json()["links"][1]  # B4, of entry 4
        assert mine["name"] == "B4" and mine["link"].endswith(f"/play#{mine['token']}")
        with stack.client(mine["token"]) as me:
            lobby = me.get("/api/play")
            assert lobby.status_code == 200, lobby.text
            assert (lobby.json()["phase"], lobby.json()["entries"],
                    len(lobby.json()["entrants"])) == ("lobby", "open", 5)
            refused = director.post(f"/api/tournaments/{T}/entries/1/refuse",
                                    json={"reason": "no fee"})
            assert refused.status_code == 200, refused.text
            with stack.client(answers[0].json()["links"][0]["token"]) as gone:
                void = wait_for(lambda: (r := gone.get("/api/play")).status_code == 403 and r,
                                5, "the refusal read")  # within a tick (players.FRESH_S)
                assert "refused by the Director: no fee" in void.json()["error"]
            assert me.get("/api/play").json()["entrant"]["number"] == 3  # moved up
            closed = director.post(f"/api/tournaments/{T}/entries/close", json={})
            assert closed.status_code == 201, closed.text
            listed = director.get(f"/api/tournaments/{T}/players").json()["players"]
            his = next(p for p in listed if (p["entrant"], p["place"]) == (3, 2))
            assert his["name"] == "B4"

            async def round_one() -> dict[str, Any]:
                async with connect(f"{base}/api/play/live", open_timeout=30) as socket:
                    await socket.send(json.dumps({"type": "auth", "token": mine["token"]}))
                    first = json.loads(await asyncio.wait_for(socket.recv(), 30))
                    assert (first["phase"], first["entrant"]["number"]) == ("lobby", 3)
                    started = await asyncio.to_thread(director.post,
                                                      f"/api/tournaments/{T}/rounds",
                                                      json={"round": 1})
                    assert started.status_code == 202, started.text
                    deadline = time.monotonic() + 30
                    while True:
                        frame: dict[str, Any] = json.loads(await asyncio.wait_for(
                            socket.recv(), max(0.1, deadline - time.monotonic())))
                        if frame["phase"] == "seated":
                            return frame
            seated = run(round_one())
            assert seated["seat"] is not None and seated["player"] == "B4"
            by_list = me.get("/api/play").json()["seat"]
            with stack.client(his["token"]) as listed_link:
                assert {k: by_list[k] for k in ("table", "seat", "boards")} == {
                    k: listed_link.get("/api/play").json()["seat"][k]
                    for k in ("table", "seat", "boards")}
        with stack.client(seated["seat"]["token"]) as seat:
            state = seat.get(f"/api/tables/{seated['seat']['table']}/state")
            assert state.status_code == 200, state.text
