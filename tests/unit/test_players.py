"""Players' names at the seats: given by the director (`players_named`), carried by every board
started after (and by the board in progress), shown in the state and written by the exports."""

from __future__ import annotations

from typing import Any

import pytest

from shared.codec import EventError, decode, encode, from_map, to_map
from shared.events import Event
from shared.notation.export import to_lin, to_pbn
from shared.table.engine import fold
from tests.helpers import DEAL


def ev(**m: Any) -> Event:
    return from_map(m)


def test_names_stand_from_the_board_in_progress_on_and_leave_earlier_boards_alone() -> None:
    state = fold([ev(type="players_named", players={"N": "Ann", "S": "Bob"}),
                  ev(type="board_started", board=1),
                  ev(type="board_started", board=2),
                  ev(type="players_named", players={"N": "Cy", "E": "Di", "S": ""}),
                  ev(type="board_started", board=3)])
    named = [b.to_dict().get("players") for b in state.boards]
    assert named == [{"N": "Ann", "S": "Bob"}, {"N": "Cy", "E": "Di"}, {"N": "Cy", "E": "Di"}]


def test_a_rounds_boards_carry_the_names_too() -> None:
    state = fold([ev(type="players_named", players={"W": "Eve"}),
                  ev(type="round_started", round=1, boards=[{"board": 1}, {"board": 2}]),
                  *(ev(type="call", seat=s, call="P") for s in "NESW")])
    assert [b.board for b in state.boards] == [1, 2]
    assert all(b.to_dict()["players"] == {"W": "Eve"} for b in state.boards)


def test_the_exports_write_the_names() -> None:
    log = [{"type": "players_named", "players": {"N": "Ann", "E": "Di", "S": "Bob", "W": "Eve"}},
           {"type": "board_started", "board": 1, "deal": DEAL}]
    pbn = to_pbn(log)
    assert '[North "Ann"]' in pbn and '[West "Eve"]' in pbn
    assert to_lin(log).startswith("pn|Bob,Eve,Ann,Di|")


def test_players_named_round_trips_through_the_codec() -> None:
    event = ev(type="players_named", players={"south": "Bob", "N": "Ann"})
    assert to_map(event)["players"] == {"N": "Ann", "S": "Bob"}
    assert from_map(to_map(event)) == event == decode(encode(event))


@pytest.mark.parametrize(("players", "field"), [
    (None, "players"), ({}, "players"), ({"X": "Ann"}, "players.X"),
    ({"N": 3}, "players.N"), ({"N": "A" * 65}, "players.N"),
])
def test_a_bad_name_names_the_field_at_fault(players: Any, field: str) -> None:
    with pytest.raises(EventError) as refused:
        from_map({"type": "players_named", "players": players})
    assert refused.value.field == field


def test_the_processor_folds_a_tables_own_events_before_any_board() -> None:
    """Names (or a hold) before the first board raise no alert and stop no worker (the
    processor's TableRun once assumed every event had a board)."""
    from shared.table.table_run import TableRun

    run = TableRun("t")
    assert run.apply(0, encode(ev(type="players_named", players={"N": "Ann"}))) == []
    assert run.apply(1, encode(ev(type="table_held", held=True))) == []
    assert run.state.board is None and run.offset == 1
