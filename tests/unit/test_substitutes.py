"""Substitutes for players who vanish (shared/table/substitutes.py; docs/operations.md,
"Substitutes"): a seat's presence from its gateways' marks, when a robot sits in for a player
with no open page at his turn, when it stands up, what the table is told, and the events'
fold: the substitute's name on the boards he plays."""

from __future__ import annotations

from typing import Any

from shared.codec import decode, encode, from_map
from shared.events import Event
from shared.seats import Seat
from shared.table.board_result import contract_line
from shared.table.engine import fold
from shared.table.substitutes import (
    FRESH_MS,
    SeatPresence,
    acting_seat,
    due_at,
    not_connected,
    page_key,
    presence_of,
    substitute_name,
    substitutes_standing_up,
    waiting_since,
)
from shared.table.table_summary import table_summary
from shared.table.think_times import table_times
from tests.helpers import DEAL

NOW = 1_000_000
AFTER = 60_000
GONE = {s: SeatPresence(s != "W", NOW - 1000 if s != "W" else None) for s in "NESW"}
BACK = {s: SeatPresence(True, NOW - 1000) for s in "NESW"}


def ev(**m: Any) -> Event:
    return from_map(m)


def test_a_seat_is_connected_while_any_gateways_mark_is_fresh() -> None:
    seen = presence_of({"N": [NOW - FRESH_MS - 1, NOW - 5], "E": [NOW - FRESH_MS]}, NOW)
    assert seen["N"] == SeatPresence(True, NOW - 5)  # one gateway's old mark, another's fresh
    assert seen["E"] == SeatPresence(False, NOW - FRESH_MS)  # its gateway is gone
    assert seen["W"] == SeatPresence(False, None)  # never opened


def test_a_seat_whose_page_the_asking_gateway_holds_is_connected_whatever_its_marks() -> None:
    """A gateway whose loop runs late marks late: its own open pages are seen now."""
    stale = {"W": [NOW - FRESH_MS - 5000]}
    assert presence_of(stale, NOW)["W"] == SeatPresence(False, NOW - FRESH_MS - 5000)
    assert presence_of(stale, NOW, here=("W",))["W"] == SeatPresence(True, NOW)
    assert presence_of({}, NOW, here=("N",))["N"] == SeatPresence(True, NOW)  # not marked yet
    assert presence_of({}, NOW, here=("N",))["W"] == SeatPresence(False, None)


def test_a_players_page_counts_for_his_round_only() -> None:
    """The round before's player at the seat, his page still open while he moves, is not the
    new round's player: a page bound to round 1 (`W@1`) leaves West not connected in round
    2, from the turn's start; a page not bound to a round (`W`) counts in every round."""
    assert page_key("W", 2) == "W@2" and page_key("W", None) == "W"
    before = {"W@1": [NOW - 5]}
    assert presence_of(before, NOW, round_number=2)["W"] == SeatPresence(False, None)
    assert presence_of(before, NOW, round_number=1)["W"] == SeatPresence(True, NOW - 5)
    assert presence_of({"W@2": [NOW - 5]}, NOW, round_number=2)["W"].connected
    assert presence_of({"W": [NOW - 5]}, NOW, round_number=2)["W"].connected
    assert not presence_of({}, NOW, here=("W@1",), round_number=2)["W"].connected
    assert presence_of({}, NOW, here=("W@2",), round_number=2)["W"].connected


def test_declarer_acts_for_dummys_hand() -> None:
    """Law 45A: declarer plays dummy's cards, so dummy's player is not waited for."""
    assert acting_seat("S", declarer="N", dummy="S") == "N"
    assert acting_seat("E", declarer="N", dummy="S") == "E"
    assert acting_seat("W", declarer=None, dummy=None) == "W"  # the auction


def test_the_wait_counts_from_the_later_of_the_turns_start_and_the_pages_last_mark() -> None:
    assert waiting_since(NOW - 5000, SeatPresence(False, NOW - 9000)) == NOW - 5000
    assert waiting_since(NOW - 9000, SeatPresence(False, NOW - 5000)) == NOW - 5000
    assert waiting_since(NOW - 9000, SeatPresence(False, None)) == NOW - 9000
    assert waiting_since(NOW - 9000, SeatPresence(True, NOW)) is None


def test_a_substitute_falls_due_the_directors_time_after_the_wait_began() -> None:
    """The gateway's next look is timed by it: the wait's start plus the Director's time,
    from the later of the turn's start and the page's last mark."""
    assert due_at("W", [], [], NOW - 5000, GONE, AFTER) == NOW - 5000 + AFTER
    left = {**GONE, "W": SeatPresence(False, NOW - 2000)}  # his page closed after the turn
    assert due_at("W", [], [], NOW - 5000, left, AFTER) == NOW - 2000 + AFTER
    assert due_at("W", ["W"], [], NOW - 5000, GONE, AFTER) is None  # seated already
    assert due_at("N", [], [], NOW - 5000, GONE, AFTER) is None  # North's page open
    assert due_at("W", [], [], None, GONE, AFTER) is None  # the turn's start not known
    assert due_at(None, [], [], NOW - 5000, GONE, AFTER) is None  # no one's turn


