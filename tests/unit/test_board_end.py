"""A round's board ends and the next starts in one step (the engine): the end must still reach
every reader (docs/api.md, `previous`). The next board's state carries the board before as it ended
(`previous`: its result and score, Law 77; how the play ended, Laws 44, 69, 79A; its last
trick, Law 66A), the alerts the ending event raised are the old board's, and a board's
history holds the event that ended it."""

from __future__ import annotations

from typing import Any

import pytest

from services.replay.history import build_history
from shared import fold, from_map
from shared.codec import encode
from shared.table.board_end import table_view
from shared.table.engine import TableState
from shared.table.table_run import TableRun
from tests.helpers import DEAL
from tests.script import lowest_legal
from tests.unit.test_laws_play import revoke_on_trick_twelve
from tests.unit.test_play import AUCTION, events

pytestmark = pytest.mark.unit

ROUND = {"type": "round_started", "round": 1,
         "boards": [{"board": 1, "deal": DEAL}, {"board": 2, "deal": DEAL}]}
CALLS = [{"type": "call", "seat": s, "call": c} for s, c in AUCTION]  # N declares 4S


def run_of(maps: list[dict[str, Any]]) -> tuple[TableRun, list[bytes]]:
    """A table folded record by record, as the processor folds it; and its records."""
    run, records = TableRun("t"), [encode(from_map(m)) for m in maps]
    for offset, record in enumerate(records):
        run.apply(offset, record)
    return run, records


def played_out(state: TableState, cards: int) -> list[dict[str, Any]]:
    """The next `cards` cards of `state`'s board, each the lowest legal (Law 44C)."""
    maps: list[dict[str, Any]] = []
    for _ in range(cards):
        card = lowest_legal(state, DEAL)
        state = fold(events(card), state)
        maps.append(card)
    return maps


def test_the_next_board_carries_the_board_before_as_its_52nd_card_left_it() -> None:
    """Laws 44G and 77: the thirteenth trick ends the play and gives the result; the round's
    next board starts in the same step, and its state carries `previous`: board 1's contract,
    result and score, `ended` by tricks, and its thirteenth trick (Law 66A)."""
    start = [ROUND, *CALLS]
    cards = played_out(fold(events(*start)), 52)
    run, _ = run_of([*start, *cards])
    view = run.view()
    assert view is not None and view["board"] == 2 and view["status"] == "auction"
    board_1 = run.state.boards[0].to_dict()
    previous = view["previous"]
    assert previous["board"] == 1 and previous["ended"] == "tricks"
    assert previous["result"] == board_1["result"] is not None
    assert previous["contract"] == board_1["contract"] == {
        "level": 4, "strain": "S", "risk": "", "declarer": "N"}
    assert board_1["play"] is not None
    assert previous["last_trick"] == board_1["play"]["tricks"][12]
    assert [c["card"] for c in previous["last_trick"]["cards"]] == \
        [m["card"] for m in cards[-4:]]
    assert previous["deal"] == board_1["deal"] == DEAL  # Law 66D: its cards, play over
    assert table_view(run.state) == view  # a replay's view of the table, as Redis keeps it


def test_a_board_ended_by_a_claim_is_the_next_boards_previous() -> None:
    """Law 69A: a claim agreed by both defenders ends the play; the next board's `previous`
    says so (`claim`) with the claimed tricks in its result (those won, and 9 of the 12 left)."""
    start = [ROUND, *CALLS, *played_out(fold(events(ROUND, *CALLS)), 4)]
    claim = [{"type": "claim", "seat": "N", "tricks": 9},
             {"type": "claim_response", "seat": "E", "accept": True},
             {"type": "claim_response", "seat": "W", "accept": True}]
    run, _ = run_of([*start, *claim])
    view = run.view()
    assert view is not None and view["board"] == 2
    previous = view["previous"]
    assert previous["ended"] == "claim" and previous["result"] is not None
    won = run.state.boards[0].to_dict()["play"]["won"]  # type: ignore[index]
    assert previous["result"]["declarer_tricks"] == won["NS"] + 9  # Law 69A: 9 of the rest


def test_the_first_board_has_no_previous_and_a_later_board_only_the_one_before() -> None:
    """Only the board just before is carried (its end stays until the next board ends)."""
    run, _ = run_of([ROUND])
    view = run.view()
    assert view is not None and "previous" not in view
    third = {"type": "board_started", "board": 3, "deal": DEAL}
    start = [ROUND, *CALLS]
    run, _ = run_of([*start, *played_out(fold(events(*start)), 52),
                     *({"type": "call", "seat": s, "call": "P"} for s in "ESWN"), third])
    view = run.view()
    assert view is not None and view["board"] == 3
    assert view["previous"]["board"] == 2 and view["previous"]["status"] == "passed_out"


def test_an_alert_raised_by_the_event_that_ends_a_board_is_that_boards() -> None:
    """Law 62D1: a revoke on the twelfth trick is alerted at the end of play, by the 52nd
    card; in a round that card also starts board 2, and the alert must still be raised, on
    board 1 (it was lost: the alerts were read from the new board)."""
    twelve = revoke_on_trick_twelve(fold(events(ROUND, *CALLS)))
    maps = [ROUND, *CALLS]
    board = twelve.board
    assert board is not None and board.play is not None
    # the cards of the first twelve tricks as folded, then the last four, legally
    for trick in board.to_dict()["play"]["tricks"]:  # type: ignore[index]
        maps += [{"type": "card_played", "seat": c["seat"], "card": c["card"]}
                 for c in trick["cards"]]
    maps += played_out(twelve, 4)
    run = TableRun("t")
    raised = [run.apply(offset, encode(from_map(m))) for offset, m in enumerate(maps)]
    assert run.state.count == 2
    last = raised[-1]
    assert [(a["law"], a["board"]) for _, a in last] == [("62D1", 1)]


def test_a_boards_history_holds_the_event_that_ended_it() -> None:
    """The 52nd card is board 1's last entry (with its result in `states`), not board 2's
    first; board 2's history begins with its own first call."""
    start = [ROUND, *CALLS]
    cards = played_out(fold(events(*start)), 52)
    opening = {"type": "call", "seat": "E", "call": "P"}  # board 2: dealer E
    _, records = run_of([*start, *cards, opening])
    log = list(enumerate(records))
    one = build_history("t", log, board=1, states=True)
    assert [e["event"]["type"] for e in one["history"]].count("card_played") == 52
    assert one["history"][-1]["event"]["card"] == cards[-1]["card"]
    assert one["history"][-1]["state"]["result"] is not None
    assert one["state"]["result"] == one["history"][-1]["state"]["result"]
    two = build_history("t", log, board=2)
    assert [e["event"] for e in two["history"]] == [{"type": "call", "seat": "E", "call": "P"}]


def test_a_board_started_without_its_deal_ends_into_a_previous_without_hands() -> None:
    """A round whose boards came without their deals (the cards not captured): the board
    passed out (Law 22A) is the next one's `previous`, with no hands to show; folding it
    raised a KeyError that stopped the processor's workers."""
    bare = {"type": "round_started", "round": 1, "boards": [{"board": 1}, {"board": 2}]}
    run, _ = run_of([bare, *({"type": "call", "seat": s, "call": "P"} for s in "NESW")])
    view = run.view()
    assert view is not None and view["board"] == 2
    assert view["previous"]["status"] == "passed_out" and "deal" not in view["previous"]
