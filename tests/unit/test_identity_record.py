"""Identity in the record (the player's evening): the players' IDs beside their names where a
table's seats are named (`players_named`'s `ids`), in the fold, the exports (PBN's `[NorthId]`
tags, LIN's names alone, USEBIO's `NATIONAL_ID_NUMBER`), the results (the Director's; the
public's carry the names alone) and one player's boards across a tournament's tables. The
scores read are Law 77's (1NT making eight tricks, not vulnerable: 120)."""

from __future__ import annotations

import csv
import dataclasses
import io
import typing
from typing import Any
from xml.etree import ElementTree

import orjson
import pydantic
import pytest
from pydantic import TypeAdapter

from services.gateway.http.state_models import PlayerBoards
from shared import fold, from_map
from shared.codec import EventError, to_map
from shared.notation import lin_events, pbn_boards
from shared.notation.export import to_lin, to_pbn
from shared.scores.movements import Seating
from shared.seats import Seat
from shared.table.visibility import Reader, Role, entry_for
from shared.tournament.entrants import Entrant, MovementKind, entrants_of
from shared.tournament.player_boards import player_boards, rounds_by_board, seat_of
from shared.tournament.player_boards_view import PlayerBoard
from shared.tournament.results import results
from shared.tournament.results_formats import write_csv
from shared.tournament.seat_ids import seat_ids
from shared.tournament.usebio import write_usebio
from tests.unit.test_tournament_results import DIRECTOR, MITCHELL_TABLES, _made
from tests.unit.tournament_fixtures import round_records

BOARDS = TypeAdapter(PlayerBoards)

D1 = "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"
NAMES = {"N": "Ann", "E": "Di", "S": "Bob", "W": "Eve"}
IDS = {"N": "EBU 7", "S": "bob@example.org"}


def _played(board: int, declarer: str = "N", tricks: int = 8) -> list[dict[str, Any]]:
    """Board `board`: 1NT by `declarer`, passed out after it, led, `tricks` recorded (Law
    79A)."""
    seats = "NESW"
    first = seats.index(declarer)
    calls = [{"type": "call", "seat": seats[(first + i) % 4], "call": c}
             for i, c in enumerate(("1NT", "P", "P", "P"))]
    lead = seats[(first + 1) % 4]
    return [{"type": "board_started", "board": board, "dealer": declarer, "deal": D1},
            *calls, {"type": "opening_lead", "seat": lead,
                     "card": {"N": "C3", "E": "SJ", "S": "SA", "W": "SQ"}[lead]},
            {"type": "result_recorded", "tricks": tricks}]


def _log() -> list[dict[str, Any]]:
    return [{"type": "players_named", "players": NAMES, "ids": IDS}, *_played(1)]


# --- the event and the fold ------------------------------------------------------------------


def test_players_named_carries_ids_and_an_old_record_reads_as_before() -> None:
    event = from_map({"type": "players_named", "players": NAMES, "ids": IDS})
    assert dict(event.ids) == {Seat.N: "EBU 7", Seat.S: "bob@example.org"}
    assert to_map(event)["ids"] == IDS and from_map(to_map(event)) == event
    old = from_map({"type": "players_named", "players": NAMES})
    assert old.ids == () and "ids" not in to_map(old)


@pytest.mark.parametrize(("ids", "field"), [
    ({"X": "1"}, "ids.X"),  # not a seat
    ({"N": "x" * 65}, "ids.N"),  # longer than a name may be
    ({"N": 7}, "ids.N"),  # not text
    ({"W": "EBU 9"}, "ids.W"),  # an ID for a seat not named here
])
def test_a_bad_id_is_refused_naming_its_seat(ids: dict[str, Any], field: str) -> None:
    with pytest.raises(EventError) as refused:
        from_map({"type": "players_named", "players": {"N": "Ann", "S": "Bob"}, "ids": ids})
    assert refused.value.field == field


