"""A card played, judged before it is appended, against the board's state: the sender's
authority (a seat plays from its own hand, declarer from dummy's too, dummy plays nothing:
Law 45) and the card against the deal (a card not dealt to that hand, or one already played,
is bad input: the gateway's 400 naming `card`, nothing appended). A possible but irregular
card (out of turn, a revoke) goes on: the fold applies the Laws to it.

The state is the one the processor wrote (the whole board, deal included); it may lag the log
by the events not yet folded, and the fold ignores a card that slips through. The gateway
turns a `CardRefusal` into its refusal (`services.gateway.service`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.cards import Card
from shared.deal import parse_deal
from shared.seats import NotationError, Seat
from shared.vocabulary import BoardStatus


@dataclass(frozen=True)
class CardRefusal:
    """Why a card may not be appended: the reason, the field at fault, and whether it is the
    sender's authority (`forbidden`) rather than the card itself."""

    reason: str
    field: str
    forbidden: bool = False
    retry: bool = False  # the state does not tell yet: the same card may be sent again


def _dummy_and_declarer(board: dict[str, Any]) -> tuple[str, str] | None:
    contract = board.get("contract")
    if not contract or board.get("status") != BoardStatus.CLOSED:
        return None
    declarer = Seat.parse(contract["declarer"])
    return declarer.partner.name, declarer.name


def card_refusal(board: dict[str, Any] | None, sender: str | None, seat: str,
                 card_text: Any) -> CardRefusal | None:
    """Why the card from `seat`'s hand, sent by `sender` (a seat's token; None: the table's
    operator, who records any seat's cards), is refused, or None. The syntax of the card
    itself is the event schema's (`shared.codec`)."""
    if board is not None and board.get("result") is not None:
        # the play period is over (or the board passed out): the card is for a next board
        # whose start the state has not folded yet; judged against this one, its dummy and
        # its cards played, a good card would be refused
        return CardRefusal("this board's play is over and the next board's start is not in "
                           "the table's state yet: send the card again once it has started",
                           "card", retry=True)
    roles = _dummy_and_declarer(board) if board is not None else None
    if sender is not None:
        if roles is not None and sender == roles[0]:
            return CardRefusal(f"{sender} is dummy: declarer plays dummy's cards (Law 45)",
                               "seat", forbidden=True)
        if seat != sender and roles is None and (
                board is None or board.get("status") == BoardStatus.AUCTION):
            # the auction's end not folded yet (the state lags the log by milliseconds):
            # whether the sender is declarer is not known yet
            return CardRefusal("the auction's end is not in the table's state yet: send the "
                               "card again", "seat", retry=True)
        if seat != sender and not (roles is not None and (sender, seat) == (roles[1], roles[0])):
            return CardRefusal("a seat plays from its own hand (declarer from dummy's too, "
                               "Law 45)", "seat", forbidden=True)
    if board is None or not isinstance(card_text, str):
        return None
    try:
        card = Card.parse(card_text)
    except NotationError:
        return None  # the schema's check names it
    text = str(card)
    play = board.get("play") or {}
    if any(c["card"] == text for trick in play.get("tricks", []) for c in trick["cards"]):
        return CardRefusal(f"field 'card': {text} has been played already", "card")
    deal = board.get("deal")
    if deal:
        hand = parse_deal(deal).get(Seat.parse(seat))
        if hand is not None and card.rank not in hand.split(".")["SHDC".index(card.suit)]:
            return CardRefusal(f"field 'card': {text} is not in {seat}'s hand", "card")
    return None
