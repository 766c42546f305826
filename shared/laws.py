"""The Laws of the auction applied to a board: irregularities and their rectification.

One function per event type (`on_call`, `on_option`, …) and one per rule. Each rule cites
its Law: the duplicate text (1997, with the 2007/2017 Law 17) and the rubber text (ACBL)
differ in places, and `cite` gives the rubber section for a duplicate one.

Irregular calls are recorded, never refused. An irregular call the offender's LHO may accept
waits as `Board.pending` until the next event decides it: LHO accepts it by calling (Laws
27A, 29A) or with an `option` event; `option` false (or another player's call) cancels it and
the rectification follows; the player whose turn it was cancels a call out of rotation by
calling (Law 28B); the offender's own second call is a substitute LHO may accept in turn (Law
25B). An inadmissible call (Laws 32, 36, 37, 38) may never be accepted: it is cancelled and
rectified at once, and Law 35 takes the penalty back if LHO calls over it before the next
call. `docs/laws.md` records how each Law is read.
"""

from __future__ import annotations

from shared.board import (
    AUCTION,
    EVERY_TURN,
    NEXT_TURN,
    PASSED_OUT,
    Board,
    Correction,
    Inadmissible,
    Pending,
    Standing,
    StandingCall,
    skipped_by,
)
from shared.calls import MAX_LEVEL, PASS, Call
from shared.citations import cite
from shared.director_messages import describe_inadmissible, describe_pending
from shared.events import (
    CallChanged,
    CallMade,
    CardExposed,
    OpeningLeadFaced,
    OptionExercised,
    RulingAction,
    RulingGiven,
)
from shared.seats import Seat

OUT_OF_ROTATION = ("pass_out_of_rotation", "bid_out_of_rotation", "double_out_of_rotation")


# --- calls ----------------------------------------------------------------------------------


def on_call(board: Board, event: CallMade) -> None:
    """A call made at the table (Law 17C: in rotation, or an irregularity)."""
    entry = event  # it stands as it is, unless the Laws annotate it
    if board.inadmissible is not None and condoned(board, entry):
        return
    if board.pending is None and board.status == AUCTION:
        make_call(board, entry)
        return
    while board.pending is not None and board.status == AUCTION:
        if _resolve_pending(board, entry):
            return
        if board.inadmissible is not None and condoned(board, entry):
            return  # deciding the option made an inadmissible call, and this call is over it
    if board.status != AUCTION:
        call_after_final_pass(board, entry)
    else:
        make_call(board, entry)


def make_call(board: Board, entry: Standing) -> None:
    """A call with no irregularity pending: check rotation, obligation and form, in that order
    of precedence (Laws 38, 37, 27, 36 for a call in rotation)."""
    seat, turn = entry.seat, board.turn
    assert turn is not None
    if seat is not turn:
        if seat is turn.lho and turn in board.must_pass:
            deemed_pass(board, turn)
            if board.status != AUCTION:
                call_after_final_pass(board, entry)
                return
        else:
            out_of_rotation(board, entry, turn)
            return
    if board.correction is not None and board.correction.offender is seat \
            and follow_correction(board, entry):
        return
    call = entry.call
    if call.is_pass:
        stand(board, entry)
    elif call.is_bid and call.level > MAX_LEVEL:
        inadmissible(board, entry, "bid_above_seven", "38", seat)
    elif board.must_pass and seat in board.must_pass:
        inadmissible(board, entry, "call_while_required_to_pass", "37", seat)
    elif call.is_bid:
        if board.last_bid is not None and call.rank <= board.last_bid.rank:  # not sufficient
            irregular(board, entry, "insufficient_bid", "27", seat)
        else:
            stand(board, entry)
    elif not board.is_legal(seat, call):
        inadmissible(board, entry, "inadmissible_double", "36", seat)
    else:
        if seat in board.may_not_double:
            restricted_double(board, entry)
        stand(board, entry)


def stand(board: Board, entry: Standing) -> None:
    """The call stands; after three passes the auction ends, unless Law 34 applies."""
    if board.append(entry):
        retain_right_to_call_or_close(board)
    elif board.correction is not None:
        inadmissible_double_to_repeat(board, entry)