def test_the_fold_keeps_the_ids_beside_the_names_and_a_seat_named_again_loses_its_id() -> None:
    state = fold(from_map(e) for e in _log())
    board = state.boards[0]
    assert dict(board.player_ids) == {Seat.N: "EBU 7", Seat.S: "bob@example.org"}
    renamed = fold([from_map({"type": "players_named", "players": {"N": "Cy"}}),
                    *(from_map(e) for e in _played(2))], state)
    assert dict(renamed.boards[-1].player_ids) == {Seat.S: "bob@example.org"}
    assert dict(renamed.boards[-1].players)[Seat.N] == "Cy"
    # board 1 was over when the seat was named again: its record keeps who played it
    assert dict(renamed.boards[0].players)[Seat.N] == "Ann"
    assert dict(renamed.boards[0].player_ids)[Seat.N] == "EBU 7"


def test_a_name_given_during_a_board_is_its_own_with_its_id() -> None:
    """The names stand from the board in progress on: one named while it lasts is its."""
    log = [{"type": "board_started", "board": 1, "dealer": "N", "deal": D1},
           {"type": "players_named", "players": {"N": "Ann"}, "ids": {"N": "EBU 7"}}]
    board = fold(from_map(e) for e in log).boards[0]
    assert dict(board.players) == {Seat.N: "Ann"}
    assert dict(board.player_ids) == {Seat.N: "EBU 7"}


def test_a_rounds_next_names_leave_its_last_board_to_those_who_played_it() -> None:
    """A round's last board is over when the next round names its seats (Law 17E: the
    next board starts when its auction period ends; the names are the next board's)."""
    log = [{"type": "players_named", "players": {"N": "Ann"}, "ids": {"N": "EBU 7"}},
           {"type": "round_started", "round": 1, "boards": [{"board": 1, "deal": D1}]},
           *_played(1)[1:],
           {"type": "players_named", "players": {"N": "Cy"}, "ids": {"N": "EBU 9"}},
           {"type": "round_started", "round": 2, "boards": [{"board": 2, "deal": D1}]}]
    first, second = fold(from_map(e) for e in log).boards
    assert (dict(first.players), dict(first.player_ids)) == ({Seat.N: "Ann"},
                                                             {Seat.N: "EBU 7"})
    assert (dict(second.players), dict(second.player_ids)) == ({Seat.N: "Cy"},
                                                               {Seat.N: "EBU 9"})


def test_ids_are_the_directors_in_a_tables_history() -> None:
    """A seat, a spectator: the names alone; the Director: the IDs too (an email is no
    one else's to read)."""
    entry = {"offset": 0, "event": {"type": "players_named", "players": NAMES, "ids": IDS}}
    seat = entry_for(Reader(Role.SEAT, Seat.N), entry, 0, 0)  # type: ignore[arg-type]
    public = entry_for(Reader(Role.SPECTATOR), entry, 0, 0)  # type: ignore[arg-type]
    director = entry_for(Reader(Role.DIRECTOR), entry, 0, 0)  # type: ignore[arg-type]
    assert "ids" not in seat["event"] and "ids" not in public["event"]
    assert seat["event"]["players"] == NAMES
    assert director["event"]["ids"] == IDS


# --- a round seats the IDs -------------------------------------------------------------------


def test_a_round_seats_each_players_id_where_his_name_sits() -> None:
    entrants = entrants_of([{"players": ["Ann", "Bob"], "player_ids": ["EBU 7", ""]},
                            {"players": ["Cy", "Di"], "player_ids": ["", "di@example.org"]},
                            {"players": ["Eve", "Fay"]}])
    assert seat_ids(Seating(1, 1, 2, (1,)), entrants, False) == {"N": "EBU 7",
                                                                  "W": "di@example.org"}
    assert seat_ids(Seating(2, 3, 1, (1,)), entrants, False) == {"E": "EBU 7"}
    assert seat_ids(Seating(3, 3, 3, (1,)), entrants, False) == {}
    teams = (Entrant(1, "Home", ("A", "B", "C", "D"), ("1", "2", "3", "4")),
             Entrant(2, "Away", ("E", "F", "G", "H"), ("5", "", "7", "8")))
    assert seat_ids(Seating(1, 1, 2, (1,)), teams, True) == {"N": "1", "S": "2", "E": "7",
                                                             "W": "8"}
    assert seat_ids(Seating(2, 2, 1, (1,)), teams, True) == {"N": "5", "E": "3", "W": "4"}


