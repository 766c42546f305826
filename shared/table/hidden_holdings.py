"""What the fold knows from a hand its reader may not see: the Director's, kept from the players
while the board's play lasts. One rule for every channel that tells a player of a board: his
state and feed, each entry of his history (`services.gateway.tables.views`), his PBN or LIN record
(`shared.notation.export`).

- A revoke not corrected (Law 61; the Director is called when attention is drawn to it, 61B):
  its entry in the play, its alert, its establishment (Law 63's rectification). A corrected
  revoke is public: its card is faced (Law 62B).
- A lead contrary to a lead restriction (Laws 26, 50D2) or a play contrary to declarer's Law
  57A option: its alert tells that the player held the card or suit required.

Once the play ends the players see it all: Law 64's tricks are part of the result.
"""

from __future__ import annotations

from shared.table.board import Board
from shared.table.board_result import result_view
from shared.vocabulary import Irregularity

TOLD_BY_HANDS = frozenset({Irregularity.REVOKE, Irregularity.LEAD_RESTRICTION_NOT_FOLLOWED,
                           Irregularity.PLAY_RESTRICTION_NOT_FOLLOWED})
ESTABLISHMENT = "63"  # the Law whose rectifications tell that a revoke is established


def play_lasts(play: object | None, result: object | None) -> bool:
    """The board's play has begun (its `play`) and not ended (no `result` yet): the state's
    `play` and `result`, or the board's `play` and `result_view`."""
    return play is not None and result is None


def told_by_hands(kind: str) -> bool:
    """An alert of this kind tells what a hand the players may not see holds (Laws 26,
    50D2, 57A, 61)."""
    return kind in TOLD_BY_HANDS


def tells_establishment(law: str) -> bool:
    """A rectification under this Law (its section in the board's ruleset) tells that a
    revoke is established (Law 63)."""
    return law.startswith(ESTABLISHMENT)


def as_players_know(board: Board) -> Board:
    """`board` as the players may know it: while its play lasts, a copy without the alerts,
    establishments and revokes not corrected the fold found from hands they may not see;
    otherwise `board` itself."""
    if board.play is None or not play_lasts(board.play, result_view(board)):
        return board
    seen = board.copy()
    seen.alerts = tuple(a for a in board.alerts if not told_by_hands(a.kind))
    seen.rectifications = tuple(r for r in board.rectifications
                                if not tells_establishment(r["law"]))
    assert seen.play is not None  # a copy of board.play
    seen.play.revokes = tuple(r for r in board.play.revokes if r.corrected)
    return seen
