"""The call events: a call made at the table (Law 17C), which the Laws route to the irregularity
it decides, to the rules of rotation, or to Law 39 after the final pass; and a change of call
(Law 25; rubber Laws 24–25), the inadvertent one (Law 25A) made here as the call he meant.
"""

from __future__ import annotations

from shared.calls import Call
from shared.events import CallChanged, CallMade
from shared.laws.change_of_call import change_of_call, inadvertent_replaced, open_to_change
from shared.laws.citations import cite
from shared.laws.inadmissible import call_after_final_pass, condoned
from shared.laws.options import resolve_pending
from shared.laws.rotation import make_call
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import StandingCall
from shared.vocabulary import BoardStatus, Irregularity

_AUCTION = BoardStatus.AUCTION  # read on every call: a module global (see `shared.table.board`)


def on_call(board: Board, event: CallMade) -> None:
    """A call made at the table (Law 17C: in rotation, or an irregularity)."""
    entry = event  # it stands as it is, unless the Laws annotate it
    if board.inadmissible is not None and condoned(board, entry):
        return
    if board.pending is None and board.status is _AUCTION:
        make_call(board, entry)
        return
    while board.pending is not None and board.status is _AUCTION:
        if resolve_pending(board, entry):
            return
        if board.inadmissible is not None and condoned(board, entry):
            return  # deciding the option made an inadmissible call, and this call is over it
    if board.status is not _AUCTION:
        call_after_final_pass(board, entry)
    else:
        make_call(board, entry)


def on_call_changed(board: Board, event: CallChanged) -> None:
    """A player substitutes a call for his last call (Law 25; rubber Laws 24–25). If his last
    call is an irregular call still pending, or an inadmissible call just cancelled, the change
    is his call at that turn: a substitute LHO may accept (see `substitute`), or, when
    inadvertent, the call he meant (Law 25A, rubber 24).
    Not after the opening lead is faced: the auction period has ended (2017 Law 17D1; Law
    21B1 "until the end of the auction period"; rubber Law 22(b), play has begun), so the
    change is refused (`ignored`); a Director's ruling remains the way to act."""
    if board.opening_lead is not None:
        board.note_ignored("the opening lead has been faced: too late to change a call (2017 "
                           "Law 17D1, Laws 21B1, 25; rubber 22(b)); the Director may rule")
        return
    seat, call = event.seat, event.call
    held, pending = board.inadmissible, board.pending
    if held is not None and held.offender is seat and event.inadvertent:
        board.inadmissible = None  # Law 25A: the call he meant, without penalty if legal
        board.restore(held)
        board.cancel(held.entry, cite(board, "25A"), "inadvertent call replaced")
        inadvertent_replaced(board, seat, held.entry.call, call)
        make_call(board, StandingCall(seat, call))
    elif held is not None and held.offender is seat:
        on_call(board, CallMade(seat, call))
    elif pending is not None and pending.offender is seat:
        if event.inadvertent and pending.kind != Irregularity.CHANGE_OF_CALL:
            board.pending, board.turn = None, pending.at_turn
            law = cite(board, "25A")
            board.cancel(pending.entry, law, "inadvertent call replaced")
            inadvertent_replaced(board, seat, pending.entry.call, call)
            make_call(board, StandingCall(seat, call))
        else:
            on_call(board, CallMade(seat, call))
    else:
        board.inadmissible = None  # another player's change of call closes Law 35's window
        if event.inadvertent:
            change_inadvertently(board, seat, call)
        else:
            change_of_call(board, seat, call)


def change_inadvertently(board: Board, seat: Seat, call: Call) -> None:
    """Law 25A (rubber 24): an inadvertent call replaced, without pause for thought, until
    partner calls (`open_to_change`): the substitute is treated as the call at that turn (an
    illegal one is subject to its own Law); a call LHO made over the inadvertent call is
    cancelled."""
    index = open_to_change(board, seat, call, inadvertent=True)
    if index is None:
        return
    inadvertent_replaced(board, seat, board.calls[index].call, call)
    board.truncate(index, cite(board, "25A"), "inadvertent call replaced")
    make_call(board, StandingCall(seat, call))
