"""The demo's tournament without a stack (services/cli/demo_tournament.py): its deals read back
as the demo's real boards, its entrants and Howell fit its tables and deals as the gateway
checks them, each round's boards are the movement's, and a concession (Law 68B) varies the
results from table to table."""

from __future__ import annotations

import pytest

from services.cli import demo_tournament
from services.cli.demo_play import auctions, load_boards, played
from shared import fold, from_map
from shared.scores.vocabulary import Scoring
from shared.table.board_result import result_view
from shared.tournament.entrants import MovementKind, entrants_of, movement_of, plan
from shared.tournament.session import deals_of

SCRIPTS = played(load_boards())


def test_the_demo_plays_its_real_boards_and_bids_its_irregular_auctions_apart() -> None:
    boards = load_boards()
    assert len(SCRIPTS) + len(auctions(boards)) == len(boards)
    for events in SCRIPTS:  # each real board ends: its play is over
        board = fold(from_map(e) for e in events).board
        assert board is not None and board.period_over
    for events in auctions(boards):
        assert not any(e["type"] == "card_played" for e in events)


def test_its_deals_read_back_numbered_one_on_as_the_boards_were_played() -> None:
    deals = deals_of(demo_tournament.deals_pbn(SCRIPTS))
    assert sorted(deals) == list(range(1, len(SCRIPTS) + 1))
    for number, events in enumerate(SCRIPTS, start=1):
        start = from_map(events[0])
        again = from_map({"type": "board_started", **deals[number]})
        assert (again.deal, again.dealer, again.vulnerability) == (
            start.deal, start.dealer, start.vulnerability)


@pytest.mark.parametrize("tables", [2, 3, 4, 8])
def test_its_howell_fits_its_tables_and_deals_and_plays_two_boards_a_round(
        tables: int) -> None:
    rounds = min(demo_tournament.ROUNDS, demo_tournament.most_rounds(tables, len(SCRIPTS)))
    body = demo_tournament.creation("demo", tables, rounds, SCRIPTS)
    entrants = entrants_of(body["entrants"])
    assert len(entrants) == 2 * tables and len({e.name for e in entrants}) == len(entrants)
    given = body["movement"]
    movement = movement_of(MovementKind(given["kind"]), given["boards_per_round"],
                           given["rounds"], Scoring.MATCHPOINTS, len(entrants), tables,
                           list(deals_of(body["deals"])))  # the gateway's check: no error
    assert movement.rounds == rounds >= 1
    per = demo_tournament.PER_ROUND
    for number, rnd in enumerate(plan(movement, len(entrants)), start=1):
        assert rnd.sit_out == () and len(rnd.tables) == tables  # every table plays
        assert {s.boards for s in rnd.tables} == {
            tuple(range(per * (number - 1) + 1, per * number + 1))}


def test_a_concession_at_some_tables_varies_the_results() -> None:
    """Law 68B: the claimer may concede a trick the record's claim kept; the score moves."""
    claimed = [n for n, events in enumerate(SCRIPTS, start=1)
               if any(e["type"] == "claim" and e["tricks"] > 0 for e in events)]
    assert claimed
    for number in claimed:
        events = SCRIPTS[number - 1]
        scores = set()
        for table in range(3):
            board = fold(from_map(e) for e in demo_tournament.varied(events, table,
                                                                     number)).board
            assert board is not None and board.period_over
            result = result_view(board)
            assert result is not None
            scores.add(result["score_ns"])
        assert len(scores) == 2, number  # one table in three concedes one trick
    assert demo_tournament.varied(SCRIPTS[0], 1, 1) == SCRIPTS[0]  # the others as recorded
