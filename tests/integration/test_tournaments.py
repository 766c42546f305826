"""Tournaments on the real stack (api.md): a director creates 50 tables in one request from a
dealing program's PBN file, starts two rounds, and the tables' boards advance by themselves
(Law 17E) while a processor worker is killed and replaced in the middle; the overview follows
every table from one Redis read, and the session's export round-trips."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from shared.codec import from_map
from shared.notation.pbn import pbn_events
from shared.table.engine import fold
from tests.helpers import DEALS, run, wait_for
from tests.integration.kafka_reading import replay
from tests.stack import Stack

TABLES = 50
# (table index, board) → a script played instead of four passes: an insufficient bid the
# next player declines (Law 27B), a contract, the opening lead (Law 17E ends the period).
CONTRACT = {"N": [("N", "1S"), ("E", "1H"), ("S", "decline"), ("E", "2H"), ("S", "2S"),
                  ("W", "P"), ("N", "4S"), ("E", "P"), ("S", "P"), ("W", "P"),
                  ("E", "lead HK"), ("N", "makes 10"), ("E", "agree"), ("W", "agree")]}


def _request(tournament: str, **more: Any) -> dict[str, Any]:
    return {"tournament": tournament, "name": "Spring pairs", "tables": TABLES,
            "deals": DEALS, "site": "online", "date": "2026.11.24",
            "players": {f"{tournament}-1": {"N": "Ann", "E": "Di", "S": "Bob", "W": "Cy"}},
            **more}


def _overview(stack: Stack, tournament: str) -> dict[str, Any]:
    with stack.client(stack.director) as http:
        response = http.get(f"/api/tournaments/{tournament}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def _lines(stack: Stack, tournament: str) -> dict[str, dict[str, Any]]:
    return {t["table"]: t for t in _overview(stack, tournament)["tables"]}


def _post(http: Any, token: str, table: str, body: dict[str, Any]) -> None:
    response = http.post(f"/api/tables/{table}/events", json=body,
                         headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 202, response.text


def _play_board(http: Any, seats: dict[str, str], table: str, dealer: str,
                contract: bool) -> None:
    """Four passes from the dealer, or (board dealt by North) a contract, its lead and the
    tricks declarer made."""
    if contract:
        for seat, what in CONTRACT[dealer]:
            if what in ("accept", "decline"):
                body: dict[str, Any] = {"type": "option", "accept": what == "accept"}
            elif what.startswith("lead"):
                body = {"type": "opening_lead", "card": what.split()[1]}
            elif what.startswith("makes"):  # declarer's proposal of the tricks (Law 79A)
                body = {"type": "result_recorded", "tricks": int(what.split()[1])}
            elif what == "agree":  # a defender agrees to it, as to a claim (Law 69A)
                body = {"type": "claim_response", "accept": True}
            else:
                body = {"type": "call", "call": what}
            _post(http, seats[seat], table, body)
        return
    order = "NESW" * 2
    for seat in order[order.index(dealer):][:4]:
        _post(http, seats[seat], table, {"type": "call", "call": "P"})


def _all(stack: Stack, tournament: str, board: int, status: str, tables: list[str]) -> bool:
    lines = _lines(stack, tournament)
    return all(lines[t]["board"] == board and lines[t]["status"] == status for t in tables)


def test_a_tournament_of_50_tables_plays_two_rounds_through_a_worker_restart(
        stack: Stack) -> None:
    t = "spring"
    with stack.client(stack.director) as http:
        started = time.monotonic()
        response = http.post("/api/tournaments", json=_request(t), timeout=120)
        created_s = time.monotonic() - started
        assert response.status_code == 201, response.text
        made = response.json()
        assert made["created"] and made["boards"] == list(range(1, 33))
        tables = [line["table"] for line in made["tables"]]
        first = made["tables"][0]
        assert first["links"]["N"] == f"/seat#{first['seats']['N']}"  # the seat's page
        assert tables == [f"{t}-{n}" for n in range(1, TABLES + 1)]
        again = http.post("/api/tournaments", json=_request(t), timeout=120).json()
        assert not again["created"] and [x["table"] for x in again["tables"]] == tables
        other = http.post("/api/tournaments", json=_request(t, tables=3))
        assert other.status_code == 409 and other.json()["field"] == "tournament"
        bad = http.post("/api/tournaments", json=_request("bad", deals="[Board \"1\"]\n"))
        assert bad.status_code == 400 and bad.json()["field"] == "deals"
        response = http.post(f"/api/tournaments/{t}/rounds", json={"round": 1, "boards": [1, 2]})
        assert response.status_code == 202 and response.json()["tables"] == TABLES
        bad = http.post(f"/api/tournaments/{t}/rounds", json={"round": 2, "boards": [40]})
        assert bad.status_code == 400 and bad.json()["field"] == "boards[0]"
    print(f"\n{TABLES} tables created in {created_s:.1f} s")
    seats = {line["table"]: line["seats"] for line in made["tables"]}
    wait_for(lambda: _all(stack, t, 1, "auction", tables), 60, "board 1 at every table")
    assert _lines(stack, t)[f"{t}-1"]["turn"] == "N"  # Law 2: North deals board 1

    with stack.client() as http:
        for n, table in enumerate(tables):  # board 1 (North deals); half-way, a worker dies
            if n == TABLES // 2:
                for name in list(stack.workers):
                    stack.kill_worker(name)
                stack.start_worker("w-tournament")
            _play_board(http, seats[table], table, "N", contract=n < 5)
        wait_for(lambda: _all(stack, t, 2, "auction", tables), 90,
                 "board 2 started by itself at every table")
        lines = _lines(stack, t)
        assert all(line["turn"] == "E" and line["boards_left"] == 0 for line in lines.values())
        for table in tables:  # board 2: East deals (Law 2)
            _play_board(http, seats[table], table, "E", contract=False)
    wait_for(lambda: _all(stack, t, 2, "done", tables), 60, "round 1 over everywhere")
    view = _overview(stack, t)
    assert view["totals"]["boards_finished"] == 2 * TABLES
    assert view["totals"]["alerts_raised"] >= 5 and view["totals"]["alerts_open"] == 0

    with stack.client(stack.director) as http:
        again = http.post(f"/api/tournaments/{t}/rounds", json={"round": 1, "boards": [1, 2]})
        assert again.status_code == 202  # sent again: nothing starts twice
        movement = {table: [3, 4] if n % 2 == 0 else [5] for n, table in enumerate(tables)}
        response = http.post(f"/api/tournaments/{t}/rounds",
                             json={"round": 2, "movement": movement})
        assert response.status_code == 202
    evens, odds = tables[0::2], tables[1::2]
    wait_for(lambda: _all(stack, t, 3, "auction", evens) and _all(stack, t, 5, "auction", odds),
             60, "round 2's first boards")
    with stack.client() as http:
        for table in evens:
            _play_board(http, seats[table], table, "S", contract=False)  # board 3: South
        wait_for(lambda: _all(stack, t, 4, "auction", evens), 60, "board 4 by itself")
        for table in evens:
            _play_board(http, seats[table], table, "W", contract=False)  # board 4: West
        for table in odds:
            _play_board(http, seats[table], table, "N", contract=False)  # board 5: North
    wait_for(lambda: _all(stack, t, 4, "done", evens) and _all(stack, t, 5, "done", odds), 60,
             "round 2 over everywhere")
    assert _overview(stack, t)["totals"]["boards_finished"] == 2 * TABLES + 3 * TABLES // 2

    for table in tables:  # what the overview read is what the tables' topics hold
        folded, _ = run(replay(stack.bootstrap, table))
        expected = [1, 2, 3, 4] if table in evens else [1, 2, 5]
        assert [b.board for b in folded.boards] == expected
        assert all(b.period_over for b in folded.boards)
    _check_exports(stack, t, tables)


def _check_exports(stack: Stack, t: str, tables: list[str]) -> None:
    """JSON gives each table's log: folding it gives the states of a replay; PBN read back
    gives every board of every table, in order, with its deal, dealer, contract and lead."""
    replays = {table: run(replay(stack.bootstrap, table))[0] for table in tables}
    with stack.client(stack.director) as http:
        exported = http.get(f"/api/tournaments/{t}/export", params={"format": "json"},
                            timeout=60)
        pbn = http.get(f"/api/tournaments/{t}/export", params={"format": "pbn"}, timeout=60)
        lin = http.get(f"/api/tournaments/{t}/export", params={"format": "lin"}, timeout=60)
        bad = http.get(f"/api/tournaments/{t}/export", params={"format": "xls"})
    assert exported.status_code == pbn.status_code == lin.status_code == 200
    assert bad.status_code == 400
    logs = exported.json()["tables"]
    assert list(logs) == tables
    for table in tables:
        state = fold(from_map(m) for m in logs[table])
        assert [b.to_dict() for b in state.boards] == \
            [b.to_dict() for b in replays[table].boards]
    read_back = fold(from_map(m) for m in pbn_events(pbn.text)).boards
    played = [b for table in tables for b in replays[table].boards]
    assert len(read_back) == len(played)
    for back, board in zip(read_back, played, strict=True):
        assert (back.board, back.deal, back.dealer, back.vulnerability, back.status) == \
            (board.board, board.deal, board.dealer, board.vulnerability, board.status)
        assert back.contract() == board.contract() and back.opening_lead == board.opening_lead
    assert json.dumps(lin.text).count("md|") == len(played)


def test_the_overview_socket_sends_everything_then_what_changed(stack: Stack) -> None:
    """The director's overview socket: every table first, then, as a table's board moves,
    only that table's line (and the totals); a spectator's token is refused (403), and a
    tournament that does not exist closes the socket (4404)."""
    t = "sock"
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments",
                         json={"tournament": t, "tables": 3, "deals": DEALS}).json()
        assert http.post(f"/api/tournaments/{t}/rounds",
                         json={"round": 1, "boards": [7, 8]}).status_code == 202
    wait_for(lambda: _all(stack, t, 7, "auction", [f"{t}-{n}" for n in (1, 2, 3)]), 60,
             "board 7 everywhere")
    first_table = made["tables"][0]
    base = stack.url.replace("http", "ws")

    async def watch() -> tuple[dict[str, Any], dict[str, Any], int, int]:
        url = f"{base}/api/tournaments/{t}/live?token={stack.director}"
        async with connect(url, open_timeout=30) as socket:
            everything = json.loads(await socket.recv())
            with httpx.Client(base_url=stack.url) as http:  # board 7 passed out at table 1
                for seat in "SWNE":  # Law 2: South deals board 7
                    _post(http, first_table["seats"][seat], first_table["table"],
                          {"type": "call", "call": "P"})
            changed: dict[str, Any] = {}
            while not changed.get("tables"):
                changed = json.loads(await asyncio.wait_for(socket.recv(), 30))
        spectator = first_table["spectator"]
        refused = await _close_code(f"{base}/api/tournaments/{t}/live?token={spectator}")
        missing = await _close_code(f"{base}/api/tournaments/nope/live?token={stack.director}")
        return everything, changed, refused, missing

    everything, changed, refused, missing = run(watch())
    assert [line["table"] for line in everything["tables"]] == [f"{t}-{n}" for n in (1, 2, 3)]
    assert [line["table"] for line in changed["tables"]] == [f"{t}-1"]
    assert (changed["tables"][0]["board"], changed["tables"][0]["turn"]) == (8, "W")
    assert changed["totals"]["boards_finished"] == 1
    assert (refused, missing) == (403, 4404)  # refused before the handshake: HTTP 403


async def _close_code(url: str) -> int:
    """How the gateway ended the socket: the HTTP status of a refused handshake, or the close
    code of an accepted socket."""
    try:
        async with connect(url, open_timeout=30) as socket:
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait_for(socket.recv(), 30)
            return socket.close_code or 0
    except InvalidStatus as refused:
        return refused.response.status_code


def test_a_board_no_round_could_start_is_refused_at_creation(stack: Stack) -> None:
    """Board numbers: a deals file with board 99999999999999999999999 used to create the
    tournament, whose round then refused the board; now the creation is a 400 naming `deals`,
    the board and the bound, and nothing is made."""
    huge = DEALS.replace('[Board "1"]', '[Board "99999999999999999999999"]', 1)
    assert huge != DEALS
    with stack.client(stack.director) as http:
        refused = http.post("/api/tournaments", json={"tournament": "huge", "tables": 2,
                                                      "deals": huge})
        assert refused.status_code == 400, refused.text
        assert refused.json()["field"] == "deals"
        assert "99999999999999999999999" in refused.json()["error"]
        assert "1000000" in refused.json()["error"]
        assert http.get("/api/tournaments/huge").status_code == 404
        assert "huge-1" not in {t["table"] for t in http.get("/api/tables").json()["tables"]}
