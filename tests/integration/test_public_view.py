"""What the public sees, on the real stack: a gateway run with a vugraph delay
(`TABLESERVER_SPECTATOR_DELAY`, `DELAY` s here) beside the stack's own.

- The table as it was the delay ago: a call reaches the public's socket, state and history
  only once the delay has passed since it was made, not only the deal.
- A tournament (a Mitchell of three tables, one board a round, two rounds: board 1 is played
  at the first table in round 1 and at the third in round 2): the spectator links the
  tournament's vugraph token hands out show nothing of board 1 (deal, calls, result) until
  both tables have played it (the tournament's regulation, Law 80B, against Law 16C1's
  information from another table's board); with the Director's vugraph match on a table, its
  board is seen as it is played, after the delay.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.helpers import DEALS, new_table, wait_for, wait_for_auction
from tests.stack import Stack, another_gateway

DELAY = 3  # seconds the public gateway keeps the public behind
PUBLIC = {"TABLESERVER_SPECTATOR_DELAY": str(DELAY)}
SEATS = "NESW"
PAIRS = [{"name": f"pair {n}", "players": [f"P{n}a", f"P{n}b"]} for n in range(1, 7)]


class Frames:
    """A socket's frames as they arrive, each with the time it arrived (a thread reads)."""

    def __init__(self, url: str) -> None:
        self.got: list[tuple[float, dict[str, Any]]] = []
        self.opened = threading.Event()
        self.stop = threading.Event()
        self.reader = threading.Thread(target=self._read, args=(url,), daemon=True)
        self.reader.start()
        assert self.opened.wait(15), "the public's socket did not open"

    def _read(self, url: str) -> None:
        with connect(url, open_timeout=10) as socket:
            self.opened.set()
            while not self.stop.is_set():
                try:
                    message = socket.recv(timeout=0.2)
                except TimeoutError:
                    continue
                self.got.append((time.time(), json.loads(message)))

    def close(self) -> None:
        self.stop.set()
        self.reader.join(10)

    def boards(self) -> list[dict[str, Any]]:
        return [frame["board"] for _, frame in list(self.got) if frame.get("board")]


def _read(url: str, token: str, path: str) -> httpx.Response:
    return httpx.get(url + path, headers={"Authorization": f"Bearer {token}"}, timeout=10)


def _state(url: str, token: str, table: str) -> dict[str, Any]:
    response = _read(url, token, f"/api/tables/{table}/state")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def _post(stack: Stack, token: str, table: str, body: dict[str, Any]) -> int:
    with stack.client(token) as http:
        response = http.post(f"/api/tables/{table}/events", json=body)
    assert response.status_code == 202, response.text
    offset: int = response.json()["offset"]
    return offset


def _pass_out(stack: Stack, seats: dict[str, str], table: str, board: int) -> int:
    """The board's four passes, from its dealer on (Law 2); the last one's offset."""
    dealer = (board - 1) % 4
    return max(_post(stack, seats[SEATS[(dealer + k) % 4]], table, {"type": "call", "call": "P"})
               for k in range(4))


def _director_version(stack: Stack, table: str) -> int:
    with stack.client(stack.director) as http:
        version: int = http.get(f"/api/tables/{table}/state").json()["version"]
    return version


