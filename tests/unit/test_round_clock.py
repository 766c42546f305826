"""The round's clock as a fold of its events (`round_started`'s `ends_at`, `round_extended`,
`round_ended`): a replay gives the same round ends, the same boards left unfinished, and the
next round's first board at the same event. The unfinished board's score is the Director's
(Law 12C2, an artificial adjusted score; docs/scoring.md, "The clock")."""

from __future__ import annotations

from typing import Any

from shared import fold, from_map
from shared.codec import encode
from shared.table.engine import TableState
from shared.table.table_run import TableRun
from shared.table.table_summary import table_summary
from shared.vocabulary import BoardStatus, TableStatus
from tests.helpers import DEAL
from tests.script import log as scripted

ENDS = 1_700_000_900_000


def rnd(number: int, *boards: int, ends_at: int | None = ENDS) -> dict[str, Any]:
    m: dict[str, Any] = {"type": "round_started", "round": number,
                         "boards": [{"board": b, "deal": DEAL} for b in boards]}
    if ends_at is not None:
        m["ends_at"] = ends_at
    return m


def table(events: list[dict[str, Any]]) -> TableState:
    return fold(from_map(m) for m in events)


def in_auction(first: int) -> list[dict[str, Any]]:
    """Round 1 of boards `first`, `first + 1`, its first board in its auction (N 1C)."""
    return [rnd(1, first, first + 1), {"type": "call", "seat": "N", "call": "1C"}]


def test_a_timed_rounds_clock_is_the_tables_and_in_its_view() -> None:
    state = table(in_auction(1))
    assert state.clock is not None and (state.clock.round, state.clock.ends_at) == (1, ENDS)
    assert not state.clock.over
    run = TableRun("t")
    for offset, m in enumerate(in_auction(1)):
        run.apply(offset, encode(from_map(m)))
    assert run.view()["clock"] == {"round": 1, "ends_at": ENDS, "over": False, "held": False}


def test_an_untimed_round_has_no_clock() -> None:
    assert table([rnd(1, 1, ends_at=None)]).clock is None


def test_the_director_moves_the_end_of_the_round_in_progress_only() -> None:
    state = table([*in_auction(1), {"type": "round_extended", "round": 1, "ends_at": ENDS + 60_000},
                   {"type": "round_extended", "round": 7, "ends_at": 1}])  # not this round's
    assert state.clock is not None and state.clock.ends_at == ENDS + 60_000


def test_the_rounds_end_leaves_its_board_unfinished_and_drops_the_boards_not_started() -> None:
    """Law 12C2: a board not played, or left in its auction, gets the Director's artificial
    score; here the table only keeps where each stood."""
    state = table([*in_auction(1), {"type": "round_ended", "round": 1}])
    assert state.clock is not None and state.clock.over
    assert state.queue == ()  # board 2 never starts
    assert state.board is not None and state.board.board == 1
    assert state.board.status is BoardStatus.AUCTION


def test_a_table_whose_round_the_clock_ended_is_done_in_its_overview_line() -> None:
    """The board the clock cut stays as it stood (Law 12C2 scores it), but the table's round is
    over: its overview line says `done` with no one to act, so the players' pages show the
    round over (and no substitute is sat for a turn that will never come)."""
    playing = table_summary(table(in_auction(1)))
    assert (playing["status"], playing["acting"]) == (TableStatus.AUCTION, "E")
    ended = table_summary(table([*in_auction(1), {"type": "round_ended", "round": 1}]))
    assert (ended["status"], ended["turn"], ended["acting"]) == (TableStatus.DONE, None, None)
    assert ended["board"] == 1 and ended["boards_finished"] == 0


def test_the_next_round_starts_at_once_past_a_board_left_unfinished() -> None:
    """Without the clock, a round's first board waits for the board in progress to end; once
    the round's time is up, the next round's first board starts at once, and the board left
    unfinished has no result."""
    untimed = table([rnd(1, 1, 2, ends_at=None), {"type": "call", "seat": "N", "call": "1C"},
                     rnd(2, 5, 6, ends_at=None)])
    assert untimed.board is not None and untimed.board.board == 1  # waits for board 1
    timed = table([*in_auction(1), {"type": "round_ended", "round": 1}, rnd(2, 5, 6)])
    assert timed.board is not None and timed.board.board == 5
    assert [b.board for b in timed.earlier] == [1] and not timed.earlier[0].period_over
    assert timed.clock is not None and (timed.clock.round, timed.clock.over) == (2, False)


def test_a_rounds_end_for_another_round_changes_nothing() -> None:
    before = table(in_auction(1))
    after = table([*in_auction(1), {"type": "round_ended", "round": 3}])
    assert after.clock == before.clock and after.queue == before.queue


def test_a_replay_gives_the_same_round_ends_and_boards() -> None:
    events = [*in_auction(1), {"type": "round_extended", "round": 1, "ends_at": ENDS + 5},
              {"type": "round_ended", "round": 1}, rnd(2, 5, 6),
              *scripted("N P, E P, S P, W P")[1:]]
    one, two = table(events), table(events)
    assert one == two
    assert [b.board for b in one.boards] == [1, 5, 6]  # board 5 passed out: board 6 starts


def test_calls_and_cards_after_the_rounds_end_are_passed_over_the_directors_taken() -> None:
    """The board stays as the round's end left it (its score is the Director's, Law 12C2): a
    seat's call after it is noted as ignored, a ruling of the Director's still stands."""
    state = table([*in_auction(1), {"type": "round_ended", "round": 1},
                   {"type": "call", "seat": "E", "call": "1H"},
                   {"type": "ruling", "action": "adjusted_score", "score": "NS 420"}])
    board = state.board
    assert board is not None and [str(c.call) for c in board.calls] == ["1C"]
    assert "time is up" in board.ignored[0]["reason"]
    assert board.to_dict()["rulings"]
