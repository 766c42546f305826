"""A card played, judged before it is appended, against the board's state: the sender's
authority (a seat plays from its own hand, declarer from dummy's too, dummy plays nothing:
Law 45) and the card against the deal (a card not dealt to that hand, or one already played,
is bad input: the gateway's 400 naming `card`, nothing appended). A possible but irregular
card (out of turn, a revoke) goes on: the fold applies the Laws to it.

The state is the one the processor wrote (the whole board, deal included); it may lag the log
by the events not yet folded, and the fold ignores a card that slips through. The gateway
turns a `Refusal` into its refusal (`services.gateway.tables.service`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from shared.cards import Card
from shared.deal import parse_deal
from shared.seats import NotationError, Seat
from shared.table.board_view import BoardView
from shared.vocabulary import BoardStatus


@dataclass(frozen=True)
class Refusal:
    """Why an event (a card; a result, `shared.table.result_checks`) may not be appended: the
    reason, the field at fault, and whether it is the sender's authority (`forbidden`) rather
    than the event itself."""

    reason: str
    field: str
    forbidden: bool = False
    retry: bool = False  # the state does not tell yet: the same card may be sent again


def dummy_and_declarer(board: BoardView) -> tuple[str, str] | None:
    contract = board.get("contract")
    if not contract or board.get("status") != BoardStatus.CLOSED:
        return None
    declarer = Seat.parse(contract["declarer"])
    return declarer.partner.name, declarer.name


def dummy_spread(board: Mapping[str, Any]) -> bool:
    """Whether dummy's hand is spread for all to see: once the opening lead is faced (Law
    41B, 41D), not while an opening lead out of turn awaits declarer's option (Law 54: dummy
    spreads once it is accepted, or once the right defender has led)."""
    if board.get("opening_lead") is None:
        return False
    play = board.get("play")
    return play is None or bool(play.get("tricks")) or board.get("result") is not None


DUMMY_NOT_SPREAD = Refusal(
    "dummy's hand is spread only once the opening lead is faced (Laws 41B, 41D): declarer "
    "plays dummy's cards from then on (Law 45B), none before it; send it again once the "
    "table's state shows the opening lead", "seat", retry=True)
"""A card declarer sends from dummy's hand before dummy spreads it: refused whatever it is,
with the same answer, so that no answer tells which cards dummy holds. A 409 with
Retry-After, not a 403: the opening lead may be appended already and not yet in the state
the gateway judges by (a client playing at once after the lead, as the demo's players do)."""


def card_refusal(board: BoardView | None, sender: str | None, seat: str,
                 card_text: Any) -> Refusal | None:
    """Why the card from `seat`'s hand, sent by `sender` (a seat's token; None: the table's
    operator, who records any seat's cards), is refused, or None. Declarer's card from dummy
    before dummy spreads his hand (Laws 41B, 41D, 45B) is refused whatever the card
    (`DUMMY_NOT_SPREAD`): judged against the deal, the answer would tell what dummy holds.
    The syntax of the card itself is the event schema's (`shared.codec`)."""
    if board is not None and board.get("result") is not None:
        # the play period is over (or the board passed out): the card is for a next board
        # whose start the state has not folded yet; judged against this one, its dummy and
        # its cards played, a good card would be refused
        return Refusal("this board's play is over and the next board's start is not in "
                           "the table's state yet: send the card again once it has started",
                           "card", retry=True)
    roles = dummy_and_declarer(board) if board is not None else None
    if sender is not None:
        if roles is not None and sender == roles[0]:
            return Refusal(f"{sender} is dummy: declarer plays dummy's cards (Law 45)",
                               "seat", forbidden=True)
        if seat != sender and roles is None and (
                board is None or board.get("status") == BoardStatus.AUCTION):
            # the auction's end not folded yet (the state lags the log by milliseconds):
            # whether the sender is declarer is not known yet
            return Refusal("the auction's end is not in the table's state yet: send the "
                               "card again", "seat", retry=True)
        if seat != sender and not (roles is not None and (sender, seat) == (roles[1], roles[0])):
            return Refusal("a seat plays from its own hand (declarer from dummy's too, "
                               "Law 45)", "seat", forbidden=True)
        if seat != sender and board is not None and not dummy_spread(board):
            return DUMMY_NOT_SPREAD  # declarer, from dummy's hand not yet seen
    if board is None or not isinstance(card_text, str):
        return None
    try:
        card = Card.parse(card_text)
    except NotationError:
        return None  # the schema's check names it
    text = str(card)
    play = board.get("play")
    tricks = play["tricks"] if play is not None else []
    waiting = (play.get("waiting") or []) if play is not None else []
    if any(c["card"] == text for trick in tricks for c in trick["cards"]) \
            or any(c["card"] == text for c in waiting):
        return Refusal(f"field 'card': {text} has been played already", "card")
    deal = board.get("deal")
    if deal:
        hand = _hands(deal).get(Seat.parse(seat))
        if hand is not None and card.rank not in hand.split(".")["SHDC".index(card.suit)]:
            return Refusal(f"field 'card': {text} is not in {seat}'s hand", "card")
    return None


@lru_cache(maxsize=4096)
def _hands(deal: str) -> Mapping[Seat, str]:
    """A deal's hands, parsed once for all the cards of its board (read, never changed): the
    gateway checks every card against its seat's hand (`bench/instructions_bench.py`: the
    whole deal parsed at each card was 7 % of the gateway's instructions an event)."""
    return parse_deal(deal)
