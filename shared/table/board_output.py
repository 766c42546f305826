"""A board's state turned into the map a reader gets (`shared.table.board_view.BoardView`): what
`Board.to_dict()` answers, for the processor's states in Redis, the history and the pages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared.events import RulingAction
from shared.table.board_records import Standing, StandingCall
from shared.table.board_result import play_view, result_view
from shared.table.board_view import BoardView, CallView, ExposedCardView
from shared.table.play import is_minor
from shared.table.playable import board_playable
from shared.vocabulary import BoardStatus

# module globals: under Python 3.11 an enum class's attribute is slow to read (`shared.table.board`)
_AUCTION, _PASSED_OUT, _CLOSED = BoardStatus.AUCTION, BoardStatus.PASSED_OUT, \
    BoardStatus.CLOSED

if TYPE_CHECKING:  # the board calls this module for its `to_dict`
    from shared.table.board import Board


def view_of(board: Board) -> BoardView:
    """The state of `board` as a reader gets it (`Board.to_dict()`; docs/api.md)."""
    declarer = board.declarer
    exposed: list[ExposedCardView] = [{"seat": s.letter, "card": c.text, "led": led}
                                      for s, c, led in board.exposed]
    defending = [declarer is not None and s.is_opponent_of(declarer)
                 for s, _, _ in board.exposed]
    play = board.play
    penalty: list[ExposedCardView] = [e for e, defender in zip(exposed, defending, strict=True)
                                      if defender]
    if play is not None:  # once the play begins, its penalty cards while held (Laws 50-52)
        penalty = [{"seat": s.letter, "card": str(c), "led": led} for s, c, led in
                   ((s, c, any(x == (s, c, True) for x in board.exposed)) for s, c in
                    play.penalty)]
        if play.inadvertent:  # Law 50B
            for entry, (s, c) in zip(penalty, play.penalty, strict=True):
                if is_minor(play, s, c):
                    entry["minor"] = True
    d: BoardView = {
        "board": board.board,
        "dealer": board.dealer.letter,
        "vulnerability": str(board.vulnerability),
        "ruleset": board.ruleset,
        "status": board.status,
        "turn": board.turn.letter if board.turn else None,
        # what the player in turn may call now (Laws 18, 19; an obligation to pass):
        # a bidding box enables these
        "open_calls": [str(c) for c in board.legal_calls()]
        if board.status is _AUCTION else [],
        "calls": [standing_to_dict(c) for c in board.calls],
        "contract": board.contract(),
        "must_pass": {s.letter: o for s, o in sorted(board.must_pass.items(),
                                                   key=lambda i: i[0].value)},
        "may_not_double": {s.letter: law for s, law in board.may_not_double.items()},
        "pending": board.pending.to_dict() if board.pending else None,
        "alerts": [a.to_dict() for a in board.alerts],
        "rectifications": list(board.rectifications),
        "lead_restrictions": [p.to_dict(board) for p in board.lead_penalties]
        + [r for r in board.rulings if r["action"] == RulingAction.LEAD_RESTRICTION],
        # Law 24: face up until the auction period ends (2017 Law 17D1: the opening lead faced),
        # then a defender's are penalty cards, declarer's side's back in the hand (54E)
        "exposed_cards": exposed if board.status is _AUCTION else [
            e for e, defender in zip(exposed, defending, strict=True) if not defender]
        if board.opening_lead is None and board.duplicate and exposed else [],
        "penalty_cards": penalty,
        "alerted_calls": [standing_to_dict(c) for c in board.calls
                          if c.alert or c.explanation],
        "cancelled": list(board.cancelled),
        "rulings": list(board.rulings),
        "questions": list(board.questions),
        "explanations": list(board.explanations),
        "opening_lead": ({"seat": board.opening_lead[0].letter,
                          "card": board.opening_lead[1].text} if board.opening_lead else None),
        "auction_period_ended": board.opening_lead is not None and board.duplicate,
        "play": None if play is None else play_view(play),
        "result": result_view(board),
        "on_lead": None if (leader := board.on_lead()) is None else leader.letter,  # Law 41A
        # Law 25A: seat → the call he may still replace as inadvertent (an undo button)
        "replaceable": {s.letter: str(c) for s, c in board.replaceable().items()},
        "ignored": list(board.ignored),
        "events": board.events,
    }
    if board.deal is not None:
        d["deal"] = board.deal
    if board.players:
        d["players"] = {seat.letter: name for seat, name in board.players}
    if board.started_ts is not None:
        d["started_ts"] = board.started_ts
    if board.status is _PASSED_OUT and not board.duplicate:
        d["next_dealer"] = board.dealer.lho.letter  # rubber Law 22(a)
    due = board_playable(board) if board.status is _CLOSED else None
    if due is not None:
        d["playable"] = {"seat": due.seat.letter, "cards": [c.text for c in due.cards]}
    return d


def standing_to_dict(entry: Standing) -> CallView:
    """A call that stands, as a reader gets it (`calls`, `alerted_calls`)."""
    d: CallView = {"seat": entry.seat.letter, "call": str(entry.call)}
    if entry.alert:
        d["alert"] = True
    if entry.explanation is not None:
        d["explanation"] = entry.explanation
    if isinstance(entry, StandingCall):
        if entry.accepted is not None:
            d["accepted"] = entry.accepted
        if entry.skipped:
            d["skipped"] = [s.letter for s in entry.skipped]
        if entry.deemed is not None:
            d["deemed"] = entry.deemed
    return d
