"""A result (`result_recorded`: declarer's tricks in all) judged before it is appended, against
the board's state. Law 79A: the number of tricks won is agreed by all four players. The
table's operator and the Director record it (it stands); from a seat it is a proposal the
other side must agree to (the fold makes it a claim, `shared.laws.claims`), and dummy, who
may not claim (Law 43A), makes none. Either way it never gives a side fewer tricks than it
has won, nor more than it can still win: a 400 naming `tricks`. A recorded result may leave
those bounds only after a revoke, whose tricks transferred (Law 64) it counts.

The state may lag the log by the events not yet folded: a board whose contract is not in it
yet is the fold's to judge (no trick is won before the contract), and a board whose play is
over may be the one before the result's (a round's next board not folded yet: sent again,
409). The gateway turns a `Refusal` into its refusal (`services.gateway.tables.service`)."""

from __future__ import annotations

from typing import Any

from shared.table.board_view import BoardView
from shared.table.play import TRICKS
from shared.table.play_checks import Refusal, dummy_and_declarer


def result_refusal(board: BoardView | None, sender: str | None, tricks: Any
                   ) -> Refusal | None:
    """Why declarer's `tricks` in all, recorded by the table's operator or the Director
    (`sender` None) or proposed from seat `sender`, are refused, or None. Their syntax is the
    event schema's (`shared.codec`)."""
    if board is None or isinstance(tricks, bool) or not isinstance(tricks, int):
        return None
    if board.get("result") is not None:
        return Refusal("this board's play is over and the next board's start is not in the "
                       "table's state yet: send the result again once it has started",
                       "tricks", retry=True)
    roles = dummy_and_declarer(board)
    if roles is None:
        return None
    dummy, declarer = roles
    if sender == dummy:
        return Refusal(f"{sender} is dummy: dummy proposes no result, as he makes no claim "
                       "(Laws 43A, 79A); declarer speaks for his side", "type", forbidden=True)
    play = board.get("play")
    if sender is None and play is not None and play["revokes"]:
        return None  # Law 64: tricks transferred may leave the bounds of the tricks won
    won = play["won"] if play is not None else {}
    side, other = ("NS", "EW") if declarer in ("N", "S") else ("EW", "NS")
    ours, theirs = won.get(side, 0), won.get(other, 0)
    if not ours <= tricks <= TRICKS - theirs:
        return Refusal(f"field 'tricks': declarer's side has won {ours} tricks and the "
                       f"defenders {theirs}, so declarer's tricks in all are {ours} to "
                       f"{TRICKS - theirs}, not {tricks} (Law 79A)", "tricks")
    return None
