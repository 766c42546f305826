"""Whom a table waits for, as a robot acts: the seat whose call or card is due, from the
board as any seat sees it (pure). The Table Manager host asks it of each robot's view, to tell
the director a robot the table has waited on for long (`services/robots/presence.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.seats import Seat
from shared.vocabulary import BoardStatus

NOBODY: frozenset[Seat] = frozenset()


def awaited(board: Mapping[str, Any] | None) -> frozenset[Seat]:
    """The seats the table waits for, each as the one who acts for its hand:

    - in the auction, the seat whose call is due (Law 17C);
    - the contract made, the opening leader, declarer's left-hand opponent (Law 41A);
    - in the play, the hand whose card is due, declarer for dummy's (Law 45A);
    - a claim open, the claimer's opponents who have not answered it (declarer for his side,
      Law 69A): play has ceased (Law 68D);
    - nobody once the board is over, or a claim disputed (the Director's, Law 70).
    """
    if board is None or board.get("result") is not None:
        return NOBODY
    status = board.get("status")
    if status == BoardStatus.AUCTION:
        turn = board.get("turn")
        return frozenset({Seat.parse(turn)}) if turn else NOBODY
    contract = board.get("contract")
    if status != BoardStatus.CLOSED or contract is None:
        return NOBODY
    declarer = Seat.parse(contract["declarer"])
    play = board.get("play")
    if not play:
        return frozenset({declarer.lho})
    claim = play.get("claim")
    if claim:
        if claim.get("disputed"):
            return NOBODY
        claimer, answered = Seat.parse(claim["seat"]), set(claim.get("answers") or {})
        return frozenset(s for s in (claimer.lho, claimer.rho)
                         if s is not declarer.partner and s.letter not in answered)
    turn = play.get("turn")
    if not turn:
        return NOBODY
    seat = Seat.parse(turn)
    return frozenset({declarer if seat is declarer.partner else seat})


Position = tuple[int, int, int, int, bool]


def position(board: Mapping[str, Any]) -> Position:
    """Where the board stands: its number and start, how many calls and cards were made, and
    whether a claim is open. A wait for a seat that spans positions (declarer playing dummy's
    card, then his own) is a new wait at each."""
    play = board.get("play") or {}
    cards = sum(len(trick["cards"]) for trick in play.get("tricks") or [])
    return (int(board.get("board") or 0), int(board.get("started_ts") or 0),
            len(board.get("calls") or []), cards, bool(play.get("claim")))
