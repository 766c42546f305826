"""Disclosure: questions about the opponents' calls and their explanations (Law 20F).

Who may see an explanation is the reader's business (the gateway: an explanation the caller
gives of his own call is not shown to his partner, as in online self-alerting); the board
records who asked, who answered and about which call.
"""

from __future__ import annotations

from shared.events import CallExplained, ExplanationRequested
from shared.laws.citations import cite
from shared.table.board import Board
from shared.table.board_view import ExplanationView, QuestionView
from shared.vocabulary import BoardStatus, Irregularity


def on_question(board: Board, event: ExplanationRequested) -> None:
    """Law 20F1 (rubber Law 20): during the auction a player may ask for an explanation of the
    opponents' auction, or of one of their calls, but only at his own turn to call. After the
    final pass (Law 20F2) the turn to play is not tracked here, so any question is recorded.

    A question about one's own side's call is not a question Law 20F allows: it is ignored. A
    question out of turn is recorded and the Director alerted (the Laws give it no automatic
    rectification; Law 16 may apply to what partner learns from it)."""
    seat, index = event.seat, event.index
    if index is not None:
        if index >= len(board.calls):
            board.note_ignored(f"no call {index} to ask about")
            return
        if not board.calls[index].seat.is_opponent_of(seat):
            board.note_ignored(f"a player asks about his opponents' calls only "
                               f"(Law {cite(board, '20F1')})")
            return
    in_turn = board.status != BoardStatus.AUCTION or board.turn is seat
    question: QuestionView = {"seat": seat.name, "index": index, "in_turn": in_turn,
                              "event": board.events}
    board.questions += (question,)
    if not in_turn:
        board.alert(Irregularity.QUESTION_OUT_OF_TURN, cite(board, "20F1"), seat,
                    f"{seat} asked for an explanation when it was not his turn to call "
                    f"({board.turn} was to call).",
                    ("Law 16 may apply to information partner gained from the question",))


def on_explanation(board: Board, event: CallExplained) -> None:
    """Law 20F1 (rubber Law 20): an explanation of a call is given by the caller's side: by his
    partner at the table, by the caller himself when alerts are his own (online). Any other
    seat's explanation is ignored, and so is one sent as the sender's own call's (`own`) when
    the call at `index` is not his: online, a partner's text never reaches him that way."""
    index, seat = event.index, event.seat
    if index >= len(board.calls):
        board.note_ignored(f"no call {index} to explain")
        return
    caller = board.calls[index].seat
    if event.own and seat is not caller:  # sent as his own call's, and it is not (any more)
        board.note_ignored(f"{seat} explains his own calls only; the call at {index} is "
                           f"{caller}'s (Law {cite(board, '20F1')})")
        return
    if seat is not caller and seat is not caller.partner:
        board.note_ignored(f"only {caller} or his partner explains {caller}'s call "
                           f"(Law {cite(board, '20F1')})")
        return
    explanation: ExplanationView = {"index": index, "caller": caller.name, "seat": seat.name,
                                    "explanation": event.explanation, "event": board.events}
    board.explanations += (explanation,)
