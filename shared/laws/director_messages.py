"""What a director alert says: the irregularity, and the options open to the players and the
Director, with the Laws that give them (in the board's ruleset, see `shared.laws.citations`)."""

from __future__ import annotations

from shared.laws.citations import cite
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Pending, Standing
from shared.vocabulary import Irregularity

Description = tuple[str, tuple[str, ...]]
_OUT_OF_ROTATION_DONE = {Irregularity.PASS_OUT_OF_ROTATION: "passed",
                         Irregularity.BID_OUT_OF_ROTATION: "bid {call}",
                         Irregularity.DOUBLE_OUT_OF_ROTATION: "called {call}"}


def describe_pending(board: Board, pending: Pending) -> Description:
    """An irregular call its offender's LHO may accept."""
    o, call, holder, turn = pending.offender, pending.entry.call, pending.option_holder, \
        pending.at_turn

    def c(law: str) -> str:
        return cite(board, law)

    match pending.kind:
        case Irregularity.INSUFFICIENT_BID:
            return (f"{o} made an insufficient bid, {call}.",
                    (f"{holder} may accept it by calling (Law {c('27A')})",
                     f"otherwise {o} substitutes the lowest sufficient bid in the same "
                     f"denomination (no penalty, Law {c('27B1(a)')}), another sufficient bid or "
                     f"a pass ({o.partner} must pass throughout, Law {c('27B2')})",
                     *(("the Director judges whether either bid was conventional and whether "
                        f"the insufficient bid damaged {holder}'s side (Law 27B1(b))",)
                       if board.duplicate else ())))
        case (Irregularity.PASS_OUT_OF_ROTATION | Irregularity.BID_OUT_OF_ROTATION
              | Irregularity.DOUBLE_OUT_OF_ROTATION):
            what = _OUT_OF_ROTATION_DONE[pending.kind].format(call=call)
            options = [f"{holder} may accept it by calling (Law {c('29A')})",
                       f"otherwise it is cancelled and Law {c(pending.law)} rectifies "
                       f"(Law {c('29B')})"]
            if turn.is_opponent_of(o) and turn is not holder:
                options.append(f"{turn} may call in turn, cancelling it without penalty "
                               f"(Law {c('28B')})")
            return f"{o} {what} out of rotation; it was {turn}'s turn.", tuple(options)
        case _ if pending.prior is not None:  # change_of_call: a substitute for an illegal call
            first = pending.prior.entry.call
            return (f"{o} tried to substitute {call} for his irregular {first} before {holder} "
                    "had acted.",
                    (f"{holder} may accept the substitute (Law 25B1)",
                     f"otherwise it is cancelled and {first} is subject to its Law: {holder} may "
                     f"still accept it; lead penalties of Law 26 for {call} (Law 25B2(a))"))
        case _:  # change_of_call (duplicate Law 25B)
            first_call = pending.replaces.call if pending.replaces else "his call"
            return (f"{o} substituted {call} for {first_call} after a pause for thought.",
                    (f"{holder} may accept the substitute (Law 25B1)",
                     f"otherwise {o} lets {first_call} stand ({o.partner} must pass at his "
                     "next turn) or makes another legal call (average minus at best); lead "
                     "penalties of Law 26 (Law 25B2)"))


def describe_inadmissible(board: Board, kind: Irregularity, entry: Standing, at_turn: Seat
                          ) -> Description:
    """An inadmissible call, cancelled at once (Laws 32, 36, 37, 38)."""
    o, call, lho = entry.seat, entry.call, entry.seat.lho
    where = "" if at_turn is o else f" out of rotation; it was {at_turn}'s turn"
    before = f"if {lho} calls before {o} calls again" if at_turn is o else \
        f"if {lho} calls out of turn before anyone else calls"

    def c(law: str) -> str:
        return cite(board, law)

    def condoned(effect: str, law: str) -> tuple[str, ...]:
        """Law 35's option, unless it is LHO's own turn (his call is then simply in turn)."""
        return () if at_turn is lho else (f"{before}, {effect} (Law {c(law)})",)

    match kind:
        case Irregularity.INADMISSIBLE_DOUBLE:
            return (f"{o}'s {call} is not permitted by Law 19: it is cancelled.",
                    (f"{o} must substitute a legal call and {o.partner} must pass whenever it "
                     "is his turn (Law 36; lead penalties of Law 26)",
                     *condoned("both calls are cancelled without penalty", "35A")))
        case Irregularity.DOUBLE_OUT_OF_ROTATION:
            return (f"{o} called {call}{where}. Law 19 does not permit it, so it may never be "
                    "accepted: it is cancelled (Law 32).",
                    (f"the auction reverts to {at_turn}; Law {c('32')} rectifies (lead "
                     "penalties of Law 26B); if the call is to be repeated, Law 36 applies",
                     *condoned("both calls are cancelled without penalty", "35A")))
        case Irregularity.CALL_WHILE_REQUIRED_TO_PASS:
            return (f"{o} called {call} while required to pass: it is cancelled.",
                    (f"{o} and {o.partner} must pass whenever it is their turn (Law 37; lead "
                     "penalties of Law 26)",
                     *condoned("the calls stand without penalty", "35B")))
        case _:  # bid_above_seven
            return (f"{o} bid {call}{where}: no contract above seven is permissible; it is "
                    "cancelled.",
                    (f"{o} and {o.partner} must pass whenever it is their turn (Law 38; lead "
                     "penalties of Law 26)",
                     *condoned(f"both calls are cancelled and {o} must pass", "35C")))
