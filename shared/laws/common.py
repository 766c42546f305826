"""What every family of the Laws does alike to a board: record an irregular call its offender's
LHO may accept (the next event decides it, `shared.laws.options`), record a rectification
under the section of the board's ruleset, and say whose turn it was, seen from the offender of a
call out of rotation (Laws 28–32 turn on it).

The bottom of the package: it imports no other family (only `citations` and `director_messages`,
its helpers).
"""

from __future__ import annotations

from shared.laws.citations import cite
from shared.laws.director_messages import describe_pending
from shared.seats import Seat
from shared.table.board import Board
from shared.table.board_records import Pending, Standing
from shared.vocabulary import Irregularity, Relation


def irregular(board: Board, entry: Standing, kind: Irregularity, law: str, at_turn: Seat,
              replaces: Standing | None = None, prior: Pending | None = None) -> None:
    """Record an irregular call LHO may accept and raise the director alert; the next event
    decides it."""
    board.pending = Pending(kind, law, entry, at_turn, replaces, prior)
    board.turn = entry.seat.lho
    message, options = describe_pending(board, board.pending)
    board.alert(kind, cite(board, law), entry.seat, message, options, entry.call)


def relation(turn: Seat, offender: Seat) -> Relation:
    """Whose turn it was, seen from the offender of a call out of rotation."""
    return _RELATIONS[(turn.index - offender.index) % 4]


_RELATIONS = (Relation.SELF, Relation.LHO, Relation.PARTNER, Relation.RHO)  # seats clockwise


def rectify(board: Board, law: str, seat: Seat, message: str) -> None:
    """Record a rectification under duplicate section `law`, cited in the board's ruleset."""
    board.rectify(cite(board, law), seat, message)
