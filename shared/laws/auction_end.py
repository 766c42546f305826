"""A call that stands, and the end of the auction: rotation moves on (Law 17C); three passes
after a call, or four, end it (Law 22), unless a pass out of rotation deprived a player of his
turn (Law 34, 2007 Law 17E2, 2017 Law 17D3); a pass deemed made by a player required to pass
whose LHO called (Law 28A).
"""

from __future__ import annotations

from shared.calls import PASS
from shared.laws.citations import cite
from shared.laws.rectification import inadmissible_double_to_repeat
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Standing, StandingCall, skipped_by
from shared.vocabulary import Irregularity


def stand(board: Board, entry: Standing) -> None:
    """The call stands; after three passes the auction ends, unless Law 34 applies."""
    if board.append(entry):
        retain_right_to_call_or_close(board)
    elif board.correction is not None:
        inadmissible_double_to_repeat(board, entry)


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
            board.alert(Irregularity.RETENTION_OF_RIGHT_TO_CALL, "34", entry.seat,
                        f"Three passes followed a call, but {entry.seat}'s pass out of rotation "
                        f"deprived {missed} of his turn: the auction reverts to {missed} and the "
                        "passes from it on are cancelled.",
                        (f"{missed} calls; the auction proceeds as though there had been no "
                         "irregularity",))
            board.truncate(index, "34", "pass cancelled: a player missed his turn (Law 34)")
            revert_to(board, missed)
            return
    board.close()


def revert_to(board: Board, missed: Seat) -> None:
    """Law 34 (2007 Law 17E2, 2017 Law 17D3; rubber 34): "the auction reverts to the player
    who missed his turn"; until he calls, the passes the others make are "subsequent passes"
    (`subsequent_pass`)."""
    board.turn = missed
    board.reverted_to = (missed, len(board.calls))


def is_subsequent_pass(board: Board, entry: Standing, turn: Seat) -> bool:
    """Whether `entry`, made at `turn`, is a pass by another player after Law 34 reverted the
    auction to `turn` and before any call stood (the player who missed his turn has not yet
    called)."""
    reverted = board.reverted_to
    return reverted is not None and entry.call.is_pass and entry.seat is not turn \
        and reverted[0] is turn and reverted[1] == len(board.calls)


def subsequent_pass(board: Board, entry: Standing, turn: Seat) -> None:
    """Law 34 (rubber 34): "The auction reverts to the player who missed his turn. All
    subsequent passes are cancelled, and the auction proceeds as though there had been no
    irregularity" (2007 Law 17E2, 2017 Law 17D3: "all subsequent passes are cancelled and the
    auction proceeds normally"). A pass made after the pass out of rotation, before the player
    who missed his turn has called, is one of them, whether the table made it before or after
    the engine reverted the auction: cancelled, no rectification, the turn still his. (N P, E P,
    S P, E P at W's turn, S P: S's pass is cancelled with E's, W calls next.)"""
    board.cancel(entry, "34", f"a subsequent pass, cancelled: the auction reverted to {turn}, "
                 "who missed his turn (Law 34)")
    board.turn = turn


def deemed_pass(board: Board, seat: Seat) -> None:
    """Law 28A: a call by LHO at the turn of a player required to pass is in rotation; the
    player required to pass is deemed to have passed."""
    law = cite(board, "28A")
    board.rectify(law, seat, f"{seat} was required to pass and his LHO called: {seat}'s pass "
                  "is deemed made and the call is in rotation.")
    stand(board, StandingCall(seat, PASS, deemed=law))


def pass_depriving_partner_of_his_turn(board: Board, entry: Standing, turn: Seat) -> None:
    """Law 34 (2007 Law 17E2, 2017 Law 17D3; rubber 34): a pass out of rotation at the
    offender's partner's turn that is the third pass after a call. The auction does not end:
    it reverts to the partner, who missed his turn, the pass is cancelled and the auction
    proceeds as though there had been no irregularity, so no Law 30 penalty applies. No
    option waits: the offender's LHO made the pass before it. (At RHO's turn the pass waits
    for LHO's option, and Law 34 follows its acceptance: `retain_right_to_call_or_close`.)"""
    board.alert(Irregularity.RETENTION_OF_RIGHT_TO_CALL, "34", entry.seat,
                f"{entry.seat} passed out of rotation at {turn}'s turn, the third pass after a "
                f"call: the auction does not end; it reverts to {turn}, who missed his turn, "
                "and the pass is cancelled.",
                (f"{turn} calls; the auction proceeds as though there had been no "
                 "irregularity",))
    board.cancel(entry, "34", "pass cancelled: a player missed his turn (Law 34)")
    revert_to(board, turn)