# --- the exports -------------------------------------------------------------------------------


def test_pbn_writes_the_ids_as_seat_id_tags_and_reads_them_back() -> None:
    text = to_pbn(_log())
    assert '[NorthId "EBU 7"]' in text and '[SouthId "bob@example.org"]' in text
    assert "EastId" not in text and "WestId" not in text
    tags = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    supplemental = tags[tags.index("Score") - 1:]  # after the play: in alphabetical order
    assert supplemental == sorted(supplemental)
    events = pbn_boards(text).events
    named = next(e for e in events if e["type"] == "players_named")
    assert named["ids"] == IDS and named["players"] == NAMES
    board = fold(from_map(e) for e in events).boards[0]
    assert dict(board.player_ids) == {Seat.N: "EBU 7", Seat.S: "bob@example.org"}


def test_lin_has_the_names_alone() -> None:
    text = to_lin(_log())
    assert "pn|Bob,Eve,Ann,Di|" in text
    assert "EBU 7" not in text and "bob@example.org" not in text
    assert lin_events(text)  # still a LIN its reader takes


def _results(everything: bool) -> tuple[dict[str, Any], Any]:
    made = _made(MovementKind.MITCHELL, 6, 2, 2)
    first = made.entrants[0]
    made = dataclasses.replace(made, entrants=(
        Entrant(1, first.name, first.players[:2], ("EBU 7", "")), *made.entrants[1:]))
    return results(made, round_records(made), MITCHELL_TABLES, DIRECTOR, everything), made


def test_usebio_carries_each_players_national_id_number_in_the_directors_results() -> None:
    doc, made = _results(True)
    root = ElementTree.fromstring(write_usebio(doc, made))
    pair = next(p for p in root.findall("EVENT/PARTICIPANTS/PAIR")
                if p.findtext("PAIR_NUMBER") == "1")
    players = pair.findall("PLAYER")
    assert [p.findtext("PLAYER_NAME") for p in players] == list(made.entrants[0].players)
    assert [p.findtext("NATIONAL_ID_NUMBER") for p in players] == ["EBU 7", None]
    public, _ = _results(False)
    assert "NATIONAL_ID_NUMBER" not in write_usebio(public, made)


def test_the_results_carry_names_and_ids_for_the_director_names_alone_for_the_public() -> None:
    doc, made = _results(True)
    assert doc["entrants"][0]["player_ids"] == ["EBU 7", ""]
    public, _ = _results(False)
    assert all("player_ids" not in e for e in public["entrants"])
    assert public["entrants"][0]["players"] == list(made.entrants[0].players)
    rows = [r for r in csv.reader(io.StringIO(write_csv(doc))) if r[0] == "ranking"]
    header, lines = rows[0], {r[2]: r for r in rows[1:]}
    assert header[-2:] == ["players", "player_ids"]
    assert lines["1"][-2:] == ["; ".join(made.entrants[0].players), "EBU 7; "]
    assert lines["2"][-1] == ""  # no IDs given
    public_rows = [r for r in csv.reader(io.StringIO(write_csv(public))) if r[0] == "ranking"]
    assert all(r[-1] == "" for r in public_rows[1:])


# --- one player's boards ---------------------------------------------------------------------


