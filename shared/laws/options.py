"""The pending irregularity, decided by the next event: the option holder (the offender's LHO)
accepts it by calling or with an `option` event (Laws 25B1, 27A, 29A), or does not and the
Law that governs it rectifies (Laws 25B2, 27B, 29B with 30–32); the player whose turn it was
cancels a call out of rotation by calling (Law 28B); the offender's own second call is a
substitute (Law 25B; rubber Law 25(a) and Law 27's footnote).
"""

from __future__ import annotations

from shared.events import OptionExercised
from shared.laws.auction_end import stand
from shared.laws.change_of_call import change_of_call, may_be_accepted
from shared.laws.citations import cite
from shared.laws.common import irregular, rectify, relation
from shared.laws.rectification import (
    bid_out_of_rotation,
    double_out_of_rotation,
    pass_out_of_rotation,
)
from shared.laws.rotation import make_call
from shared.table.board import Board
from shared.table.board_records import Correction, Pending, Standing, StandingCall
from shared.vocabulary import OUT_OF_ROTATION, Irregularity


def resolve_pending(board: Board, entry: Standing) -> bool:
    """A call while an irregularity is pending. Returns True when the call was used up."""
    pending = board.pending
    assert pending is not None
    if entry.seat is pending.offender:
        substitute(board, pending, entry)
        return True
    if entry.seat is pending.option_holder:
        accept(board, pending, by_call=True)
        return False
    called = pending.prior or pending  # the call out of rotation, under any substitute
    if called.kind in OUT_OF_ROTATION and entry.seat is called.at_turn \
            and called.at_turn.is_opponent_of(called.offender):
        if called is not pending:
            board.cancel(pending.entry, cite(board, "28B"), "cancelled with the call out of "
                         "rotation it was to replace: the player whose turn it was called")
        cancel_by_correct_player(board, called)
        return False
    decline(board, pending, implicit=True)
    return False


def substitute(board: Board, pending: Pending, entry: Standing) -> None:
    """The offender calls again before the option holder has acted: he may not take the option
    away from the player entitled to it.
    - Duplicate Law 25B: LHO may accept the substitute (25B1). If not, it is cancelled and,
      his first call being illegal, the offender is subject to that call's Law (25B2(a)): LHO
      may still accept it (Laws 27A, 29A); the lead penalties of Law 26 may apply to the
      substitute. A substitute nobody may accept (a bid above seven, a double or redouble
      Law 19 does not permit) is cancelled at once.
    - Rubber Law 25(a), and Law 27's footnote: the substitute is cancelled at once and the
      offender is subject to the applicable law (lead penalties of Law 26).
    A further substitute cancels the one before (rubber Law 27's footnote)."""
    offender, call = entry.seat, entry.call
    first = pending
    if pending.kind == Irregularity.CHANGE_OF_CALL:
        board.cancel(pending.entry, cite(board, "25B"), "replaced by a further substitute")
        if pending.prior is None:  # a change of a legal call, changed again
            assert pending.replaces is not None
            board.pending = None
            change_of_call(board, offender, call)
            return
        first = pending.prior
    if board.duplicate and may_be_accepted(board, offender, call):
        irregular(board, entry, Irregularity.CHANGE_OF_CALL, "25", first.at_turn, first.entry,
                  first)
        return
    law = "25B2(a)" if board.duplicate else "25(a)"
    holder, original = first.option_holder, first.entry.call
    board.pending, board.turn = first, holder
    board.cancel(entry, law, "a substitute for an illegal call that LHO may not accept")
    board.penalise_lead(offender, call, law)
    board.alert(Irregularity.CHANGE_OF_CALL, law, offender,
                f"{offender} tried to substitute {call} for his irregular {original}: the "
                f"substitute is cancelled and {holder} keeps his option over {original}.",
                (f"{holder} may accept {original} or not; if not, {offender} is subject to its "
                 "Law (lead penalties of Law 26 may apply)",), call)


def cancel_by_correct_player(board: Board, pending: Pending) -> None:
    """Law 28B: the player whose turn it was calls before a penalty is assessed: the call out
    of rotation is cancelled without penalty and the auction proceeds as though the opponent
    had not called at that turn (Law 16C2 applies)."""
    law = cite(board, "28B")
    board.pending = None
    board.cancel(pending.entry, law, "cancelled: the player whose turn it was called")
    board.rectify(law, pending.at_turn, f"{pending.at_turn} called at his turn: "
                  f"{pending.offender}'s call out of rotation is cancelled without penalty.")
    board.turn = pending.at_turn


