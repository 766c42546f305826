"""Inadmissible calls, which nobody may accept: cancelled at once and rectified (Laws 32 for a
double or redouble out of rotation Law 19 does not permit, 36, 37, 38), unless the offender's
LHO calls over one first (Law 35: no penalty); and calls after the final pass (Law 39, with
Law 35D). Rubber: the same numbers.
"""

from __future__ import annotations

from shared.laws.auction_end import stand
from shared.laws.citations import cite
from shared.laws.common import rectify, relation
from shared.laws.director_messages import describe_inadmissible
from shared.laws.rectification import double_out_of_rotation
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Inadmissible, Standing, StandingCall
from shared.vocabulary import BoardStatus, Irregularity, PassObligation


def inadmissible(board: Board, entry: Standing, kind: Irregularity, law: str, at_turn: Seat
                 ) -> None:
    """Laws 32, 36, 37, 38 (rubber the same): an inadmissible call may never be accepted, so
    nothing waits on an option: the alert summons the Director, the call is cancelled at once
    and its Law's rectification applies. The turn reverts to the player whose turn it was (in
    rotation, the offender, who must call again). Until the next call, offender's LHO may
    still call over it (Law 35, `condone`)."""
    offender, call = entry.seat, entry.call
    message, options = describe_inadmissible(board, kind, entry, at_turn)
    board.alert(kind, cite(board, law), offender, message, options, call)
    board.hold(kind, cite(board, law), entry, at_turn)
    partner = offender.partner
    match kind:
        case Irregularity.DOUBLE_OUT_OF_ROTATION:  # Law 32, cancelled as not accepted
            double_out_of_rotation(board, offender, call, relation(at_turn, offender))
        case Irregularity.INADMISSIBLE_DOUBLE:
            board.oblige(partner, PassObligation.EVERY_TURN)
            board.penalise_lead(offender, call, cite(board, "36"))
            rectify(board, "36", offender, f"{offender}'s {call} is not permitted by Law 19 and "
                     f"is cancelled: {offender} must substitute a legal call and {partner} must "
                     "pass whenever it is his turn (Law 23 may apply; lead penalties Law 26B).")
        case _:  # Law 37, a call by a player required to pass; Law 38, a bid above seven
            board.oblige(offender, PassObligation.EVERY_TURN)
            board.oblige(partner, PassObligation.EVERY_TURN)
            board.penalise_lead(offender, call, cite(board, law))
            rectify(board, law, offender, f"{offender}'s {call} is cancelled: {offender} and "
                     f"{partner} must pass whenever it is their turn (Law 23 may apply; lead "
                     "penalties of Law 26).")


def condoned(board: Board, entry: Standing) -> bool:
    """The first call after an inadmissible call cancelled at once closes Law 35's window:
    made by the offender's LHO at a turn not his, it condones the call (`condone`). Returns
    True when the call was used up."""
    held = board.inadmissible
    assert held is not None
    board.inadmissible = None
    return entry.seat is held.offender.lho and entry.seat is not held.at_turn \
        and condone(board, held, entry)


def condone(board: Board, held: Inadmissible, entry: Standing) -> bool:
    """Law 35 (rubber 35): offender's LHO calls over an inadmissible call before the offender
    (or, after one out of rotation, anyone else) has called: there is no penalty, so the
    rectification already applied is taken back, the lead penalties of Law 26 with it, and
    - A: a double or redouble not permitted by Law 19: it and LHO's call are cancelled, the
      auction reverts to the player whose turn it is;
    - B: a call by a player required to pass: it and LHO's call stand; an obligation to pass
      for the rest of the auction remains (a double or redouble Law 19 does not permit cannot
      stand: A applies to it);
    - C: a bid above seven: it and LHO's call are cancelled; the offender must pass.
    Returns True when LHO's call was used up (cancelled)."""
    board.restore(held)
    offender, call = held.offender, held.entry.call
    legal_in_form = call.is_pass or call.is_bid or board.is_legal(offender, call)
    if held.kind == Irregularity.CALL_WHILE_REQUIRED_TO_PASS and legal_in_form:
        law = cite(board, "35B")
        board.rectify(law, entry.seat, f"{entry.seat} called over {offender}'s {call}, made "
                      "while required to pass: the calls stand, without penalty.")
        stand(board, StandingCall.annotate(held.entry, law))
        return False
    law = cite(board, "35C" if held.kind == Irregularity.BID_ABOVE_SEVEN else "35A")
    board.cancel(held.entry, law, "inadmissible call condoned by LHO's call: cancelled")
    board.cancel(entry, law, "cancelled with the inadmissible call it followed")
    message = "both calls are cancelled and the auction proceeds without penalty"
    if held.kind == Irregularity.BID_ABOVE_SEVEN:
        board.oblige(offender, PassObligation.NEXT_TURN)
        message += f"; {offender} must substitute a pass"
    board.rectify(law, entry.seat, f"{entry.seat} called over {offender}'s inadmissible "
                  f"{call}: {message}.")
    return True


def call_after_final_pass(board: Board, entry: Standing) -> None:
    """Law 39 (rubber 39): a call after the final pass is cancelled.
    - A: a pass by a defender, or any call by the declaring side: no penalty;
    - B: a bid, double or redouble by a defender: lead penalties of Law 26 may apply, unless
      offender's LHO calls in turn, which condones it (Law 35D)."""
    previous, board.after_final_pass = board.after_final_pass, entry.seat
    if previous is not None and entry.seat is previous.lho:
        law = cite(board, "35D")
        source = cite(board, "39B")
        board.lead_penalties = tuple(p for p in board.lead_penalties
                                     if not (p.offender is previous and p.source == source))
        board.cancel(entry, law, "call after the final pass")
        board.rectify(law, entry.seat, f"{entry.seat} called over {previous}'s call after the "
                      "final pass: both are cancelled without penalty.")
        return
    declarer = board.declarer
    harmless = (board.status == BoardStatus.PASSED_OUT or entry.call.is_pass
                or (declarer is not None and entry.seat.side == declarer.side))
    law = cite(board, "39A" if harmless else "39B")
    board.cancel(entry, law, "call after the final pass")
    if not harmless:
        board.penalise_lead(entry.seat, entry.call, law)
    board.alert(Irregularity.CALL_AFTER_FINAL_PASS, cite(board, "39"), entry.seat,
                f"{entry.seat} called {entry.call} after the final pass: the call is cancelled" +
                (", without penalty." if harmless else "; lead penalties of Law 26 may apply."),
                () if harmless else (f"if {entry.seat.lho} calls, there is no penalty (Law 35D)",),
                entry.call)