def test_the_public_sees_every_call_only_after_the_delay(stack: Stack) -> None:
    """Not only the deal: the call, in the state, the feed and the history, reaches the
    public `DELAY` s after it was made (the spectator sees the table as it was then)."""
    tokens = new_table(stack, "pub-delay")
    spectator = tokens["spectator"]
    with another_gateway(stack, stack.gateway_port + 11, "gateway-public.log", PUBLIC) as url:
        wait_for(lambda: _state(url, spectator, "pub-delay")["version"] == 0, 20,
                 "the board's start, the delay after it")
        frames = Frames(f"ws://{url.removeprefix('http://')}/api/tables/pub-delay/feed"
                        f"?token={spectator}")
        try:
            made_at = time.time()
            offset = _post(stack, tokens["seats"]["N"], "pub-delay",
                           {"type": "call", "call": "1NT"})
            wait_for(lambda: _director_version(stack, "pub-delay") == offset, 10, "folded")
            seen = _state(url, spectator, "pub-delay")
            history = _read(url, spectator, "/api/tables/pub-delay/history").json()
            if time.time() - made_at < DELAY:  # else this machine stalled past the delay
                assert seen["version"] < offset and seen["board"]["calls"] == []
                assert [e["offset"] for e in history["history"]] == list(range(offset))
            arrived = wait_for(lambda: next((at for at, frame in list(frames.got)
                                             if frame["version"] >= offset), None),
                               DELAY + 10, "the call on the public's socket")
            assert arrived - made_at >= DELAY - 0.05  # Redis's ms against this clock's
            assert _state(url, spectator, "pub-delay")["board"]["calls"] == [
                {"seat": "N", "call": "1NT"}]
            history = _read(url, spectator, "/api/tables/pub-delay/history").json()
            assert history["history"][-1]["event"]["call"] == "1NT"
            assert all(b["calls"] == [] for b in frames.boards()[:-1])
        finally:
            frames.close()


def test_a_tournaments_board_is_public_once_every_table_has_played_it(stack: Stack) -> None:
    """Laws 80B, 16C1. Round 1: board 1 at pub-t-1 (and boards 2, 3 at the others), each
    passed out; board 1 is still to come at pub-t-3, so the public sees nothing of it at
    pub-t-1: its state `withheld`, its history without its events, its PBN refused (409).
    Round 2: at pub-t-3 it stays withheld while it is played there, and is public (its deal,
    its calls, its result) once pub-t-3 has passed it out. pub-t-2's board 3 (played at
    pub-t-3 in round 1): withheld, until the Director makes pub-t-2 a vugraph match; then
    the public sees its calls as they are made, the delay after each."""
    with stack.client(stack.director) as http:
        made = http.post("/api/tournaments", json={
            "tournament": "pub-t", "tables": 3, "deals": DEALS, "entrants": PAIRS,
            "movement": {"kind": "mitchell", "boards_per_round": 1, "rounds": 2}})
        assert made.status_code == 201, made.text
        created = made.json()
        seats = {t["table"]: t["seats"] for t in created["tables"]}
        t1, t2, t3 = sorted(seats)
        vugraph = created["vugraph"].split("#", 1)[1]
        assert http.post("/api/tournaments/pub-t/rounds", json={"round": 1}).status_code == 202
        for table, board in ((t1, 1), (t2, 2), (t3, 3)):
            wait_for_auction(http, table, board)
    with another_gateway(stack, stack.gateway_port + 11, "gateway-public.log", PUBLIC) as url:
        listed = _read(url, vugraph, "/api/tournaments/pub-t/vugraph")
        assert listed.status_code == 200, listed.text
        public = {line["table"]: line["link"].split("#", 1)[1]
                  for line in listed.json()["tables"]}
        frames = Frames(f"ws://{url.removeprefix('http://')}/api/tables/{t1}/feed"
                        f"?token={public[t1]}")
        try:
            for table, board in ((t1, 1), (t2, 2), (t3, 3)):
                _pass_out(stack, seats[table], table, board)
            wait_for(lambda: all(_state(url, public[t], t)["version"] == _director_version(
                stack, t) for t in (t1, t2, t3)), DELAY + 20, "the public at round 1's end")
            _assert_withheld(_state(url, public[t1], t1)["board"], 1)
            history = _read(url, public[t1], f"/api/tables/{t1}/history").json()
            assert all(e["board"] != 1 for e in history["history"])
            assert "deal" not in json.dumps(history["history"])
            _assert_withheld(history["state"], 1)
            pbn = _read(url, public[t1], f"/api/tables/{t1}/history?board=1&format=pbn")
            assert pbn.status_code == 409 and pbn.json()["field"] == "board", pbn.text
            assert frames.boards() and all("withheld" in b for b in frames.boards())
        finally:
            frames.close()

        with stack.client(stack.director) as http:
            assert http.post("/api/tournaments/pub-t/rounds",
                             json={"round": 2}).status_code == 202
            for table, board in ((t1, 2), (t2, 3), (t3, 1)):
                wait_for_auction(http, table, board)
        # board 1 in play at pub-t-3: withheld there too
        wait_for(lambda: _state(url, public[t3], t3)["version"] == _director_version(
            stack, t3), DELAY + 20, "the public at round 2's start")
        _assert_withheld(_state(url, public[t3], t3)["board"], 1)
        last = _pass_out(stack, seats[t3], t3, 1)

        def shown() -> dict[str, Any] | None:
            seen = _state(url, public[t3], t3)
            return seen if seen["version"] == last and "withheld" not in seen["board"] \
                else None
        board1 = wait_for(shown, DELAY + 20, "board 1 public once both tables played it")
        with stack.client(stack.director) as http:
            dealt = http.get(f"/api/tables/{t3}/state").json()["board"]
        assert board1["board"]["deal"] == dealt["deal"] and dealt["deal"]
        assert len(board1["board"]["calls"]) == 4 and board1["board"]["result"] is not None
        record = _read(url, public[t1], f"/api/tables/{t1}/history?board=1").json()
        assert [e["event"]["call"] for e in record["history"]
                if e["event"]["type"] == "call"] == ["P"] * 4
        assert "withheld" not in record["state"]

        _vugraph_match(stack, url, public, seats, t2)
        lines = _read(url, vugraph, "/api/tournaments/pub-t/vugraph").json()["tables"]
        assert [line["table"] for line in lines if line["vugraph_match"]] == [t2]