def accept(board: Board, pending: Pending, by_call: bool) -> None:
    """Laws 25B1, 27A, 29A (rubber 25, 27, 29(a)): the option holder accepts the irregular
    call, by calling or with an `option` event; it stands as if it were legal. Accepted by a
    call, the two are one act: whether the auction has ended is judged after his call, so that
    a bid by the acceptor after a pass out of rotation lets the auction continue normally (the
    WBF commentary on 2007 Law 17E)."""
    board.pending = None
    holder, offender = pending.option_holder, pending.offender
    if pending.kind == Irregularity.CHANGE_OF_CALL and pending.prior is None:
        law = cite(board, "25B1")
        board.rectify(law, holder, f"{holder} accepted {offender}'s change of call to "
                      f"{pending.entry.call}: it stands without penalty.")
        index = board.last_call_of(offender)
        assert index is not None
        board.truncate(index, law, "replaced by the accepted change of call")
        make_call(board, pending.entry)
        return
    irregularity = pending.prior or pending
    if pending.kind == Irregularity.CHANGE_OF_CALL:
        law = cite(board, "25B1")
    else:
        law = cite(board, "27A" if pending.kind == Irregularity.INSUFFICIENT_BID else "29A")
    skipped = () if irregularity.at_turn is offender else \
        irregularity.at_turn.seats_until(offender)
    board.rectify(law, holder, f"{holder} accepted {offender}'s {pending.entry.call}: "
                  "the auction proceeds without penalty.")
    entry = StandingCall.annotate(pending.entry, law, skipped)
    if by_call:
        board.append(entry)
    else:
        stand(board, entry)


def decline(board: Board, pending: Pending, implicit: bool) -> None:
    """The irregular call is not accepted: it is cancelled and the Law that governs it
    rectifies (Laws 25B2, 27B, 29B with 30–32)."""
    board.pending = None
    offender, call, turn = pending.offender, pending.entry.call, pending.at_turn
    reason = "not accepted" + (" (another call came first)" if implicit else "")
    if pending.prior is not None:  # Law 25B2(a): the illegal first call is before LHO again
        law = cite(board, "25B2(a)")
        board.cancel(pending.entry, law, reason)
        board.penalise_lead(offender, call, law)
        board.pending, board.turn = pending.prior, pending.option_holder
        rectify(board, "25B2(a)", offender, f"{offender}'s substitute {call} is not accepted "
                 f"and is cancelled: his {pending.prior.entry.call} is subject to its Law, and "
                 f"{pending.option_holder} may accept it or not.")
        return
    board.cancel(pending.entry, cite(board, pending.law), reason)
    board.turn = turn
    partner = offender.partner
    match pending.kind:
        case Irregularity.INSUFFICIENT_BID:
            board.correction = Correction("27B", offender, call)
            rectify(board, "27B", offender, f"{offender} must substitute a sufficient bid or a "
                     "pass for his insufficient bid.")
        case Irregularity.PASS_OUT_OF_ROTATION:
            pass_out_of_rotation(board, offender, relation(turn, offender))
        case Irregularity.BID_OUT_OF_ROTATION:
            bid_out_of_rotation(board, offender, call, relation(turn, offender))
        case Irregularity.DOUBLE_OUT_OF_ROTATION:
            double_out_of_rotation(board, offender, call, relation(turn, offender))
        case Irregularity.CHANGE_OF_CALL:
            assert pending.replaces is not None
            first = pending.replaces
            index = board.last_call_of(offender)
            assert index is not None
            board.truncate(index, cite(board, "25B2"), "the offender chooses his final call")
            board.turn = offender
            board.correction = Correction("25B2", offender, first.call, other=call)
            rectify(board, "25B2", offender, f"{offender}'s substituted {call} is not "
                     f"accepted: he lets {first.call} stand ({partner} must pass at his next "
                     "turn) or makes another legal call (his side gets at most average minus); "
                     f"lead penalties of Law 26 for {partner}.")


def on_option(board: Board, event: OptionExercised) -> None:
    """The option to accept an irregular call belongs to one opponent, who alone exercises it
    (Laws 25B1, 27A, 29, 32; rubber Law 29 footnote). Inadmissible calls may never be accepted
    (Laws 32, 36, 37, 38): they are cancelled at once and no option awaits."""
    pending = board.pending
    if pending is None:
        board.note_ignored("an inadmissible call may never be accepted"
                           if board.inadmissible is not None
                           else "no irregular call awaits an option")
    elif event.seat is not pending.option_holder:
        board.note_ignored(f"only {pending.option_holder} may exercise the option")
    elif event.accept:
        accept(board, pending, by_call=False)
    else:
        decline(board, pending, implicit=False)
