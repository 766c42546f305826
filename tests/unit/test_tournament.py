"""Tournaments in the pure core: the deals of a dealing program's PBN file (Law 2 where the
file is silent), each table's boards in a round, and a table's line in the overview."""

from __future__ import annotations

from typing import Any

import pytest

from shared.codec import from_map
from shared.table.engine import fold
from shared.table.table_summary import table_summary, totals_of
from shared.tournament.session import (
    Tournament,
    TournamentError,
    deals_of,
    digest_of,
    round_boards,
    table_names,
)

DEALS = """% made by a dealing program
[Event "Spring pairs"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"]

[Board "2"]
[Deal "E:JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6 4.KJ32.842.AQ743"]

[Board "3"]
[Dealer "W"]
[Vulnerable "All"]
[Deal "N:4.KJ32.842.AQ743 JT987.Q876.AK5.2 AK532.T.JT6.T985 Q6.A954.Q973.KJ6"]
"""


def tournament(tables: int = 3) -> Tournament:
    return Tournament("spring", "Spring pairs", "duplicate", table_names("spring", tables),
                      deals_of(DEALS))


def test_the_deals_keep_the_files_numbers_dealers_and_vulnerability() -> None:
    deals = deals_of(DEALS)
    assert sorted(deals) == [1, 2, 3]
    assert deals[1]["deal"].startswith("N:4.KJ32") and deals[1]["dealer"] == "N"
    assert deals[3]["dealer"] == "W" and deals[3]["vulnerability"] == "Both"


def test_law_2_gives_dealer_and_vulnerability_where_the_file_is_silent() -> None:
    """Law 2: board 2 is dealt by East, North-South vulnerable."""
    deals = deals_of(DEALS)
    assert "dealer" not in deals[2]
    board = fold([from_map({"type": "board_started", **deals[2]})]).board
    assert board is not None and board.dealer.name == "E"
    assert str(board.vulnerability) == "NS"


@pytest.mark.parametrize(("text", "problem"), [
    ("", "holds no deal"),
    ('[Board "1"]\n[Deal "N:AKQ.2.3.4 - - -"]\n', "line 2"),
    (DEALS + '\n[Board "2"]\n[Deal "' + DEALS.split('[Deal "')[1].split('"')[0] + '"]\n',
     "board 2 is in the file twice"),
    # a number no round could start (docs/api.md, 400)
    (DEALS.replace('[Board "1"]', '[Board "99999999999999999999999"]'),
     "board 99999999999999999999999: a board's number goes from 1 to 1000000"),
    (DEALS.replace('[Board "1"]', '[Board "1000001"]'), "board 1000001"),
])
def test_a_bad_deals_file_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(TournamentError, match=problem) as caught:
        deals_of(text)
    assert caught.value.field == "deals"


def test_every_table_plays_the_same_boards_by_default() -> None:
    plan = round_boards(tournament(), [1, 2], None)
    assert list(plan) == ["spring-1", "spring-2", "spring-3"]
    assert all([b["board"] for b in boards] == [1, 2] for boards in plan.values())


def test_a_movement_gives_each_table_its_own_boards_and_may_leave_one_out() -> None:
    plan = round_boards(tournament(), None, {"spring-1": [3, 1], "spring-2": [2]})
    assert {t: [b["board"] for b in bs] for t, bs in plan.items()} == {
        "spring-1": [3, 1], "spring-2": [2]}


@pytest.mark.parametrize(("boards", "movement", "field"), [
    ([1, 9], None, "boards[1]"),
    (None, {"spring-9": [1]}, "movement.spring-9"),
    (None, {"spring-1": [4]}, "movement.spring-1[0]"),
    (None, {"spring-1": []}, "movement.spring-1"),
    (None, None, "boards"),
    ([1], {"spring-1": [1]}, "boards"),
])
def test_a_bad_round_names_the_field_at_fault(boards: list[int] | None,
                                              movement: dict[str, list[int]] | None,
                                              field: str) -> None:
    with pytest.raises(TournamentError) as caught:
        round_boards(tournament(), boards, movement)
    assert caught.value.field == field


