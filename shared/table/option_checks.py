"""Declarer's options in the play, judged before they are appended: declarer alone states his
option on the lead of the partner of a defender with a major penalty card (a `lead_option`,
Laws 50D2, 51B; Law 26's kept so), names the penalty card to be played (a
`penalty_card_named`, Law 51A), selects his option on a premature play (a `play_option`, Law
57A). Another seat's is the sender's authority (the gateway's 403, field `type`); before the
contract is in the state, the fold judges (it ignores any other seat's). Whether an option
awaits is the fold's: one at another moment is ignored, as docs/api.md says."""

from __future__ import annotations

from shared.events import EVENT_CLASSES, Sender
from shared.table.board_view import BoardView
from shared.table.play_checks import Refusal

DECLARERS_OPTIONS = frozenset(str(kind) for kind, cls in EVENT_CLASSES.items()
                              if cls.SENDER is Sender.DECLARER)
"""The events only declarer sends (their classes' `SENDER`)."""


def option_refusal(board: BoardView | None, sender: str | None, kind: str
                   ) -> Refusal | None:
    """Why `kind` from the seat `sender` is refused: not declarer's (Laws 50D2, 51A, 57A);
    None for another event, or while the state has no contract."""
    contract = board.get("contract") if board is not None else None
    if kind not in DECLARERS_OPTIONS or not contract or contract["declarer"] == sender:
        return None
    return Refusal(f"only declarer ({contract['declarer']}) sends a {kind}: his option "
                   "in the play (Laws 50D2, 51A, 57A)", "type", forbidden=True)
