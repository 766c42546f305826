"""Changes of call (Law 25; rubber Laws 24–25): when a player may still change his last call
(`open_to_change`), whether his LHO may accept the substitute (Law 25B1), and the change after
a pause for thought (Law 25B). The inadvertent change (Law 25A) makes the call he meant, in
`shared.laws.calls`, above the rules of rotation it goes through.
"""

from __future__ import annotations

from shared.calls import MAX_LEVEL, Call
from shared.laws.citations import cite
from shared.laws.common import irregular
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Correction, StandingCall
from shared.vocabulary import BoardStatus, Irregularity


def may_be_accepted(board: Board, seat: Seat, call: Call) -> bool:
    """Whether LHO may accept `call` as `seat`'s substitute (Law 25B1): not an inadmissible
    call, which may never be accepted (a bid above seven, Law 38; a call by a player required
    to pass, Law 37; a double or redouble Law 19 does not permit, Law 36)."""
    if call.is_pass:
        return True
    if seat in board.must_pass:
        return False
    return call.level <= MAX_LEVEL if call.is_bid else board.is_legal(seat, call)


def inadvertent_replaced(board: Board, seat: Seat, first: Call, call: Call) -> None:
    """The alert of Law 25A: `seat` replaced his inadvertent `first` by `call`."""
    board.alert(Irregularity.CHANGE_OF_CALL, cite(board, "25A"), seat,
                f"{seat} replaced an inadvertent {first} by {call}. The Director confirms it "
                f"was without pause for thought; otherwise Law {cite(board, '25B')} applies.",
                ("the substitute is treated as the call at that turn",), call)


def open_to_change(board: Board, seat: Seat, call: Call, inadvertent: bool) -> int | None:
    """Law 25 (rubber 24–25): the index in `calls` of `seat`'s last call if he may still change
    it to `call`, the auction reopened and nothing left pending; None (with an alert) if too
    late.
    - A (rubber 24): an inadvertent call may be replaced, without pause for thought, until
      partner calls: the substitute is treated as the call at that turn (an illegal one is
      subject to its own Law); a call LHO made over the inadvertent call is cancelled.
    - B (rubber 25): otherwise, until LHO calls (`change_of_call`)."""
    index = board.last_call_of(seat)
    later = board.calls[index + 1:] if index is not None else []
    law = cite(board, "25A" if inadvertent else "25B")
    too_late_by = seat.partner if inadvertent else seat.lho
    if index is None or any(e.seat is too_late_by for e in later) \
            or (not inadvertent and later):
        board.alert(Irregularity.CHANGE_OF_CALL, law, seat,
                    f"{seat} tried to change his call to {call}, too late: "
                    + ("he has no call to change." if index is None else
                       f"{too_late_by} has called since (Law {law})."),
                    ("the earlier call stands",), call)
        return None
    if board.status != BoardStatus.AUCTION:
        board.reopen()
    board.pending = board.correction = None
    return index


def change_of_call(board: Board, seat: Seat, call: Call) -> None:
    """Law 25B (rubber 25): a change of call after a pause for thought, until LHO calls
    (`open_to_change`). Duplicate: LHO may accept the substitute (B1); if not, the offender
    lets his first call stand or makes another (B2). Rubber: no acceptance, the offender
    chooses at once."""
    index = open_to_change(board, seat, call, inadvertent=False)
    if index is None:
        return
    first = board.calls[index]
    entry = StandingCall(seat, call)
    if board.duplicate and may_be_accepted(board, seat, call):
        irregular(board, entry, Irregularity.CHANGE_OF_CALL, "25", seat.lho, replaces=first)
        return
    # Rubber Law 25 has no acceptance; duplicate Law 25B2(b) when LHO may not accept it
    law = cite(board, "25B2")
    other = "his side may receive no score greater than average minus" if board.duplicate \
        else f"{seat.partner} must pass whenever it is his turn"
    board.alert(Irregularity.CHANGE_OF_CALL, law, seat,
                f"{seat} substituted {call} for {first.call}"
                + (" too late for Law 24" if not board.duplicate else ", a call that may "
                   "never be accepted") + f": the substitute is cancelled; {seat} lets "
                f"{first.call} stand ({seat.partner} must pass at his next turn) or makes "
                f"another legal call ({other}). Lead penalties of Law 26.",
                (f"{seat} calls {first.call} again", f"{seat} makes another legal call"), call)
    board.cancel(entry, law, "change of call: the offender chooses his final call")
    board.truncate(index, law, "the offender chooses his final call")
    board.turn = seat
    board.correction = Correction("25B2", seat, first.call, other=call)
