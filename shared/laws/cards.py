"""Cards exposed: during the auction (Law 24; rubber 23), and after it, declarer's (Law 48A) or a
defender's (Law 49); a card of the declaring side faced as an opening lead, which is no lead
(Law 54E). The opening lead is the play's (`shared.laws.play`)."""

from __future__ import annotations

from shared.cards import Card
from shared.events import CardExposed
from shared.laws.citations import cite
from shared.laws.penalty_cards import lead_after_penalty_card
from shared.seats import Seat
from shared.table.board import Board
from shared.table.play import is_minor
from shared.vocabulary import BoardStatus, Irregularity, PassObligation


def on_card_exposed(board: Board, event: CardExposed) -> None:
    """Law 24 (rubber 23): a card exposed during the auction stays face up until the auction
    closes and is a penalty card if the offender becomes a defender (Law 50).
    - A: a single card below honour rank, not prematurely led: no further penalty;
    - B: a single honour, or any card prematurely led: partner must pass at his next turn;
    - C: two or more cards: partner must pass at his next turn (Law 23 may apply)."""
    seat, card = event.seat, event.card
    if board.status != BoardStatus.AUCTION:
        exposed_after_auction(board, event)
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


def exposed_after_auction(board: Board, event: CardExposed) -> None:
    """A card exposed once the auction has closed.
    - Law 48A: declarer is not subject to rectification for exposing a card, and no card of
      declarer's or dummy's hand ever becomes a penalty card: recorded, nothing more.
    - Law 49: a defender's card exposed (not in the normal course of play) is a penalty card
      (Law 50): during the play it joins the penalty cards at once; before the opening lead
      it waits with the auction's exposed cards, which the play takes up (Laws 24, 50)."""
    seat, card = event.seat, event.card
    declarer, play = board.declarer, board.play
    if declarer is None:  # passed out: there is no play
        board.exposed += ((seat, card, event.led),)
        board.alert(Irregularity.EXPOSED_CARD, cite(board, "24"), seat,
                    f"{seat} exposed {card} after the auction closed.", ("no play follows",))
        return
    if not seat.is_opponent_of(declarer):
        board.rectify(cite(board, "48A"), seat, f"declarer exposed {card} from {seat}'s hand: "
                      "no rectification, and no card of declarer's or dummy's hand is a "
                      "penalty card.")
        return
    if play is None:
        board.exposed += ((seat, card, event.led),)
    elif play.ended is not None or play.gone[card.index] or play.holds(seat, card) is False:
        board.note_ignored(f"{card} is not a card {seat} holds in the play")
        return
    elif (seat, card) not in play.penalty:
        play.penalty += ((seat, card),)
        if not event.led:  # Law 50B: dropped, not played: minor if below honour rank
            play.inadvertent += ((seat, card),)
        play.recheck()
    if is_minor(play, seat, card) if play is not None else not event.led \
            and not card.is_honour and sum(1 for s, _, _ in board.exposed if s is seat) == 1:
        kind, options = "a minor penalty card (Laws 49, 50B)", (
            f"{seat} may play no other card of its suit below honour rank before it; "
            f"{seat.partner}'s lead is free (Law 50C)",)
    else:
        kind, options = "a penalty card (Laws 49, 50)", (
            f"declarer ({declarer}) has Law 50D's options when {seat.partner} is next on "
            "lead; the card must be played at the first legal opportunity (Law 50D1)",)
    board.alert(Irregularity.EXPOSED_CARD, cite(board, "49"), seat,
                f"{seat} exposed {card} after the auction closed: {kind}.", options)
    if play is not None and not play.in_trick and play.ended is None:
        lead_after_penalty_card(board, play)  # his partner on lead now: Law 50D2


def attempted_opening_lead(board: Board, seat: Seat, card: Card) -> None:
    """A card from declarer's or dummy's hand before the opening lead is faced: no lead.
    - Duplicate, 2017 Law 54E: "If a player of the declaring side attempts to make an opening
      lead Law 24 applies". Only a defender's card faced ends the auction period (17D1), so
      the card is one exposed during the auction period (Law 24): left face up until that
      period ends, then, the offender being declarer or dummy, picked up and returned to the
      hand, no penalty card; its information is unauthorised for declarer's side. Nothing is
      led, nothing is accepted: no Law 55A option, dummy's hand is not spread (Law 41D), and
      declarer's LHO makes the opening lead (Law 41A). Law 24B's pass at partner's next turn
      to call has no turn left to apply to.
    - Rubber: the opening lead is declarer's LHO's (Law 41) and play began when the auction
      closed (22(b)): a card of declarer's side exposed, not subject to penalty and never a
      penalty card (48(a)); it goes back to the hand at once."""
    declarer = board.declarer
    assert declarer is not None
    leader = declarer.lho
    if not board.duplicate:
        board.rectify(cite(board, "48A"), seat, f"{card} from {seat}'s hand before the opening "
                      f"lead is not a lead: {leader}, declarer's LHO, leads (Law 41). No "
                      "rectification: a card of declarer's or dummy's hand is never a penalty "
                      "card (Law 48A); it goes back to the hand.")
        return
    board.exposed += ((seat, card, True),)
    board.alert(Irregularity.EXPOSED_CARD, "54E", seat,
                f"{seat}, of the declaring side, faced {card} before the opening lead: not a "
                f"lead (Law 54E), and the auction period goes on (17D1). Law 24: it stays face "
                f"up until the opening lead is faced, then goes back to {seat}'s hand, no "
                "penalty card.",
                (f"{leader}, declarer's LHO, makes the opening lead (Law 41A); the information "
                 "from the card is unauthorised for declarer's side (Laws 24, 16C)",))
