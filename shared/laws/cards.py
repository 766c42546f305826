"""Cards during the auction: a card exposed (Law 24; rubber 23). The opening lead is the play's
(`shared.laws.play`)."""

from __future__ import annotations

from shared.board import Board
from shared.events import CardExposed
from shared.laws.citations import cite
from shared.vocabulary import BoardStatus, Irregularity, PassObligation


def on_card_exposed(board: Board, event: CardExposed) -> None:
    """Law 24 (rubber 23): a card exposed during the auction stays face up until the auction
    closes and is a penalty card if the offender becomes a defender (Law 50).
    - A: a single card below honour rank, not prematurely led: no further penalty;
    - B: a single honour, or any card prematurely led: partner must pass at his next turn;
    - C: two or more cards: partner must pass at his next turn (Law 23 may apply)."""
    seat, card = event.seat, event.card
    if board.status != BoardStatus.AUCTION:
        board.exposed += ((seat, card, event.led),)
        board.alert(Irregularity.EXPOSED_CARD, cite(board, "24"), seat,
                    f"{seat} exposed {card} after the auction closed: a penalty card if he is a "
                    "defender (Laws 49–50).", ("the Laws of play govern",))
        return
    earlier = sum(1 for s, _, _ in board.exposed if s is seat)
    board.exposed += ((seat, card, event.led),)
    if earlier:
        law = "24C"
    elif card.is_honour or event.led:
        law = "24B"
    else:
        law = "24A"
    message = f"{seat} exposed {card} during the auction: it stays face up until the auction " \
              "closes, a penalty card if he becomes a defender."
    if law == "24A":
        message += " A single low card: no further penalty."
    else:
        board.oblige(seat.partner, PassObligation.NEXT_TURN)
        message += f" {seat.partner} must pass when next it is his turn (Law 23 may apply)."
    board.alert(Irregularity.EXPOSED_CARD, cite(board, law), seat, message,
                ("declarer may treat it as a penalty card (Law 50)",))