def _tables() -> dict[str, Any]:
    """Table t-1 plays board 1 in round 1 (Ann, EBU 7, North, declares 1NT: eight tricks);
    table t-2 board 2 in round 2 (she sits East); t-3 has another Ann, with no ID, at West."""
    t1 = [{"type": "players_named", "players": NAMES, "ids": {"N": "EBU 7"}}, *_played(1)]
    t2 = [{"type": "players_named", "players": {"N": "Gus", "E": "Ann", "S": "Hal", "W": "Ivy"},
           "ids": {"E": "EBU 7"}}, *_played(2, "N", 7)]
    t3 = [{"type": "players_named", "players": {"N": "Jo", "E": "Kit", "S": "Lu", "W": "Ann"}},
          *_played(2, "W", 9)]
    return {t: fold(from_map(e) for e in log).boards for t, log in
            (("t-1", t1), ("t-2", t2), ("t-3", t3))}


ROUNDS = [{"type": "round_started", "round": 1, "tables": {"t-1": [1], "t-3": [2]}},
          {"type": "round_started", "round": 2, "tables": {"t-2": [2]}}]


def test_a_players_boards_are_found_by_his_id_across_tables_with_their_scores() -> None:
    found = player_boards(_tables(), rounds_by_board(ROUNDS), "EBU 7")
    assert [(b["table"], b["round"], b["board"], b["seat"]) for b in found] == [
        ("t-1", 1, 1, "N"), ("t-2", 2, 2, "E")]
    first, second = found
    assert first["contract"] == "1NT" and first["declarer"] == "N"
    assert first["result"] == "+1" and first["score_ns"] == 120 and first["score"] == 120
    assert first["partner"] == "Bob" and first["id"] == "EBU 7"
    assert second["result"] == "=" and second["score_ns"] == 90 and second["score"] == -90


def test_by_name_only_the_seats_without_an_id_are_his() -> None:
    """Two players named Ann: the one with an ID is found by it alone; by the name, the
    other (her seat has no ID)."""
    found = player_boards(_tables(), rounds_by_board(ROUNDS), "Ann")
    assert [(b["table"], b["seat"]) for b in found] == [("t-3", "W")]
    assert found[0]["score"] == 150 and found[0]["id"] is None
    assert player_boards(_tables(), rounds_by_board(ROUNDS), "Nobody") == []


def test_a_board_without_its_result_says_where_it_stands() -> None:
    log = [{"type": "players_named", "players": NAMES, "ids": IDS},
           {"type": "board_started", "board": 3, "deal": D1}]
    board = fold(from_map(e) for e in log).boards[0]
    assert seat_of(board, "bob@example.org") is Seat.S
    entry = player_boards({"t-1": [board]}, {}, "bob@example.org")[0]
    assert entry["status"] == "auction" and entry["finished"] is False
    assert entry["round"] is None and entry["score"] is None and entry["contract"] is None


def test_a_players_boards_are_the_declared_answer_every_key_on_every_board() -> None:
    """The answer (GET /api/tournaments/{t}/boards) is `player_boards_view.PlayerBoards`,
    strictly, no key undeclared: for boards with their results and one still in its auction
    (its contract, declarer, lead, tricks, result and scores null, not missing)."""
    log = [{"type": "players_named", "players": NAMES, "ids": IDS},
           {"type": "board_started", "board": 3, "deal": D1}]
    waiting = fold(from_map(e) for e in log).boards[0]
    tables = {**_tables(), "t-9": [waiting]}
    answers = [{"tournament": "eve", "player": player,
                "boards": player_boards(tables, rounds_by_board(ROUNDS), player)}
               for player in ("EBU 7", "Ann", "bob@example.org")]
    assert sum(len(a["boards"]) for a in answers) == 5
    for answer in answers:
        BOARDS.validate_json(orjson.dumps(answer), strict=True)
        for board in answer["boards"]:
            assert set(board) == set(typing.get_type_hints(PlayerBoard)), board
    with pytest.raises(pydantic.ValidationError):
        BOARDS.validate_python({**answers[0], "boards": [{**answers[0]["boards"][0],
                                                          "substitutes": ["W"]}]})