def test_nobody_sits_in_at_a_seat_the_director_gave_our_robots() -> None:
    assert due_at("W", [], ["W"], NOW - AFTER, GONE, AFTER) is None


def test_the_substitute_stands_up_once_his_player_is_back_and_his_turn_is_over() -> None:
    assert substitutes_standing_up("N", ["W"], GONE) == ()  # not back
    assert substitutes_standing_up("N", ["W"], BACK) == ("W",)
    assert substitutes_standing_up("W", ["W"], BACK) == ()  # the robot finishes his turn
    assert substitutes_standing_up(None, ["E", "W"], BACK) == ("E", "W")


def test_the_table_is_told_whom_it_waits_for_until_a_substitute_sits() -> None:
    assert not_connected("W", [], [], GONE) == "waiting for West, not connected"
    assert not_connected("W", ["W"], ["W"], GONE) is None  # a substitute sits in
    assert not_connected("W", [], ["W"], GONE) is None  # the Director's robot's seat
    assert not_connected("N", [], [], GONE) is None


def test_the_substitute_is_named_for_his_player() -> None:
    assert substitute_name(Seat.W, "Ann") == "Robot (for Ann)"
    assert substitute_name(Seat.W, None) == "Robot (for West)"


def test_the_substitute_plays_under_his_name_from_the_board_in_progress_to_his_players_return(
        ) -> None:
    log = [ev(type="players_named", players={"N": "Ann", "W": "Eve"}),
           ev(type="board_started", board=1),
           ev(type="substitute_seated", seat="W"),
           ev(type="board_started", board=2),
           ev(type="substitute_left", seat="W"),
           ev(type="board_started", board=3)]
    state = fold(log)
    named = [b.to_dict()["players"] for b in state.boards]
    assert named == [{"N": "Ann", "W": "Robot (for Eve)"}, {"N": "Ann", "W": "Robot (for Eve)"},
                     {"N": "Ann", "W": "Eve"}]
    assert fold(log[:4]).substitutes == (Seat.W,) and state.substitutes == ()


def test_a_substitute_seated_twice_changes_nothing() -> None:
    state = fold([ev(type="board_started", board=1), ev(type="substitute_seated", seat="E")])
    assert fold([ev(type="substitute_seated", seat="E")], state) is state
    assert fold([ev(type="substitute_left", seat="N")], state) is state


def test_the_overview_line_names_the_acting_seat_and_the_substitutes() -> None:
    """Law 45A: with dummy (South) to play, declarer (North) acts."""
    state = fold([ev(type="board_started", board=1, dealer="N", vulnerability="None",
                     deal=DEAL),
                  *(ev(type="call", seat=s, call=c) for s, c in zip("NESW", ["1C", "P", "P",
                                                                            "P"], strict=True)),
                  ev(type="substitute_seated", seat="E")])
    assert (table_summary(state)["acting"], table_summary(state)["substitutes"]) == ("E", ["E"])
    state = fold([ev(type="card_played", seat="E", card="C2")], state)
    assert (table_summary(state)["turn"], table_summary(state)["acting"]) == ("S", "N")


def test_the_substitutes_events_round_trip() -> None:
    for m in ({"type": "substitute_seated", "seat": "W"}, {"type": "substitute_left",
                                                          "seat": "N"}):
        assert decode(encode(from_map(m))) == from_map(m)


def test_a_robots_turns_are_told_apart_from_his_players_in_the_think_times() -> None:
    log = [ev(type="players_named", players={"W": "Ann"}, ts=0),
           ev(type="board_started", board=1, ts=0),
           *(ev(type="call", seat=s, call=c, ts=t) for s, c, t in (("N", "1C", 1000),
                                                                   ("E", "P", 2000),
                                                                   ("S", "1D", 3000))),
           ev(type="substitute_seated", seat="W", ts=63_000),
           ev(type="call", seat="W", call="P", ts=64_000),
           ev(type="substitute_left", seat="W", ts=65_000),
           *(ev(type="call", seat=s, call=c, ts=t) for s, c, t in (("N", "1H", 66_000),
                                                                   ("E", "P", 67_000),
                                                                   ("S", "P", 68_000),
                                                                   ("W", "P", 78_000)))]
    thinks = [t for t in table_times(enumerate(log)).thinks if t.seat is Seat.W]
    assert [(t.player, t.robot, t.ms) for t in thinks] == [("Robot (for Ann)", True, 1000),
                                                          ("Ann", False, 10_000)]
    assert thinks[0].to_map()["robot"] and not thinks[1].to_map()["robot"]


def test_the_travellers_line_names_the_seat_a_substitute_played() -> None:
    played = fold([ev(type="players_named", players={"W": "Ann"}),
                   ev(type="board_started", board=1, dealer="N", vulnerability="None",
                      deal=DEAL),
                   ev(type="substitute_seated", seat="W"),
                   *(ev(type="call", seat=s, call="P") for s in "NESW")])
    assert played.boards[0].status == "passed_out"
    assert contract_line(played.boards[0]) == {"contract": "PASS", "substitutes": "W"}
    alone = fold([ev(type="board_started", board=1, dealer="N", vulnerability="None",
                     deal=DEAL), *(ev(type="call", seat=s, call="P") for s in "NESW")])
    assert contract_line(alone.boards[0]) == {"contract": "PASS"}
