"""What the Laws require of an offender and his partner after an irregular call was cancelled:
the substitute for an insufficient bid (Law 27B), the penalties of a pass, bid, double or
redouble out of rotation (Laws 30, 31, 32), the offender's call after his RHO's (Laws 31A,
32B, with Law 36 when the double to repeat is not permitted), the choice after a change of
call not accepted (Law 25B2(b)). Rubber: Laws 25(b), 27, 30–32.
"""

from __future__ import annotations

from shared.calls import MAX_LEVEL, Call
from shared.laws.citations import cite
from shared.laws.common import rectify
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Correction, Standing
from shared.vocabulary import Irregularity, PassObligation, Relation


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
    board.oblige(offender.partner, PassObligation.EVERY_TURN)
    rectify(board, "36", offender, f"{entry.seat} passed and {offender} may not repeat "
             f"{correction.call} (Law 19): {offender} must substitute a legal call and "
             f"{offender.partner} must pass whenever it is his turn (Laws 32B1, 36).")


def pass_out_of_rotation(board: Board, offender: Seat, relation: Relation) -> None:
    """Law 30 (rubber 30), a pass out of rotation cancelled:
    - A: before any player has bid, the offender must pass at his next turn;
    - B1: after a bid, at RHO's turn: the offender must pass at his next turn;
    - B2: after a bid, at partner's turn: the offender must pass whenever it is his turn, and
      his partner may bid or pass but not double or redouble at that turn."""
    if board.last_bid is None or relation is not Relation.PARTNER:
        law = "30A" if board.last_bid is None else "30B1"
        board.oblige(offender, PassObligation.NEXT_TURN)
        rectify(board, law, offender, f"{offender} must pass when next it is his turn.")
        return
    partner = offender.partner
    board.oblige(offender, PassObligation.EVERY_TURN)
    board.may_not_double[partner] = cite(board, "30B2")
    rectify(board, "30B2", offender, f"{offender} must pass whenever it is his turn; "
             f"{partner} may make any sufficient bid or pass, but not double or redouble, at "
             "this turn.")


def bid_out_of_rotation(board: Board, offender: Seat, call: Call, relation: Relation) -> None:
    """Law 31 (rubber 31), a bid out of rotation cancelled:
    - A, at RHO's turn: what the offender must do depends on RHO's call (see `follow_correction`);
    - B, at partner's turn (or at LHO's turn before the offender has called): the offender's
      partner must pass whenever it is his turn, and the lead penalties of Law 26 may apply."""
    if relation is Relation.RHO:
        board.correction = Correction("31A", offender, call)
        rectify(board, "31A", offender, f"{offender.rho} calls. If he passes, {offender} must "
                 f"repeat {call}; if he bids, doubles or redoubles, {offender} may make any legal "
                 f"call, and {offender.partner} must pass at his next turn (the same "
                 "denomination) or at every turn (another call; lead penalties Law 26).")
        return
    partner = offender.partner
    board.oblige(partner, PassObligation.EVERY_TURN)
    board.penalise_lead(offender, call, cite(board, "31B"))
    rectify(board, "31B", offender, f"{partner} must pass whenever it is his turn "
             "(Law 23 may apply; lead penalties of Law 26).")