def inadmissible_double_to_repeat(board: Board, entry: Standing) -> None:
    """Law 32B1 (rubber 32(b)(i) with Law 36): RHO has passed, so the offender must repeat
    his double or redouble out of rotation; "there is no penalty unless the double or
    redouble is inadmissible, in which case Law 36 applies": from RHO's pass on, the
    offender's partner must pass whenever it is his turn, and the offender must substitute a
    legal call for the double he may not repeat."""
    correction = board.correction
    assert correction is not None
    offender = correction.offender
    if correction.law != "32B" or correction.rho_acted is not False \
            or entry.seat is not offender.rho or board.is_legal(offender, correction.call):
        return
    board.oblige(offender.partner, EVERY_TURN)
    _rectify(board, "36", offender, f"{entry.seat} passed and {offender} may not repeat "
             f"{correction.call} (Law 19): {offender} must substitute a legal call and "
             f"{offender.partner} must pass whenever it is his turn (Laws 32B1, 36).")


def retain_right_to_call_or_close(board: Board) -> None:
    """Law 34 (2007 Law 17E2, 2017 Law 17D3): when one of the three passes that followed a
    call was out of rotation and deprived a player of his turn, the auction does not end: it
    reverts to the player who missed his turn, the passes from that one on are cancelled, and
    the auction proceeds normally. A pass made after the pass out of rotation does not make
    its caller an offender (the WBF commentary on 17E): it is cancelled like the others."""
    calls = board.calls
    first = max(len(calls) - board.trailing_passes, 1)  # the first pass after the call
    for index in range(first, min(first + 3, len(calls))):
        entry = calls[index]
        skipped = skipped_by(entry)
        if skipped:
            missed = skipped[0]
            board.alert("retention_of_right_to_call", "34", entry.seat,
                        f"Three passes followed a call, but {entry.seat}'s pass out of rotation "
                        f"deprived {missed} of his turn: the auction reverts to {missed} and the "
                        "passes from it on are cancelled.",
                        (f"{missed} calls; the auction proceeds as though there had been no "
                         "irregularity",))
            board.truncate(index, "34", "pass cancelled: a player missed his turn (Law 34)")
            board.turn = missed
            return
    board.close()


def deemed_pass(board: Board, seat: Seat) -> None:
    """Law 28A: a call by LHO at the turn of a player required to pass is in rotation; the
    player required to pass is deemed to have passed."""
    law = cite(board, "28A")
    board.rectify(law, seat, f"{seat} was required to pass and his LHO called: {seat}'s pass "
                  "is deemed made and the call is in rotation.")
    stand(board, StandingCall(seat, PASS, deemed=law))


def irregular(board: Board, entry: Standing, kind: str, law: str, at_turn: Seat,
              replaces: Standing | None = None, prior: Pending | None = None) -> None:
    """Record an irregular call LHO may accept and raise the director alert; the next event
    decides it."""
    board.pending = Pending(kind, law, entry, at_turn, replaces, prior)
    board.turn = entry.seat.lho
    message, options = describe_pending(board, board.pending)
    board.alert(kind, cite(board, law), entry.seat, message, options, entry.call)