def test_a_tournament_round_trips_through_its_map_and_the_same_request_has_one_digest() -> None:
    made = tournament()
    assert Tournament.from_map(made.to_map()) == made
    request: dict[str, Any] = {"tournament": "spring", "tables": 3}
    assert digest_of(request) == digest_of({"tables": 3, "tournament": "spring"})
    assert digest_of(request) != digest_of({**request, "tables": 4})


def test_tables_are_named_from_the_tournament_or_as_given() -> None:
    assert table_names("spring", 2) == ("spring-1", "spring-2")
    assert table_names("spring", ["a", "b"]) == ("a", "b")
    with pytest.raises(TournamentError, match="twice"):
        table_names("spring", ["a", "a"])


def ev(**m: Any) -> Any:
    return from_map(m)


def test_the_overview_line_follows_the_table_through_its_round() -> None:
    """A round of two boards: an insufficient bid (Law 27) raises an alert, open until the
    director rules; the opening lead faced on board 1 ends its auction period (Law 17E) and
    the play begins; once its result is recorded (Law 79A) board 1 is over, and board 3
    starts by itself once the director lets the held table go on."""
    deals = deals_of(DEALS)
    state = fold([])
    assert table_summary(state)["status"] == "waiting"
    state = fold([ev(type="round_started", round=1, boards=[deals[1], deals[3]]),
                  ev(type="call", seat="N", call="1S"), ev(type="call", seat="E", call="1H")])
    line = table_summary(state)
    assert (line["board"], line["status"], line["turn"]) == (1, "auction", "S")
    assert line["alerts"] == 1 and line["open_alerts"] == 1 and line["boards_left"] == 1
    state = fold([ev(type="ruling", action="cancel_call", seat="E", index=1)], state)
    assert table_summary(state)["open_alerts"] == 0
    state = fold([ev(type="table_held", held=True),
                  *(ev(type="call", seat=s, call="P") for s in "ESW")], state)
    assert table_summary(state)["status"] == "closed"  # the opening lead is awaited
    state = fold([ev(type="opening_lead", seat="E", card="HQ")], state)
    line = table_summary(state)
    assert (line["board"], line["status"], line["turn"]) == (1, "play", "S")  # dummy's turn
    state = fold([ev(type="result_recorded", tricks=8)], state)
    assert state.board is not None
    raised = len(state.board.alerts)  # on board 1: the insufficient bid's, and after
    line = table_summary(state)
    assert (line["board"], line["status"], line["held"]) == (1, "held", True)
    state = fold([ev(type="table_held", held=False)], state)
    line = table_summary(state)
    assert (line["board"], line["status"], line["turn"]) == (3, "auction", "W")
    assert line["boards_finished"] == 1 and line["alerts"] == raised >= 1
    assert line["open_alerts"] == 0


def test_a_table_on_lead_or_in_its_play_is_playing_and_shows_the_hand_due() -> None:
    """Law 41A: once the auction closes, the defender on declarer's left (1S by N: E) is due
    to face the opening lead: the overview names him. The tables counted as playing are those
    with a board in progress, in its auction, awaiting its lead, or in its play; not one
    waiting for its first board, held, or done."""
    deals = deals_of(DEALS)
    auction = fold([ev(type="round_started", round=1, boards=[deals[1]]),
                    ev(type="call", seat="N", call="1S")])
    on_lead = fold([ev(type="call", seat=s, call="P") for s in "ESW"], auction)
    in_play = fold([ev(type="opening_lead", seat="E", card="HQ")], on_lead)
    done = fold([ev(type="result_recorded", tricks=8)], in_play)
    lines = {name: table_summary(state) for name, state in (
        ("waiting", fold([])), ("auction", auction), ("on_lead", on_lead),
        ("in_play", in_play), ("done", done))}
    assert [(line["status"], line["turn"]) for line in lines.values()] == [
        ("waiting", None), ("auction", "E"), ("closed", "E"), ("play", "S"), ("done", None)]
    totals = totals_of(lines.values())
    assert (totals["tables"], totals["playing"], totals["boards_finished"]) == (5, 3, 1)