def double_out_of_rotation(board: Board, offender: Seat, call: Call, relation: Relation) -> None:
    """Law 32 (rubber 32), a double or redouble out of rotation cancelled (lead penalties of
    Law 26B may apply):
    - A, at partner's turn: the offender's partner must pass whenever it is his turn (rubber
      also: the offender may not then double or redouble the same bid);
    - B, at RHO's turn: depends on RHO's call (see `follow_correction`); repeated after
      RHO's pass (B1), it carries no penalty and the lead penalty is lifted (`call_after_rho`)."""
    board.penalise_lead(offender, call, cite(board, "32"))
    if relation is Relation.RHO:
        board.correction = Correction("32B", offender, call)
        rectify(board, "32B", offender, f"{offender.rho} calls. If he passes, {offender} must "
                 f"repeat {call}; if he bids, {offender} may make any legal call and "
                 f"{offender.partner} must pass " +
                 ("whenever it is his turn." if board.duplicate else "at his next turn."))
        return
    board.oblige(offender.partner, PassObligation.EVERY_TURN)
    if not board.duplicate:
        board.may_not_double[offender] = "32(a)"
    rectify(board, "32A", offender, f"{offender.partner} must pass whenever it is his turn.")


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
            rectify(board, "27B1(a)", offender, f"{call} is the lowest sufficient bid in the "
                     "same denomination: no penalty" + (" unless either bid was conventional "
                     "(the Director judges, Laws 27B1(b), 27B2)." if board.duplicate else "."))
            return False
    elif not call.is_pass:
        if call.is_bid:
            return False  # still not a sufficient bid: its own Law applies (27 or 38)
        board.cancel(entry, cite(board, "27B3"), "a double or redouble cannot replace an "
                     "insufficient bid")
        board.oblige(partner, PassObligation.EVERY_TURN)
        if not board.duplicate:
            board.oblige(offender, PassObligation.NEXT_TURN)
        board.penalise_lead(offender, insufficient, cite(board, "27B3"))
        rectify(board, "27B3", offender, f"{offender}'s {call} is cancelled; {partner} must "
                 "pass whenever it is his turn" + ("." if board.duplicate else
                                                  f"; {offender} must pass at this turn."))
        board.correction = Correction("27B", offender, insufficient) if board.duplicate \
            else None
        return True
    board.oblige(partner, PassObligation.EVERY_TURN)
    board.penalise_lead(offender, insufficient, cite(board, "27B2"), final=call)
    rectify(board, "27B2", offender, f"{offender} substituted {call}: {partner} must pass "
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
            rectify(board, law, offender, f"{offender} repeated {original}: no penalty.")
        else:
            board.alert(Irregularity.RECTIFICATION_NOT_FOLLOWED, cite(board, law), offender,
                        f"After RHO passed, {offender} had to repeat {original} but called "
                        f"{entry.call}.", ("the Director rules",), entry.call)
        return
    if base == "31A":
        if entry.call.is_bid and entry.call.strain is original.strain:
            board.oblige(partner, PassObligation.NEXT_TURN)
            rectify(board, "31A2(a)", offender, f"{offender} repeated the denomination: "
                     f"{partner} must pass when next it is his turn.")
        else:
            board.oblige(partner, PassObligation.EVERY_TURN)
            board.penalise_lead(offender, original, cite(board, "31A2(b)"), final=entry.call)
            rectify(board, "31A2(b)", offender, f"{offender} did not repeat the denomination: "
                     f"{partner} must pass whenever it is his turn (lead penalties Law 26).")
        return
    board.oblige(partner, PassObligation.EVERY_TURN if board.duplicate
                 else PassObligation.NEXT_TURN)
    rectify(board, "32B2", offender, f"{partner} must pass " +
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
        board.oblige(partner, PassObligation.NEXT_TURN)
        board.penalise_lead(offender, withdrawn, cite(board, "25B2"))
        rectify(board, "25B2", offender, f"{offender} let {first} stand: {partner} must pass "
                 "when next it is his turn (Law 23 may apply).")
        return
    board.penalise_lead(offender, first, cite(board, "25B2"), final=entry.call)
    if board.duplicate:
        board.alert(Irregularity.ADJUSTED_SCORE_POSSIBLE, "25B2(b)(2)", offender,
                    f"{offender} substituted {entry.call} for {first}: the auction proceeds "
                    "normally, but his side may receive no score greater than average minus "
                    "(Law 12C1).", ("the Director assigns the score at the end of the board",),
                    entry.call)
    else:
        board.oblige(partner, PassObligation.EVERY_TURN)
        rectify(board, "25B2", offender, f"{offender} made another call: {partner} must pass "
                 "whenever it is his turn.")
