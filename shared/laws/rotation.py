"""A call with no irregularity pending: rotation (Law 17C), the form of the call (Laws 18, 19,
38), an obligation to pass (Law 37; Law 28A at LHO's call), an insufficient bid (Law 27), a
call out of rotation (Laws 29–32, 34; a pass after Law 34 reverted the auction; after the
offender's own call, a change of call, Law 30B3 and Law 31's last paragraph), a double or
redouble Law 30B2(b) forbids.
"""

from __future__ import annotations

from shared.calls import MAX_LEVEL
from shared.laws.auction_end import (
    deemed_pass,
    is_subsequent_pass,
    pass_depriving_partner_of_his_turn,
    retain_right_to_call_or_close,
    subsequent_pass,
)
from shared.laws.change_of_call import change_of_call
from shared.laws.common import irregular
from shared.laws.inadmissible import call_after_final_pass, inadmissible
from shared.laws.rectification import follow_correction, inadmissible_double_to_repeat
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Standing
from shared.vocabulary import BoardStatus, Irregularity


def make_call(board: Board, entry: Standing) -> None:
    """A call with no irregularity pending: check rotation, obligation and form, in that order
    of precedence (Laws 38, 37, 27, 36 for a call in rotation)."""
    seat, turn = entry.seat, board.turn
    assert turn is not None
    if seat is not turn:
        if seat is turn.lho and turn in board.must_pass:
            deemed_pass(board, turn)
            if board.status != BoardStatus.AUCTION:
                call_after_final_pass(board, entry)
                return
        else:
            out_of_rotation(board, entry, turn)
            return
    if board.correction is not None and board.correction.offender is seat \
            and follow_correction(board, entry):
        return
    call = entry.call
    if not call.is_pass:
        if call.is_bid and call.level > MAX_LEVEL:
            inadmissible(board, entry, Irregularity.BID_ABOVE_SEVEN, "38", seat)
            return
        if board.must_pass and seat in board.must_pass:
            inadmissible(board, entry, Irregularity.CALL_WHILE_REQUIRED_TO_PASS, "37", seat)
            return
        if call.is_bid:
            if board.last_bid is not None and call.rank <= board.last_bid.rank:  # insufficient
                irregular(board, entry, Irregularity.INSUFFICIENT_BID, "27", seat)
                return
        elif not board.is_legal(seat, call):
            inadmissible(board, entry, Irregularity.INADMISSIBLE_DOUBLE, "36", seat)
            return
        elif seat in board.may_not_double:
            restricted_double(board, entry)
    # the call stands: `stand`, inlined (this runs for every call)
    if board.append(entry):
        retain_right_to_call_or_close(board)
    elif board.correction is not None:
        inadmissible_double_to_repeat(board, entry)


def out_of_rotation(board: Board, entry: Standing, turn: Seat) -> None:
    """Laws 29–32: a call out of rotation. At LHO's turn, after the offender has called, it is
    a change of his call instead (Law 30B3, Law 31 last paragraph; rubber footnotes). An
    inadmissible call out of rotation goes through the Laws of rotation first (Law 36: "if
    the call is out of turn, see Law 32"); as it may never be accepted, it is cancelled at
    once (Law 32; a bid above seven, Law 38)."""
    offender, call = entry.seat, entry.call
    if is_subsequent_pass(board, entry, turn):
        subsequent_pass(board, entry, turn)
        return
    if turn is offender.lho and board.calls and board.calls[-1].seat is offender \
            and not (call.is_pass and board.last_bid is None):
        change_of_call(board, offender, call)
        return
    if call.is_bid and call.level > MAX_LEVEL:
        inadmissible(board, entry, Irregularity.BID_ABOVE_SEVEN, "38", turn)
    elif call.is_pass and turn is offender.partner and board.pass_ends_auction():
        pass_depriving_partner_of_his_turn(board, entry, turn)
    elif call.is_pass:
        irregular(board, entry, Irregularity.PASS_OUT_OF_ROTATION, "30", turn)
    elif call.is_bid:
        irregular(board, entry, Irregularity.BID_OUT_OF_ROTATION, "31", turn)
    elif board.is_legal(offender, call):
        irregular(board, entry, Irregularity.DOUBLE_OUT_OF_ROTATION, "32", turn)
    else:
        inadmissible(board, entry, Irregularity.DOUBLE_OUT_OF_ROTATION, "32", turn)


def restricted_double(board: Board, entry: Standing) -> None:
    """Law 30B2(b) (rubber 30(b)): after his partner's pass out of rotation a player may not
    double or redouble at that turn (rubber 32(a): nor may a player double again the bid he
    doubled out of rotation). The Laws name no rectification: the Director rules."""
    law = board.may_not_double[entry.seat]
    board.alert(Irregularity.RESTRICTED_CALL, law, entry.seat,
                f"{entry.seat} doubled or redoubled at a turn where Law {law} forbids it. The "
                "call stands until the Director rules.",
                ("the Director may cancel the call (ruling cancel_call) or adjust the score",),
                entry.call)
