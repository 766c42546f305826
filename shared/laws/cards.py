"""Cards during the auction: a card exposed (Law 24; rubber 23), and the opening lead faced,
which ends the auction period (2017 Law 17D1; Law 41A; a lead out of turn, Law 54).
"""

from __future__ import annotations

from shared.board import Board
from shared.events import CardExposed, OpeningLeadFaced
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


def on_opening_lead(board: Board, event: OpeningLeadFaced) -> None:
    """2017 Law 17D1: the auction period ends when a defender faces the opening lead. A card
    led during the auction is a card prematurely led (Law 24B); a lead by the wrong defender
    is a lead out of turn (Law 54)."""
    if board.status == BoardStatus.AUCTION:
        on_card_exposed(board, CardExposed(event.seat, event.card, led=True))
        return
    declarer = board.declarer
    if declarer is None or board.opening_lead is not None:
        board.note_ignored("no opening lead is due")
        return
    if event.seat is not declarer.lho:
        board.alert(Irregularity.OPENING_LEAD_OUT_OF_TURN, "54", event.seat,
                    f"{event.seat} faced an opening lead out of turn; {declarer.lho} is on lead.",
                    ("declarer may accept the lead or require it to be withdrawn (Law 54)",))
    board.opening_lead = (event.seat, event.card)