def _vugraph_match(stack: Stack, url: str, public: dict[str, str],
                   seats: dict[str, dict[str, str]], t2: str) -> None:
    """Board 3 at pub-t-2 (pub-t-3 played it in round 1): withheld; the Director's vugraph
    match shows it, each call the delay after it is made."""
    wait_for(lambda: _state(url, public[t2], t2)["version"] == _director_version(stack, t2),
             DELAY + 20, "the public at pub-t-2's board 3")
    _assert_withheld(_state(url, public[t2], t2)["board"], 3)
    with stack.client(stack.director) as http:
        answer = http.put(f"/api/tournaments/pub-t/tables/{t2}/vugraph-match",
                          json={"on": True})
        assert answer.status_code == 200, answer.text
        assert http.put("/api/tournaments/pub-t/tables/nowhere/vugraph-match",
                        json={"on": True}).status_code == 404
    wait_for(lambda: "withheld" not in _state(url, public[t2], t2)["board"], 20,
             "pub-t-2 shown live")
    assert _state(url, public[t2], t2)["board"]["deal"]
    frames = Frames(f"ws://{url.removeprefix('http://')}/api/tables/{t2}/feed"
                    f"?token={public[t2]}")
    try:
        made_at = time.time()
        offset = _post(stack, seats[t2]["S"], t2, {"type": "call", "call": "1C"})  # dealer
        arrived, frame = wait_for(lambda: next(((at, f) for at, f in list(frames.got)
                                                if f["version"] >= offset), None),
                                  DELAY + 10, "the call on the public's socket")
        assert arrived - made_at >= DELAY - 0.05
        assert frame["board"]["calls"] == [{"seat": "S", "call": "1C"}]
    finally:
        frames.close()


def _assert_withheld(board: dict[str, Any], number: int) -> None:
    assert board["board"] == number and "still being played" in board["withheld"], board
    assert not {"deal", "calls", "play", "result", "alerts"} & set(board), board