def inadmissible(board: Board, entry: Standing, kind: str, law: str, at_turn: Seat) -> None:
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
        case "double_out_of_rotation":  # Law 32, cancelled as not accepted
            double_out_of_rotation(board, offender, call, relation(at_turn, offender))
        case "inadmissible_double":
            board.oblige(partner, EVERY_TURN)
            board.penalise_lead(offender, call, cite(board, "36"))
            _rectify(board, "36", offender, f"{offender}'s {call} is not permitted by Law 19 and "
                     f"is cancelled: {offender} must substitute a legal call and {partner} must "
                     "pass whenever it is his turn (Law 23 may apply; lead penalties Law 26B).")
        case _:  # Law 37, a call by a player required to pass; Law 38, a bid above seven
            board.oblige(offender, EVERY_TURN)
            board.oblige(partner, EVERY_TURN)
            board.penalise_lead(offender, call, cite(board, law))
            _rectify(board, law, offender, f"{offender}'s {call} is cancelled: {offender} and "
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
    if held.kind == "call_while_required_to_pass" and legal_in_form:
        law = cite(board, "35B")
        board.rectify(law, entry.seat, f"{entry.seat} called over {offender}'s {call}, made "
                      "while required to pass: the calls stand, without penalty.")
        stand(board, StandingCall.annotate(held.entry, law))
        return False
    law = cite(board, "35C" if held.kind == "bid_above_seven" else "35A")
    board.cancel(held.entry, law, "inadmissible call condoned by LHO's call: cancelled")
    board.cancel(entry, law, "cancelled with the inadmissible call it followed")
    message = "both calls are cancelled and the auction proceeds without penalty"
    if held.kind == "bid_above_seven":
        board.oblige(offender, NEXT_TURN)
        message += f"; {offender} must substitute a pass"
    board.rectify(law, entry.seat, f"{entry.seat} called over {offender}'s inadmissible "
                  f"{call}: {message}.")
    return True


def out_of_rotation(board: Board, entry: Standing, turn: Seat) -> None:
    """Laws 29–32: a call out of rotation. At LHO's turn, after the offender has called, it is
    a change of his call instead (Law 30B3, Law 31 last paragraph; rubber footnotes). An
    inadmissible call out of rotation goes through the Laws of rotation first (Law 36: "if
    the call is out of turn, see Law 32"); as it may never be accepted, it is cancelled at
    once (Law 32; a bid above seven, Law 38)."""
    offender, call = entry.seat, entry.call
    if turn is offender.lho and board.calls and board.calls[-1].seat is offender \
            and not (call.is_pass and board.last_bid is None):
        change_of_call(board, offender, call, inadvertent=False)
        return
    if call.is_bid and call.level > MAX_LEVEL:
        inadmissible(board, entry, "bid_above_seven", "38", turn)
    elif call.is_pass and turn is offender.partner and board.pass_ends_auction():
        pass_depriving_partner_of_his_turn(board, entry, turn)
    elif call.is_pass:
        irregular(board, entry, "pass_out_of_rotation", "30", turn)
    elif call.is_bid:
        irregular(board, entry, "bid_out_of_rotation", "31", turn)
    elif board.is_legal(offender, call):
        irregular(board, entry, "double_out_of_rotation", "32", turn)
    else:
        inadmissible(board, entry, "double_out_of_rotation", "32", turn)


def pass_depriving_partner_of_his_turn(board: Board, entry: Standing, turn: Seat) -> None:
    """Law 34 (2007 Law 17E2, 2017 Law 17D3; rubber 34): a pass out of rotation at the
    offender's partner's turn that is the third pass after a call. The auction does not end:
    it reverts to the partner, who missed his turn, the pass is cancelled and the auction
    proceeds as though there had been no irregularity, so no Law 30 penalty applies. No
    option waits: the offender's LHO made the pass before it. (At RHO's turn the pass waits
    for LHO's option, and Law 34 follows its acceptance: `retain_right_to_call_or_close`.)"""
    board.alert("retention_of_right_to_call", "34", entry.seat,
                f"{entry.seat} passed out of rotation at {turn}'s turn, the third pass after a "
                f"call: the auction does not end; it reverts to {turn}, who missed his turn, "
                "and the pass is cancelled.",
                (f"{turn} calls; the auction proceeds as though there had been no "
                 "irregularity",))
    board.cancel(entry, "34", "pass cancelled: a player missed his turn (Law 34)")


def relation(turn: Seat, offender: Seat) -> str:
    """Whose turn it was, seen from the offender of a call out of rotation."""
    return ("rho" if turn is offender.rho else "partner" if turn is offender.partner
            else "lho" if turn is offender.lho else "self")


def restricted_double(board: Board, entry: Standing) -> None:
    """Law 30B2(b) (rubber 30(b)): after his partner's pass out of rotation a player may not
    double or redouble at that turn (rubber 32(a): nor may a player double again the bid he
    doubled out of rotation). The Laws name no rectification: the Director rules."""
    law = board.may_not_double[entry.seat]
    board.alert("restricted_call", law, entry.seat,
                f"{entry.seat} doubled or redoubled at a turn where Law {law} forbids it. The "
                "call stands until the Director rules.",
                ("the Director may cancel the call (ruling cancel_call) or adjust the score",),
                entry.call)


# --- the next event decides a pending irregularity ------------------------------------------


def _resolve_pending(board: Board, entry: Standing) -> bool:
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
    if pending.kind == "change_of_call":
        board.cancel(pending.entry, cite(board, "25B"), "replaced by a further substitute")
        if pending.prior is None:  # a change of a legal call, changed again
            assert pending.replaces is not None
            board.pending = None
            change_of_call(board, offender, call, inadvertent=False)
            return
        first = pending.prior
    if board.duplicate and may_be_accepted(board, offender, call):
        irregular(board, entry, "change_of_call", "25", first.at_turn, first.entry, first)
        return
    law = "25B2(a)" if board.duplicate else "25(a)"
    holder, original = first.option_holder, first.entry.call
    board.pending, board.turn = first, holder
    board.cancel(entry, law, "a substitute for an illegal call that LHO may not accept")
    board.penalise_lead(offender, call, law)
    board.alert("change_of_call", law, offender,
                f"{offender} tried to substitute {call} for his irregular {original}: the "
                f"substitute is cancelled and {holder} keeps his option over {original}.",
                (f"{holder} may accept {original} or not; if not, {offender} is subject to its "
                 "Law (lead penalties of Law 26 may apply)",), call)


def may_be_accepted(board: Board, seat: Seat, call: Call) -> bool:
    """Whether LHO may accept `call` as `seat`'s substitute (Law 25B1): not an inadmissible
    call, which may never be accepted (a bid above seven, Law 38; a call by a player required
    to pass, Law 37; a double or redouble Law 19 does not permit, Law 36)."""
    if call.is_pass:
        return True
    if seat in board.must_pass:
        return False
    return call.level <= MAX_LEVEL if call.is_bid else board.is_legal(seat, call)


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
    if pending.kind == "change_of_call" and pending.prior is None:
        law = cite(board, "25B1")
        board.rectify(law, holder, f"{holder} accepted {offender}'s change of call to "
                      f"{pending.entry.call}: it stands without penalty.")
        index = board.last_call_of(offender)
        assert index is not None
        board.truncate(index, law, "replaced by the accepted change of call")
        make_call(board, pending.entry)
        return
    irregularity = pending.prior or pending
    if pending.kind == "change_of_call":
        law = cite(board, "25B1")
    else:
        law = cite(board, "27A" if pending.kind == "insufficient_bid" else "29A")
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
        _rectify(board, "25B2(a)", offender, f"{offender}'s substitute {call} is not accepted "
                 f"and is cancelled: his {pending.prior.entry.call} is subject to its Law, and "
                 f"{pending.option_holder} may accept it or not.")
        return
    board.cancel(pending.entry, cite(board, pending.law), reason)
    board.turn = turn
    partner = offender.partner
    match pending.kind:
        case "insufficient_bid":
            board.correction = Correction("27B", offender, call)
            _rectify(board, "27B", offender, f"{offender} must substitute a sufficient bid or a "
                     "pass for his insufficient bid.")
        case "pass_out_of_rotation":
            pass_out_of_rotation(board, offender, relation(turn, offender))
        case "bid_out_of_rotation":
            bid_out_of_rotation(board, offender, call, relation(turn, offender))
        case "double_out_of_rotation":
            double_out_of_rotation(board, offender, call, relation(turn, offender))
        case "change_of_call":
            assert pending.replaces is not None
            first = pending.replaces
            index = board.last_call_of(offender)
            assert index is not None
            board.truncate(index, cite(board, "25B2"), "the offender chooses his final call")
            board.turn = offender
            board.correction = Correction("25B2", offender, first.call, other=call)
            _rectify(board, "25B2", offender, f"{offender}'s substituted {call} is not "
                     f"accepted: he lets {first.call} stand ({partner} must pass at his next "
                     "turn) or makes another legal call (his side gets at most average minus); "
                     f"lead penalties of Law 26 for {partner}.")


def _rectify(board: Board, law: str, seat: Seat, message: str) -> None:
    board.rectify(cite(board, law), seat, message)


def pass_out_of_rotation(board: Board, offender: Seat, relation: str) -> None:
    """Law 30 (rubber 30), a pass out of rotation cancelled:
    - A: before any player has bid, the offender must pass at his next turn;
    - B1: after a bid, at RHO's turn: the offender must pass at his next turn;
    - B2: after a bid, at partner's turn: the offender must pass whenever it is his turn, and
      his partner may bid or pass but not double or redouble at that turn."""
    if board.last_bid is None or relation != "partner":
        law = "30A" if board.last_bid is None else "30B1"
        board.oblige(offender, NEXT_TURN)
        _rectify(board, law, offender, f"{offender} must pass when next it is his turn.")
        return
    partner = offender.partner
    board.oblige(offender, EVERY_TURN)
    board.may_not_double[partner] = cite(board, "30B2")
    _rectify(board, "30B2", offender, f"{offender} must pass whenever it is his turn; "
             f"{partner} may make any sufficient bid or pass, but not double or redouble, at "
             "this turn.")


def bid_out_of_rotation(board: Board, offender: Seat, call: Call, relation: str) -> None:
    """Law 31 (rubber 31), a bid out of rotation cancelled:
    - A, at RHO's turn: what the offender must do depends on RHO's call (see `follow_correction`);
    - B, at partner's turn (or at LHO's turn before the offender has called): the offender's
      partner must pass whenever it is his turn, and the lead penalties of Law 26 may apply."""
    if relation == "rho":
        board.correction = Correction("31A", offender, call)
        _rectify(board, "31A", offender, f"{offender.rho} calls. If he passes, {offender} must "
                 f"repeat {call}; if he bids, doubles or redoubles, {offender} may make any legal "
                 f"call, and {offender.partner} must pass at his next turn (the same "
                 "denomination) or at every turn (another call; lead penalties Law 26).")
        return
    partner = offender.partner
    board.oblige(partner, EVERY_TURN)
    board.penalise_lead(offender, call, cite(board, "31B"))
    _rectify(board, "31B", offender, f"{partner} must pass whenever it is his turn "
             "(Law 23 may apply; lead penalties of Law 26).")


def double_out_of_rotation(board: Board, offender: Seat, call: Call, relation: str) -> None:
    """Law 32 (rubber 32), a double or redouble out of rotation cancelled (lead penalties of
    Law 26B may apply):
    - A, at partner's turn: the offender's partner must pass whenever it is his turn (rubber
      also: the offender may not then double or redouble the same bid);
    - B, at RHO's turn: depends on RHO's call (see `follow_correction`); repeated after
      RHO's pass (B1), it carries no penalty and the lead penalty is lifted (`call_after_rho`)."""
    board.penalise_lead(offender, call, cite(board, "32"))
    if relation == "rho":
        board.correction = Correction("32B", offender, call)
        _rectify(board, "32B", offender, f"{offender.rho} calls. If he passes, {offender} must "
                 f"repeat {call}; if he bids, {offender} may make any legal call and "
                 f"{offender.partner} must pass " +
                 ("whenever it is his turn." if board.duplicate else "at his next turn."))
        return
    board.oblige(offender.partner, EVERY_TURN)
    if not board.duplicate:
        board.may_not_double[offender] = "32(a)"
    _rectify(board, "32A", offender, f"{offender.partner} must pass whenever it is his turn.")


def follow_correction(board: Board, entry: Standing) -> bool:
    """The offender's next call after a rectification that depends on it. Returns True when
    the call was used up (an attempted double or redouble for an insufficient bid)."""
    correction = board.correction
    assert correction is not None
    board.correction = None
    if correction.law == "27B":
        return substitute_for_insufficient_bid(board, entry, correction.call)
    if correction.law in ("31A", "32B"):
        call_after_rho(board, entry, correction)
    elif correction.law == "25B2":
        choice_after_change_not_accepted(board, entry, correction)
    return False


def substitute_for_insufficient_bid(board: Board, entry: Standing, insufficient: Call) -> bool:
    """Law 27B (rubber 27), the substitute for an insufficient bid not accepted:
    - B1(a): the lowest sufficient bid in the same denomination: no penalty (the Director
      judges whether either bid may have been conventional and whether the insufficient bid
      damaged the non-offending side, B1(b));
    - B2: any other sufficient bid, or a pass: partner must pass whenever it is his turn;
    - B3: a double or redouble: cancelled, partner must pass whenever it is his turn (rubber:
      and the offender must pass at that turn)."""
    offender, call, partner = entry.seat, entry.call, entry.seat.partner
    last = board.last_bid
    if call.is_bid and call.level <= MAX_LEVEL and board.is_sufficient(call):
        assert last is not None and last.strain is not None and insufficient.strain is not None
        lowest = last.level + (0 if insufficient.strain.value > last.strain.value else 1)
        if call.strain is insufficient.strain and call.level == lowest:
            _rectify(board, "27B1(a)", offender, f"{call} is the lowest sufficient bid in the "
                     "same denomination: no penalty" + (" unless either bid was conventional "
                     "(the Director judges, Laws 27B1(b), 27B2)." if board.duplicate else "."))
            return False
    elif not call.is_pass:
        if call.is_bid:
            return False  # still not a sufficient bid: its own Law applies (27 or 38)
        board.cancel(entry, cite(board, "27B3"), "a double or redouble cannot replace an "
                     "insufficient bid")
        board.oblige(partner, EVERY_TURN)
        if not board.duplicate:
            board.oblige(offender, NEXT_TURN)
        board.penalise_lead(offender, insufficient, cite(board, "27B3"))
        _rectify(board, "27B3", offender, f"{offender}'s {call} is cancelled; {partner} must "
                 "pass whenever it is his turn" + ("." if board.duplicate else
                                                  f"; {offender} must pass at this turn."))
        board.correction = Correction("27B", offender, insufficient) if board.duplicate \
            else None
        return True
    board.oblige(partner, EVERY_TURN)
    board.penalise_lead(offender, insufficient, cite(board, "27B2"), final=call)
    _rectify(board, "27B2", offender, f"{offender} substituted {call}: {partner} must pass "
             "whenever it is his turn (Law 23 may apply; lead penalties of Law 26).")
    return False


def call_after_rho(board: Board, entry: Standing, correction: Correction) -> None:
    """Laws 31A and 32B (rubber 31(b), 32(b)): the offender's call after his RHO's.
    - RHO passed: the offender must repeat the call out of rotation (no penalty when legal;
      for a double or redouble, 32B1, no lead penalty either: rubber 26(b) excepts "an
      out-of-rotation call repeated in turn in accordance with … Law 32(b)(i)");
    - RHO acted: the offender may make any legal call. For a bid (31A2): repeating the
      denomination, partner must pass at his next turn; otherwise at every turn and lead
      penalties may apply. For a double (32B2): partner must pass whenever it is his turn
      (duplicate) or at his next turn (rubber).
    Law 32B1 with a double or redouble Law 19 does not permit: Law 36 applies from RHO's pass
    (`inadmissible_double_to_repeat`); the offender's legal substitute is the rectification.
    Repeated, it is an inadmissible call in rotation, cancelled at once under Law 36 itself."""
    offender, partner, original = entry.seat, entry.seat.partner, correction.call
    base = correction.law
    if correction.rho_acted is None:
        return
    if not correction.rho_acted:
        law = base + "1"
        if base == "32B" and not board.is_legal(offender, original):
            return  # Law 36 applied at RHO's pass: his substitute is the rectification
        if entry.call == original:
            if base == "32B":  # no penalty: Law 32's lead penalty (26B) goes too
                source = cite(board, "32")
                board.lead_penalties = tuple(
                    p for p in board.lead_penalties
                    if not (p.offender is offender and p.withdrawn == original
                            and p.source == source))
            _rectify(board, law, offender, f"{offender} repeated {original}: no penalty.")
        else:
            board.alert("rectification_not_followed", cite(board, law), offender,
                        f"After RHO passed, {offender} had to repeat {original} but called "
                        f"{entry.call}.", ("the Director rules",), entry.call)
        return
    if base == "31A":
        if entry.call.is_bid and entry.call.strain is original.strain:
            board.oblige(partner, NEXT_TURN)
            _rectify(board, "31A2(a)", offender, f"{offender} repeated the denomination: "
                     f"{partner} must pass when next it is his turn.")
        else:
            board.oblige(partner, EVERY_TURN)
            board.penalise_lead(offender, original, cite(board, "31A2(b)"), final=entry.call)
            _rectify(board, "31A2(b)", offender, f"{offender} did not repeat the denomination: "
                     f"{partner} must pass whenever it is his turn (lead penalties Law 26).")
        return
    board.oblige(partner, EVERY_TURN if board.duplicate else NEXT_TURN)
    _rectify(board, "32B2", offender, f"{partner} must pass " +
             ("whenever it is his turn." if board.duplicate else "when next it is his turn."))


def choice_after_change_not_accepted(board: Board, entry: Standing,
                                     correction: Correction) -> None:
    """Law 25B2(b) (rubber 25(b)), after a change of call not accepted, the first call legal:
    (1) the offender lets his first call stand: partner must pass at his next turn;
    (2) he makes another legal call: the auction proceeds (duplicate: his side may receive no
    score greater than average minus) or partner must pass at every turn (rubber).
    Either way the lead penalties of Law 26 apply to partner (25B2(c))."""
    offender, partner = entry.seat, entry.seat.partner
    first, withdrawn = correction.call, correction.other
    if entry.call == first:
        assert withdrawn is not None
        board.oblige(partner, NEXT_TURN)
        board.penalise_lead(offender, withdrawn, cite(board, "25B2"))
        _rectify(board, "25B2", offender, f"{offender} let {first} stand: {partner} must pass "
                 "when next it is his turn (Law 23 may apply).")
        return
    board.penalise_lead(offender, first, cite(board, "25B2"), final=entry.call)
    if board.duplicate:
        board.alert("adjusted_score_possible", "25B2(b)(2)", offender,
                    f"{offender} substituted {entry.call} for {first}: the auction proceeds "
                    "normally, but his side may receive no score greater than average minus "
                    "(Law 12C1).", ("the Director assigns the score at the end of the board",),
                    entry.call)
    else:
        board.oblige(partner, EVERY_TURN)
        _rectify(board, "25B2", offender, f"{offender} made another call: {partner} must pass "
                 "whenever it is his turn.")


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
    harmless = (board.status == PASSED_OUT or entry.call.is_pass
                or (declarer is not None and entry.seat.side == declarer.side))
    law = cite(board, "39A" if harmless else "39B")
    board.cancel(entry, law, "call after the final pass")
    if not harmless:
        board.penalise_lead(entry.seat, entry.call, law)
    board.alert("call_after_final_pass", cite(board, "39"), entry.seat,
                f"{entry.seat} called {entry.call} after the final pass: the call is cancelled" +
                (", without penalty." if harmless else "; lead penalties of Law 26 may apply."),
                () if harmless else (f"if {entry.seat.lho} calls, there is no penalty (Law 35D)",),
                entry.call)


# --- changes of call ------------------------------------------------------------------------


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
        _inadvertent_replaced(board, seat, held.entry.call, call)
        make_call(board, StandingCall(seat, call))
    elif held is not None and held.offender is seat:
        on_call(board, CallMade(seat, call))
    elif pending is not None and pending.offender is seat:
        if event.inadvertent and pending.kind != "change_of_call":
            board.pending, board.turn = None, pending.at_turn
            law = cite(board, "25A")
            board.cancel(pending.entry, law, "inadvertent call replaced")
            _inadvertent_replaced(board, seat, pending.entry.call, call)
            make_call(board, StandingCall(seat, call))
        else:
            on_call(board, CallMade(seat, call))
    else:
        board.inadmissible = None  # another player's change of call closes Law 35's window
        change_of_call(board, seat, call, event.inadvertent)


def _inadvertent_replaced(board: Board, seat: Seat, first: Call, call: Call) -> None:
    board.alert("change_of_call", cite(board, "25A"), seat,
                f"{seat} replaced an inadvertent {first} by {call}. The Director confirms it "
                f"was without pause for thought; otherwise Law {cite(board, '25B')} applies.",
                ("the substitute is treated as the call at that turn",), call)


def change_of_call(board: Board, seat: Seat, call: Call, inadvertent: bool) -> None:
    """Law 25 (rubber 24–25).
    - A (rubber 24): an inadvertent call may be replaced, without pause for thought, until
      partner calls: the substitute is treated as the call at that turn (an illegal one is
      subject to its own Law); a call LHO made over the inadvertent call is cancelled.
    - B (rubber 25): otherwise, until LHO calls. Duplicate: LHO may accept the substitute
      (B1); if not, the offender lets his first call stand or makes another (B2). Rubber: no
      acceptance, the offender chooses at once."""
    index = board.last_call_of(seat)
    later = board.calls[index + 1:] if index is not None else []
    law = cite(board, "25A" if inadvertent else "25B")
    too_late_by = seat.partner if inadvertent else seat.lho
    if index is None or any(e.seat is too_late_by for e in later) \
            or (not inadvertent and later):
        board.alert("change_of_call", law, seat,
                    f"{seat} tried to change his call to {call}, too late: "
                    + ("he has no call to change." if index is None else
                       f"{too_late_by} has called since (Law {law})."),
                    ("the earlier call stands",), call)
        return
    first = board.calls[index]
    if board.status != AUCTION:
        board.reopen()
    board.pending = board.correction = None
    if inadvertent:
        _inadvertent_replaced(board, seat, first.call, call)
        board.truncate(index, law, "inadvertent call replaced")
        make_call(board, StandingCall(seat, call))
        return
    entry = StandingCall(seat, call)
    if board.duplicate and may_be_accepted(board, seat, call):
        irregular(board, entry, "change_of_call", "25", seat.lho, replaces=first)
        return
    # Rubber Law 25 has no acceptance; duplicate Law 25B2(b) when LHO may not accept it
    law = cite(board, "25B2")
    other = "his side may receive no score greater than average minus" if board.duplicate \
        else f"{seat.partner} must pass whenever it is his turn"
    board.alert("change_of_call", law, seat,
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


# --- options, cards, leads, rulings ---------------------------------------------------------


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


def on_card_exposed(board: Board, event: CardExposed) -> None:
    """Law 24 (rubber 23): a card exposed during the auction stays face up until the auction
    closes and is a penalty card if the offender becomes a defender (Law 50).
    - A: a single card below honour rank, not prematurely led: no further penalty;
    - B: a single honour, or any card prematurely led: partner must pass at his next turn;
    - C: two or more cards: partner must pass at his next turn (Law 23 may apply)."""
    seat, card = event.seat, event.card
    if board.status != AUCTION:
        board.exposed += ((seat, card, event.led),)
        board.alert("exposed_card", cite(board, "24"), seat,
                    f"{seat} exposed {card} after the auction closed: a penalty card if he is a "
                    "defender (Laws 49–50).", ("the Laws of play govern",))
        return
    earlier = sum(1 for s, _, _ in board.exposed if s is seat)
    board.exposed += ((seat, card, event.led),)
    if earlier:
        law = "24C"
    elif card.is_honour or event.led:
        law = "24B"
    else:
        law = "24A"
    message = f"{seat} exposed {card} during the auction: it stays face up until the auction " \
              "closes, a penalty card if he becomes a defender."
    if law == "24A":
        message += " A single low card: no further penalty."
    else:
        board.oblige(seat.partner, NEXT_TURN)
        message += f" {seat.partner} must pass when next it is his turn (Law 23 may apply)."
    board.alert("exposed_card", cite(board, law), seat, message,
                ("declarer may treat it as a penalty card (Law 50)",))


def on_opening_lead(board: Board, event: OpeningLeadFaced) -> None:
    """2017 Law 17D1: the auction period ends when a defender faces the opening lead. A card
    led during the auction is a card prematurely led (Law 24B); a lead by the wrong defender
    is a lead out of turn (Law 54)."""
    if board.status == AUCTION:
        on_card_exposed(board, CardExposed(event.seat, event.card, led=True))
        return
    declarer = board.declarer
    if declarer is None or board.opening_lead is not None:
        board.note_ignored("no opening lead is due")
        return
    if event.seat is not declarer.lho:
        board.alert("opening_lead_out_of_turn", "54", event.seat,
                    f"{event.seat} faced an opening lead out of turn; {declarer.lho} is on lead.",
                    ("declarer may accept the lead or require it to be withdrawn (Law 54)",))
    board.opening_lead = (event.seat, event.card)


def on_ruling(board: Board, event: RulingGiven) -> None:
    """A Director's ruling, applied mechanically (see `shared.events.RulingGiven`)."""
    action = event.action
    record = {"action": action.value, "law": event.law, "event": board.events}
    for key in ("index", "obligation", "suit", "restriction", "score", "note"):
        value = getattr(event, key)
        if value is not None:
            record[key] = value
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
        if board.status != AUCTION:
            board.reopen()
        first = board.truncate(index, law, "cancelled by the Director")
        if pending is not None:  # a call awaiting an option comes after it: cancelled too
            cancel_pending_call(board, pending, law)
        board.correction, board.turn = None, first
    elif action is RulingAction.SET_PASS_OBLIGATION and seat is not None \
            and board.status == AUCTION:
        board.must_pass[seat] = event.obligation or NEXT_TURN
    elif action is RulingAction.LIFT_PASS_OBLIGATION and seat is not None:
        board.must_pass.pop(seat, None)
        board.may_not_double.pop(seat, None)


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
