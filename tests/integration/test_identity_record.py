"""Identity in the record on the real stack: a Howell whose entrants carry their players' IDs
(two players named Ann, one with an ID), two rounds played (1NT by the dealer, led, tricks
recorded: Law 79A; scored by Law 77); then the tables' records (`players_named` with the IDs,
the Director's alone), the session's PBN (`[NorthId]` …) and LIN (names alone), the results
(JSON, CSV, USEBIO's `NATIONAL_ID_NUMBER`: the Director's; the public's without IDs) and one
player's boards across the tables, by his ID and by his name."""

from __future__ import annotations

import csv
import io
from typing import Any
from xml.etree import ElementTree

from tests.helpers import DEALS, wait_for, wait_for_auction
from tests.integration.test_tournament_results import SEATS, _deals, _one_notrump, _play
from tests.stack import Stack

T = "ident"
PAIRS = [{"name": "one", "players": ["Bea", "Cal"], "player_ids": ["EBU 11", ""]},
         {"name": "two", "players": ["Dot", "Eli"]},
         {"name": "three", "players": ["Ann", "Flo"]},  # an Ann with no ID
         {"name": "four", "players": ["Ann", "Gil"],
          "player_ids": ["EBU 7", "gil@example.org"]}]
# the Howell's first two rounds (pair 4 fixed, 1-2-3 rotating): round → table → (NS, EW, boards)
SEATED = {1: {"a": (1, 4, (1, 2)), "b": (3, 2, (1, 2))},
          2: {"a": (1, 3, (3, 4)), "b": (2, 4, (3, 4))}}


def _tricks(board: int) -> int:
    return 6 + board % 3


def _scores() -> dict[tuple[str, int], int]:
    """Each (table, board)'s NS score, Law 77 written out (`_one_notrump`)."""
    return {(f"{T}-{x}", board): _one_notrump(SEATS[(board - 1) % 4], board, _tricks(board))
            for tables in SEATED.values() for x, (_, _, boards) in tables.items()
            for board in boards}


def _played(http: Any) -> None:
    deals = _deals()
    made = http.post("/api/tournaments", json={
        "tournament": T, "tables": [f"{T}-a", f"{T}-b"], "deals": DEALS, "entrants": PAIRS,
        "movement": {"kind": "howell", "boards_per_round": 2, "rounds": 3}})
    assert made.status_code == 201, made.text
    seats = {line["table"]: line["seats"] for line in made.json()["tables"]}
    for rnd, tables in SEATED.items():
        started = http.post(f"/api/tournaments/{T}/rounds", json={"round": rnd})
        assert started.status_code == 202, started.text
        for x, (_, _, boards) in tables.items():
            for board in boards:
                wait_for_auction(http, f"{T}-{x}", board)
                _play(http, seats[f"{T}-{x}"], f"{T}-{x}", board, deals[board], _tricks(board))


def test_the_players_ids_reach_the_records_exports_results_and_his_boards(stack: Stack
                                                                           ) -> None:
    scores = _scores()
    with stack.client(stack.director) as http:
        _played(http)

        def boards_of(player: str, count: int) -> list[dict[str, Any]] | None:
            answer = http.get(f"/api/tournaments/{T}/boards", params={"player": player})
            assert answer.status_code == 200, answer.text
            found: list[dict[str, Any]] = answer.json()["boards"]
            return found if sum(b["finished"] for b in found) == count else None

        # pair 4's Ann (EBU 7) sits EW in both rounds: table a, then table b
        mine = wait_for(lambda: boards_of("EBU 7", 4), 30, "her four boards' results")
        assert [(b["table"], b["round"], b["board"], b["seat"]) for b in mine] == [
            (f"{T}-a", 1, 1, "E"), (f"{T}-a", 1, 2, "E"),
            (f"{T}-b", 2, 3, "E"), (f"{T}-b", 2, 4, "E")]
        for b in mine:
            assert b["name"] == "Ann" and b["id"] == "EBU 7" and b["partner"] == "Gil"
            assert b["contract"] == "1NT" and b["declarer"] == SEATS[(b["board"] - 1) % 4]
            assert b["tricks"] == _tricks(b["board"])
            assert b["score_ns"] == scores[b["table"], b["board"]] == -b["score"]
        # by the name: the other Ann (pair 3, no ID): NS at b, then EW at a
        other = boards_of("Ann", 4)
        assert other is not None
        assert [(b["table"], b["round"], b["seat"]) for b in other] == [
            (f"{T}-b", 1, "N"), (f"{T}-b", 1, "N"), (f"{T}-a", 2, "E"), (f"{T}-a", 2, "E")]
        assert all(b["id"] is None for b in other)
        bad = http.get(f"/api/tournaments/{T}/boards", params={"player": " "})
        assert bad.status_code == 400 and bad.json()["field"] == "player", bad.text
        missing = http.get("/api/tournaments/nope/boards", params={"player": "EBU 7"})
        assert missing.status_code == 404, missing.text

        pbn = http.get(f"/api/tournaments/{T}/export", params={"format": "pbn"}).text
        assert pbn.count('[EastId "EBU 7"]') == 4 and pbn.count('[NorthId "EBU 11"]') == 4
        assert pbn.count('[WestId "gil@example.org"]') == 4
        lin = http.get(f"/api/tournaments/{T}/export", params={"format": "lin"}).text
        assert "Ann" in lin and "EBU 7" not in lin
        history = http.get(f"/api/tables/{T}-a/history").json()["history"]
        named = [e["event"] for e in history if e["event"]["type"] == "players_named"]
        assert named[0]["ids"] == {"N": "EBU 11", "E": "EBU 7", "W": "gil@example.org"}

        doc = http.get(f"/api/tournaments/{T}/results").json()
        assert doc["entrants"][3]["player_ids"] == ["EBU 7", "gil@example.org"]
        xml = http.get(f"/api/tournaments/{T}/results", params={"format": "usebio"}).text
        pair = next(p for p in ElementTree.fromstring(xml).findall("EVENT/PARTICIPANTS/PAIR")
                    if p.findtext("PAIR_NUMBER") == "4")
        assert [(p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER"))
                for p in pair.findall("PLAYER")] == [("Ann", "EBU 7"),
                                                     ("Gil", "gil@example.org")]
        table = http.get(f"/api/tournaments/{T}/results", params={"format": "csv"}).text
        rows = {r[2]: r for r in csv.reader(io.StringIO(table)) if r[0] == "ranking"}
        assert rows["4"][-2:] == ["Ann; Gil", "EBU 7; gil@example.org"]

    with stack.client() as public:  # no token: the names alone
        assert public.get(f"/api/tournaments/{T}/boards",
                          params={"player": "EBU 7"}).status_code == 401
        doc = public.get(f"/api/tournaments/{T}/results").json()
        assert all("player_ids" not in e for e in doc["entrants"])
        assert doc["entrants"][3]["players"] == ["Ann", "Gil"]
        xml = public.get(f"/api/tournaments/{T}/results", params={"format": "usebio"}).text
        assert "NATIONAL_ID_NUMBER" not in xml and "EBU 7" not in xml
