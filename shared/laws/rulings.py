"""A Director's ruling, applied mechanically: a call cancelled (2007 Law 17D, a call made on
cards from a wrong board), a change of call allowed (Law 21B), an obligation to pass set or
lifted, a lead restriction (Law 26) and an adjusted score (Laws 12, 23, 27B1(b), 40C) recorded, the
tricks declarer wins (Laws 64C, 69B, 70, 71).
"""

from __future__ import annotations

from shared.events import RulingAction, RulingGiven
from shared.laws.citations import cite
from shared.laws.claims import rule_tricks
from shared.table.board import Board
from shared.table.board_records import Pending
from shared.table.board_view import RulingView
from shared.vocabulary import BoardStatus, PassObligation


def on_ruling(board: Board, event: RulingGiven) -> None:
    """A Director's ruling, applied mechanically (see `shared.events.RulingGiven`)."""
    action = event.action
    record: RulingView = {"action": action, "law": event.law, "event": board.events}
    if event.index is not None:
        record["index"] = event.index
    if event.obligation is not None:
        record["obligation"] = event.obligation
    if event.suit is not None:
        record["suit"] = event.suit
    if event.restriction is not None:
        record["restriction"] = event.restriction
    if event.score is not None:
        record["score"] = event.score
    if event.tricks is not None:
        record["tricks"] = event.tricks
    if event.note is not None:
        record["note"] = event.note
    if event.seat is not None:
        record["seat"] = event.seat.name
    board.rulings += (record,)
    board.inadmissible = None  # the Director has ruled: Law 35 no longer applies
    seat = event.seat
    pending = board.pending
    if action is RulingAction.CANCEL_CALL and pending is not None and (
            seat is pending.offender if event.index is None
            else event.index == len(board.calls)):
        record["law"] = law = event.law or "17D"
        cancel_pending_call(board, pending, law)
    elif action in (RulingAction.CANCEL_CALL, RulingAction.ALLOW_CHANGE):
        index = event.index if event.index is not None else \
            board.last_call_of(seat) if seat is not None else None
        if index is None or index >= len(board.calls):
            board.note_ignored("no such call to cancel")
            return
        law = event.law or ("17D" if action is RulingAction.CANCEL_CALL else cite(board, "21B"))
        record["law"] = law
        if board.status != BoardStatus.AUCTION:
            board.reopen()
        first = board.truncate(index, law, "cancelled by the Director")
        if pending is not None:  # a call awaiting an option comes after it: cancelled too
            cancel_pending_call(board, pending, law)
        board.correction, board.turn = None, first
    elif action is RulingAction.SET_PASS_OBLIGATION and seat is not None \
            and board.status == BoardStatus.AUCTION:
        board.must_pass[seat] = event.obligation or PassObligation.NEXT_TURN
    elif action is RulingAction.LIFT_PASS_OBLIGATION and seat is not None:
        board.must_pass.pop(seat, None)
        board.may_not_double.pop(seat, None)
    elif action is RulingAction.TRICKS and event.tricks is not None:
        record["law"] = event.law or "70"
        rule_tricks(board, event.tricks)


def cancel_pending_call(board: Board, pending: Pending, law: str) -> None:
    """2007 Law 17D1: "a call is cancelled if it is made by a player on cards that he has
    picked up from a wrong board", a call still awaiting its option holder too (an insufficient
    bid, a call out of rotation, a substitute; the seat's last call, or the one that would
    stand next): it is cancelled with any illegal call it was to replace, nothing waits any
    more, and the auction continues normally from the turn at which it was made (17D2).
    A change of a legal call (Law 25B) cancels the substitute only: the call it was to
    replace stands (a further ruling may cancel it)."""
    called = pending.prior or pending
    board.pending = board.correction = None
    if pending is not called:
        board.cancel(pending.entry, law, "cancelled by the Director")
    board.cancel(called.entry, law, "cancelled by the Director")
    board.turn = called.at_turn
